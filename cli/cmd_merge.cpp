// `dse merge OUT.h5 SHARD.h5...`: joins the shards of a search run apart (`dse run X.yaml --shard
// K/N`, e.g. as a Slurm job array) into the result file, best config and summary one run of the
// whole search writes. It reads each shard's journal (beside its file), whose header holds the
// shard's place and its resolved config, and refuses shards of different experiments or splits,
// a shard given twice, missing shards and unfinished ones, saying which.
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "cli/command.h"
#include "cli/search_session.h"
#include "models/base/errors.h"
#include "search/journal.h"
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

struct ShardInput {
  std::string file;     // as given
  std::string journal;  // its journal
  nlohmann::json header;
  std::int64_t index = 0;
  std::int64_t count = 1;
};

ShardInput read_shard(const std::string& file) {
  ShardInput shard;
  shard.file = file;
  const std::string suffix = ".journal.jsonl";
  const bool is_journal =
      file.size() > suffix.size() && file.compare(file.size() - suffix.size(), suffix.size(), suffix) == 0;
  shard.journal = is_journal ? file : sibling_path(file, suffix);
  if (!std::filesystem::exists(shard.journal))
    throw UserError(file + ": expected a shard's result file with its journal beside it, found no " + shard.journal +
                    " (dse merge reads the journals dse run --shard K/N writes next to each shard's file)");
  shard.header = read_search_journal_header(shard.journal);
  const auto& h = shard.header;
  if (!h.contains("shard") || !h["shard"].is_number_integer() || !h.contains("shards") ||
      !h["shards"].is_number_integer() || !h.contains("config") || !h["config"].is_string() ||
      !h.contains("config_file") || !h["config_file"].is_string())
    throw UserError(shard.journal +
                    ":1: expected the journal of a shard (dse run --shard K/N), found one of a "
                    "search run whole");
  shard.index = h["shard"].get<std::int64_t>();
  shard.count = h["shards"].get<std::int64_t>();
  if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count)
    throw UserError(fmt::format("{}:1: expected a shard K of N with 0 <= K < N, found {}/{}", shard.journal,
                                shard.index, shard.count));
  if (shard.count > kMaxShards)
    throw UserError(fmt::format("{}:1: expected a shard of at most {} (dse run --shard's limit), found {}/{}",
                                shard.journal, kMaxShards, shard.index, shard.count));
  return shard;
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
void refuse_output_over_inputs(const std::string& output, const std::vector<ShardInput>& shards) {
  for (const std::string& written : {output, sibling_path(output, ".best.yaml")})
    for (const auto& shard : shards)
      for (const auto& [input, what] : {std::pair{shard.journal, "journal"}, std::pair{shard.file, "result file"}})
        if (same_file(written, input))
          throw UserError(fmt::format(
              "{}: cannot write the merged result over shard {}/{}'s {} ({}): expected an output path that is "
              "none of the shards' files",
              written, shard.index, shard.count, what, input));
}

// The first line where two texts differ, for the error about shards of different configs.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream in_a(a), in_b(b);
  std::string line_a, line_b;
  for (int line = 1;; ++line) {
    const bool more_a = static_cast<bool>(std::getline(in_a, line_a));
    const bool more_b = static_cast<bool>(std::getline(in_b, line_b));
    if (!more_a && !more_b) return "";
    if (!more_a || !more_b || line_a != line_b)
      return fmt::format("line {} of their resolved configs: '{}' against '{}'", line, more_a ? line_a : "",
                         more_b ? line_b : "");
  }
}

int merge(const MergeOptions& options) {
  std::vector<ShardInput> shards;
  for (const auto& file : options.shards) shards.push_back(read_shard(file));
  refuse_output_over_inputs(options.output, shards);
  const ShardInput& first = shards.front();
  std::map<std::int64_t, const ShardInput*> by_index;
  for (const auto& shard : shards) {
    if (shard.header["config"] != first.header["config"])
      throw UserError(fmt::format(
          "{} and {}: shards of different experiments ({}); expected the shards of one search", first.file, shard.file,
          first_difference(first.header["config"].get<std::string>(), shard.header["config"].get<std::string>())));
    if (shard.count != first.count)
      throw UserError(fmt::format("{} is shard {}/{} and {} is shard {}/{}: expected the shards of one split",
                                  first.file, first.index, first.count, shard.file, shard.index, shard.count));
    if (const auto [it, added] = by_index.emplace(shard.index, &shard); !added)
      throw UserError(fmt::format("{} and {} are both shard {}/{}: expected each shard once", it->second->file,
                                  shard.file, shard.index, shard.count));
  }
  const std::string config_file = first.header["config_file"].get<std::string>();
  const ConfigNode config =
      load_config_text(first.header["config"].get<std::string>(), first.journal + " (its config)");
  const PreparedSearch search = prepare_search(config, config_file);
  const SearchSettings& settings = search.settings;
  if (static_cast<std::int64_t>(by_index.size()) != first.count) {
    // The first few by name, then how many more.
    constexpr int kNamed = 20;
    std::string missing;
    std::int64_t unnamed = 0;
    int named = 0;
    for (std::int64_t k = 0; k < first.count; ++k) {
      if (by_index.contains(k)) continue;
      if (named == kNamed) {
        ++unnamed;
        continue;
      }
      ++named;
      missing +=
          fmt::format("{}{}/{} ({})", missing.empty() ? "" : ", ", k, first.count,
                      search.check.output_path.empty()
                          ? std::string("?")
                          : sibling_path(search.check.output_path, fmt::format(".shard-{}-of-{}.h5", k, first.count)));
    }
    if (unnamed) missing += fmt::format(" and {} more", unnamed);
    throw UserError(fmt::format("missing shards {}: expected all {} shards of the search (dse run {} --shard K/{})",
                                missing, first.count, config_file, first.count));
  }
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
