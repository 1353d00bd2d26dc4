// `dse run [CONFIG]`: simulate what the experiment config describes, or search its `search:` space;
// write its result file.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "cli/command.h"
#include "cli/progress_bar.h"
#include "cli/run_report.h"
#include "cli/search_session.h"
#include "models/base/errors.h"
#include "search/pareto.h"
#include "search/rank_group.h"
#include "search/search_output.h"
#include "search/search_run.h"
#include "sim/config/config_loader.h"
#include "sim/config/embedded_files.h"
#include "sim/config/overrides.h"
#include "sim/output/atomic_file.h"
#include "sim/output/chrome_trace.h"
#include "sim/output/hdf5_result.h"
#include "sim/output/summary_json.h"
#include "sim/run/simulation.h"

namespace dse {
namespace {

struct RunOptions {
  std::string config_file;
  std::vector<std::string> overrides;
  std::string trace_file;
  bool resume = false;
  bool force = false;
  int threads = 0;
  std::string distribution = "dynamic";
  std::int64_t chunk = 1;
  std::string shard;
  OutputMode mode;
};

int run_search_experiment(const RunOptions& options, const ConfigNode& config, const std::string& config_file) {
  const PreparedSearch search = prepare_search(config, config_file);
  if (!options.trace_file.empty())
    throw UserError("--trace: a search has no single timeline; run its best config instead");
  std::string output = search.check.output_path;
  if (options.resume && output.empty())
    throw UserError("--resume: the experiment has no output, so no journal to resume");
  SearchRunOptions run_options;
  if (!options.shard.empty()) {
    const SearchShard shard = parse_shard(options.shard, "--shard");
    if (output.empty())
      throw UserError("--shard: the experiment has no output; a shard writes OUTPUT.shard-K-of-N.h5 for dse merge");
    output = sibling_path(output, fmt::format(".shard-{}-of-{}.h5", shard.index, shard.count));
    run_options.shard = shard;
    // dse merge rebuilds the search from a shard's journal: its config and place go in the header.
    run_options.journal_extra = {
        {"config", to_yaml(config)}, {"config_file", config_file}, {"shard", shard.index}, {"shards", shard.count}};
  }
  run_options.journal_path = output.empty() ? "" : sibling_path(output, ".journal.jsonl");
  run_options.resume = options.resume;
  run_options.force = options.force;
  if (options.resume && options.force) throw UserError("--resume and --force: expected one of them, found both");
  run_options.threads = options.threads;
  run_options.distribution.kind = kDistributionNames.parse(options.distribution).value_or(Distribution::dynamic);
  run_options.distribution.min_chunk = options.chunk;
  const bool lead = RankGroup::world().rank() == 0;  // under mpirun, rank 0 alone writes and prints
  const SearchSettings& settings = search.settings;
  const std::int64_t trials =
      run_options.shard ? run_options.shard->share(settings.options.trials) : settings.options.trials;
  ProgressBar bar("search", static_cast<std::size_t>(trials));
  if (lead)
    run_options.progress = [&bar, &settings](std::int64_t done, std::int64_t, const std::optional<TrialResult>& best) {
      bar.update(static_cast<std::size_t>(done), best ? fmt::format("best {} {:.6g}", settings.primary().metric,
                                                                    best->metrics.at(settings.primary().metric))
                                                      : std::string("no feasible trial yet"));
    };
  if (!run_options.journal_path.empty() && lead) {
    AtomicFile(run_options.journal_path).check_writable();  // creates the folder, checks the path
    AtomicFile(output).check_writable();
  }
  const SearchOutcome outcome = run_search(search.base, config_file, settings, run_options);
  if (!lead) return 0;
  bar.finish();
  finish_search(search, outcome, output, run_options.journal_path, options.mode);
  return 0;
}

int run(const RunOptions& options) {
  const std::string config_file = options.config_file.empty()
                                      ? std::string(kEmbeddedPrefix) + "configs/experiments/quickstart.yaml"
                                      : options.config_file;
  ConfigNode config = load_config_file(config_file);
  apply_overrides(config, options.overrides);
  // `search: ~` (or -p search=): the experiment as written, without its search.
  if (const ConfigNode* search = config.is_map() ? config.peek("search") : nullptr; search && search->is_null())
    config.erase("search");
  if (config.is_map() && config.peek("search")) return run_search_experiment(options, config, config_file);
  if (options.resume) throw UserError("--resume: the experiment has no search block to resume");
  const Experiment experiment = read_experiment(config, config_file);
  // Outputs that cannot be written stop the run before it simulates.
  if (!experiment.output_path.empty()) AtomicFile(experiment.output_path).check_writable();
  if (!options.trace_file.empty()) AtomicFile(options.trace_file).check_writable();
  const RunResult result = run_experiment(experiment);

  if (!experiment.output_path.empty()) write_hdf5_result(experiment.output_path, experiment, result);
  if (!options.trace_file.empty()) write_chrome_trace(options.trace_file, result);

  if (!options.mode.quiet) {
    print_op_table(options.mode.human(), experiment, result);
    print_run_summary(options.mode.human(), experiment, result);
    if (!options.trace_file.empty())
      std::fprintf(options.mode.human(), "trace             %s\n", options.trace_file.c_str());
  }
  if (options.mode.json) {
    nlohmann::json summary = summary_json(experiment, result);
    summary["trace"] = options.trace_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(options.trace_file);
    options.mode.print_json(summary);
  }
  return 0;
}

}  // namespace

Subcommand add_run_command(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Simulate the experiment a YAML config describes");
  command->add_option("config", options->config_file,
                      "Experiment YAML (default: the embedded configs/experiments/quickstart.yaml)");
  command->add_option("-p,--param", options->overrides, "Override a config key: KEY.PATH=VALUE (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one value per -p, so a config path after it stays positional
  command->add_option("--trace", options->trace_file, "Write the simulated timeline as a Chrome trace JSON")
      ->type_name("FILE");
  command->add_flag("--resume", options->resume,
                    "Continue an interrupted search from its journal (OUTPUT.journal.jsonl)");
  command->add_flag("--force", options->force,
                    "Start a search over, discarding the trials of an earlier run's journal");
  command->add_option("--threads", options->threads, "TBB worker threads for searches (default: all cores)")
      ->check(CLI::Range(1, 4096));
  command
      ->add_option("--distribution", options->distribution,
                   "Under mpirun: how a batch's trials reach the ranks: dynamic (rank 0 hands them out as ranks "
                   "ask; the default) or static (trial i on rank i mod N)")
      ->check(CLI::IsMember({"dynamic", "static"}));
  command
      ->add_option("--chunk", options->chunk,
                   "Under mpirun, dynamic: the fewest trials rank 0 hands out at once (default 1; raise it for "
                   "trials of microseconds on many ranks, docs/cluster.md)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1'000'000}));
  command
      ->add_option("--shard", options->shard,
                   "Run shard K of N (0 <= K < N) of a grid, random, sobol or latin_hypercube search into "
                   "OUTPUT.shard-K-of-N.h5; dse merge joins the shards (docs/cluster.md)")
      ->type_name("K/N");
  add_output_flags(*command, options->mode, true);
  return {command, [options] { return run(*options); }};
}

}  // namespace dse
