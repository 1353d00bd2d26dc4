// `dse run [CONFIG]`: simulate what the experiment config describes, or search its `search:` space;
// write its result file.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "cli/command.h"
#include "cli/progress_bar.h"
#include "cli/run_report.h"
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
  OutputMode mode;
};

// "results/x.h5" -> "results/x" + suffix
std::string sibling(const std::string& output, const std::string& suffix) {
  const auto dot = output.rfind('.');
  const auto slash = output.rfind('/');
  const std::string stem =
      dot != std::string::npos && (slash == std::string::npos || dot > slash) ? output.substr(0, dot) : output;
  return stem + suffix;
}

// A trial value as the terminal shows it: long ones (whole schedules) cut short; the journal, the
// HDF5 file and the best config hold them whole.
std::string shown_value(const std::string& value) {
  constexpr std::size_t kShown = 60;
  if (value.size() <= kShown) return value;
  return fmt::format("{}... ({} characters)", value.substr(0, kShown), value.size());
}

int run_search_experiment(const RunOptions& options, const ConfigNode& config, const std::string& config_file) {
  ConfigNode base = config;
  base.erase("search");
  const Experiment check = read_experiment(base, config_file);  // the base must be a valid experiment
  SpaceContext context([&check](const std::string& key) { return check.device->supported_values(key); });
  for (const auto& model : check.models) context.tenants.push_back(model.graph);
  const SearchSettings settings = read_search_settings(*config.find("search"), context);
  check_search_space_keys(base, config_file, settings);
  check_search_metrics(settings, experiment_metric_names(check));
  if (!options.trace_file.empty())
    throw UserError("--trace: a search has no single timeline; run its best config instead");
  const std::string& output = check.output_path;
  if (options.resume && output.empty())
    throw UserError("--resume: the experiment has no output, so no journal to resume");
  SearchRunOptions run_options;
  run_options.journal_path = output.empty() ? "" : sibling(output, ".journal.jsonl");
  run_options.resume = options.resume;
  run_options.force = options.force;
  if (options.resume && options.force) throw UserError("--resume and --force: expected one of them, found both");
  run_options.threads = options.threads;
  const bool lead = RankGroup::world().rank() == 0;  // under mpirun, rank 0 alone writes and prints
  ProgressBar bar("search", static_cast<std::size_t>(settings.options.trials));
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
  const SearchOutcome outcome = run_search(base, config_file, settings, run_options);
  if (!lead) return 0;
  bar.finish();

  std::string best_path;
  if (outcome.best && !output.empty()) {
    best_path = sibling(output, ".best.yaml");
    // The best config writes its own result file, not over the search's.
    ConfigNode best_base = base;
    apply_override(best_base, "output=" + sibling(output, ".best.h5"), 1);
    write_file_atomically(best_path, best_config_yaml(best_base, settings, *outcome.best));
  }
  if (!output.empty()) {
    // The baseline: the experiment as written, without the search's values (reports mark it).
    std::optional<MetricTable> baseline;
    try {
      baseline = run_experiment(check).metrics;
    } catch (const UserError&) {
      // a base the simulator refuses on its own (a UserError) leaves the search without a baseline
    }
    write_search_hdf5(output, to_yaml(config), config_file, settings, outcome, baseline ? &*baseline : nullptr);
  }

  if (!options.mode.quiet) {
    std::FILE* out = options.mode.human();
    if (outcome.journal_cut_line)
      fmt::print(out, "{}:{}: the journal's last line was cut short (a kill); dropped, its trial ran again\n",
                 run_options.journal_path, *outcome.journal_cut_line);
    std::vector<const TrialResult*> ranked;
    for (const auto& r : outcome.trials)
      if (r.objective) ranked.push_back(&r);
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const TrialResult* a, const TrialResult* b) { return *a->objective > *b->objective; });
    fmt::print(out, "{} trials ({} simulated now), {} {}; best first:\n", outcome.trials.size(), outcome.evaluated,
               settings.primary().maximize ? "maximize" : "minimize", settings.primary().metric);
    for (std::size_t i = 0; i < std::min<std::size_t>(10, ranked.size()); ++i) {
      std::string values;
      for (std::size_t p = 0; p < settings.space.parameters.size(); ++p)
        values += fmt::format("{}{}={}", p ? " " : "", settings.space.parameters[p].key,
                              shown_value(ranked[i]->trial.values[p]));
      fmt::print(out, "  #{:<5} {} = {:<12.6g} {}\n", ranked[i]->trial.id, settings.primary().metric,
                 ranked[i]->metrics.at(settings.primary().metric), values);
    }
    std::map<std::string, int> counts;
    for (const auto& r : outcome.trials) ++counts[trial_status_name(r.status)];
    for (const auto& [status, count] : counts) fmt::print(out, "  {}: {}\n", status, count);
    if (settings.objectives.size() > 1) {
      auto front = pareto_front(outcome.trials);
      std::stable_sort(front.begin(), front.end(), [&](std::size_t a, std::size_t b) {
        return *outcome.trials[a].objective > *outcome.trials[b].objective;
      });
      fmt::print(out, "Pareto front ({} points{}):\n", front.size(), front.size() > 15 ? ", 15 shown" : "");
      if (front.size() > 15) front.resize(15);
      for (const auto i : front) {
        std::string line;
        for (const auto& o : settings.objectives)
          line += fmt::format("  {} = {:.6g}", o.metric, outcome.trials[i].metrics.at(o.metric));
        fmt::print(out, "  #{:<5}{}\n", outcome.trials[i].trial.id, line);
      }
    }
    if (!best_path.empty()) fmt::print(out, "best config       {}  (dse run {})\n", best_path, best_path);
    if (!output.empty()) fmt::print(out, "output            {}\n", output);
  }
  if (options.mode.json) options.mode.print_json(search_summary_json(settings, outcome, best_path));
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
  add_output_flags(*command, options->mode, true);
  return {command, [options] { return run(*options); }};
}

}  // namespace dse
