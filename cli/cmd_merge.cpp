// `dse merge OUT.h5 SHARD.h5...`: joins the shards of a search run apart (`dse run X.yaml --shard
// K/N`, e.g. as a Slurm job array) into the result file, best config and summary one run of the
// whole search writes. It reads each shard's journal (beside its file), whose header holds the
// shard's place and its resolved config, and refuses shards of different experiments or splits,
// a shard given twice, missing shards and unfinished ones, saying which.
#include <fmt/format.h>

#include <filesystem>
#include <map>

#include "cli/command.h"
#include "cli/search_session.h"
#include "models/base/errors.h"
#include "search/journal.h"
#include "search/merge_inputs.h"
#include "search/search_output.h"
#include "search/search_run.h"
#include "sim/config/config_loader.h"
#include "sim/output/atomic_file.h"

namespace dse {
namespace {

struct MergeOptions {
  std::string output;
  std::vector<std::string> shards;
  OutputMode mode;
};

MergeShard read_shard(const std::string& file) {
  const std::string journal = shard_journal_path(file);
  if (!std::filesystem::exists(journal))
    throw UserError(file + ": expected a shard's result file with its journal beside it, found no " + journal +
                    " (dse merge reads the journals dse run --shard K/N writes next to each shard's file)");
  return shard_from_header(file, journal, read_search_journal_header(journal));
}

// Whether two paths name one file: the same inode, or the same path once links and dots are resolved.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  if (std::filesystem::equivalent(a, b, error)) return true;
  const auto resolved_a = std::filesystem::weakly_canonical(a, error);
  if (error) return false;
  const auto resolved_b = std::filesystem::weakly_canonical(b, error);
  return !error && resolved_a == resolved_b;
}

// The merged file and its best config must not replace an input: a shard's journal is the only
// record of its trials.
void refuse_output_over_inputs(const std::string& output, const std::vector<MergeShard>& shards) {
  for (const std::string& written : {output, sibling_path(output, ".best.yaml")})
    for (const auto& shard : shards)
      for (const auto& [input, what] : {std::pair{shard.journal, "journal"}, std::pair{shard.file, "result file"}})
        if (same_file(written, input))
          throw UserError(fmt::format(
              "{}: cannot write the merged result over shard {}/{}'s {} ({}): expected an output path that is "
              "none of the shards' files",
              written, shard.index, shard.count, what, input));
}

int merge(const MergeOptions& options) {
  std::vector<MergeShard> shards;
  for (const auto& file : options.shards) shards.push_back(read_shard(file));
  refuse_output_over_inputs(options.output, shards);
  const MergeShard& first = shards.front();
  const std::map<std::int64_t, const MergeShard*> by_index = shards_by_index(shards);
  const std::string config_file = first.header["config_file"].get<std::string>();
  const ConfigNode config =
      load_config_text(first.header["config"].get<std::string>(), first.journal + " (its config)");
  const PreparedSearch search = prepare_search(config, config_file);
  const SearchSettings& settings = search.settings;
  check_no_shard_missing(by_index, first.count, search.check.output_path, config_file);
  // Each shard's trials, from its journal (a header that is not a shard's own is refused there).
  std::map<std::int64_t, std::map<std::int64_t, TrialResult>> trials;
  for (const auto& [index, shard] : by_index) {
    nlohmann::json extra = shard->header;
    extra.erase("search");
    trials[index] =
        read_journal_trials(shard->journal, shard->header["search"].get<std::string>(), nullptr, nullptr, extra);
  }
  // The search's trials in id order, as the strategy proposes them; every one must be in its shard.
  auto strategy = StrategyRegistry::instance()
                      .find(settings.strategy)
                      ->factory(settings.space, settings.options, settings.strategy_params);
  SearchOutcome outcome;
  outcome.merged_from = options.shards;
  std::map<std::int64_t, std::int64_t> lacking, first_lacking, expected;
  for (;;) {
    std::vector<Trial> batch = strategy->propose(settings.batch);
    if (batch.empty()) break;
    for (auto& trial : batch) {
      trial.values = settings.space.canonical(trial.values);
      const std::int64_t k = trial.id % first.count;
      ++expected[k];
      const auto& mine = trials[k];
      const auto it = mine.find(trial.id);
      if (it == mine.end() || it->second.trial.values != trial.values) {
        if (!lacking[k]++) first_lacking[k] = trial.id;
        continue;
      }
      const TrialResult& r = it->second;
      strategy->report(r);
      if (r.objective && (!outcome.best || *r.objective > *outcome.best->objective)) outcome.best = r;
      outcome.trials.push_back(r);
    }
  }
  for (const auto& [k, count] : lacking)
    if (count)
      throw UserError(
          fmt::format("{}: shard {}/{} lacks {} of its {} trials (the first: trial {}): it did not finish; "
                      "run it again with --resume, then merge",
                      by_index.at(k)->file, k, first.count, count, expected[k], first_lacking[k]));
  AtomicFile(options.output).check_writable();
  finish_search(search, outcome, options.output, "", options.mode);
  return 0;
}

}  // namespace

Subcommand add_merge_command(CLI::App& app) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* command =
      app.add_subcommand("merge", "Join the shards of a search run apart (dse run --shard K/N) into one result file");
  command->add_option("output", options->output, "The merged result file (HDF5), as one run of the search writes")
      ->required()
      ->type_name("OUT.h5");
  command->add_option("shards", options->shards, "Every shard's result file (its journal must lie beside it)")
      ->required()
      ->type_name("SHARD.h5...");
  add_output_flags(*command, options->mode, true);
  return {command, [options] { return merge(*options); }};
}

}  // namespace dse
