#include "cli/search_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "search/pareto.h"
#include "search/search_output.h"
#include "sim/config/config_loader.h"
#include "sim/config/overrides.h"
#include "sim/output/atomic_file.h"
#include "sim/run/device_memory.h"
#include "sim/run/simulation.h"

namespace dse {
namespace {

// A trial value as the terminal shows it: long ones (whole schedules) cut short; the journal, the
// HDF5 file and the best config hold them whole.
std::string shown_value(const std::string& value) {
  constexpr std::size_t kShown = 60;
  if (value.size() <= kShown) return value;
  return fmt::format("{}... ({} characters)", value.substr(0, kShown), value.size());
}

void print_search(std::FILE* out, const SearchSettings& settings, const SearchOutcome& outcome) {
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
  for (const auto& r : outcome.trials) ++counts[kTrialStatusNames.name(r.status)];
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
  if (outcome.ranks.size() > 1) {
    fmt::print(out, "{} ranks, {} distribution: rank, threads, trials, busy share, trials/s\n", outcome.ranks.size(),
               kDistributionNames.name(outcome.distribution));
    for (const auto& load : outcome.ranks)
      fmt::print(out, "  {:>4} {:>3} {:>8} {:>6.1f} % {:>10.1f}\n", load.rank, load.threads, load.trials,
                 100 * load.busy_share(), load.wall_s > 0 ? load.trials / load.wall_s : 0.0);
  }
}

}  // namespace

PreparedSearch prepare_search(const ConfigNode& config, const std::string& config_file) {
  ConfigNode base = config;
  base.erase("search");
  // The base must be a valid experiment; whether its models fit in memory is each trial's to say.
  Experiment check = read_experiment(base, config_file, nullptr, MemoryCheck::skip);
  SpaceContext context([&check](const std::string& key) { return check.device->supported_values(key); });
  for (const auto& model : check.models) context.tenants.push_back(model.graph);
  SearchSettings settings = read_search_settings(*config.find("search"), context);
  check_search_space_keys(base, config_file, settings);
  check_search_metrics(settings, experiment_metric_names(check));
  return {config, std::move(base), config_file, std::move(check), std::move(settings)};
}

void finish_search(const PreparedSearch& search, const SearchOutcome& outcome, const std::string& output,
                   const std::string& journal_path, const OutputMode& mode) {
  const auto start = std::chrono::steady_clock::now();
  const SearchSettings& settings = search.settings;
  std::string best_path;
  if (outcome.best && !output.empty()) {
    best_path = sibling_path(output, ".best.yaml");
    // The best config writes its own result file, not over the search's.
    ConfigNode best_base = search.base;
    apply_override(best_base, "output=" + sibling_path(output, ".best.h5"), 1);
    write_file_atomically(best_path, best_config_yaml(best_base, settings, *outcome.best));
  }
  if (!output.empty()) {
    // The baseline: the experiment as written, without the search's values (reports mark it).
    std::optional<MetricTable> baseline;
    try {
      check_device_memory(search.check, search.base);
      baseline = run_experiment(search.check).metrics;
    } catch (const UserError&) {
      // a base the simulator refuses on its own (a UserError; models over memory) leaves the search
      // without a baseline
    }
    write_search_hdf5(output, to_yaml(search.config), search.config_file, settings, outcome,
                      baseline ? &*baseline : nullptr);
  }
  if (!mode.quiet) {
    std::FILE* out = mode.human();
    if (outcome.journal_cut_line)
      fmt::print(out, "{}:{}: the journal's last line was cut short (a kill); dropped, its trial ran again\n",
                 journal_path, *outcome.journal_cut_line);
    print_search(out, settings, outcome);
    if (!best_path.empty()) fmt::print(out, "best config       {}  (dse run {})\n", best_path, best_path);
    if (!output.empty()) fmt::print(out, "output            {}\n", output);
  }
  if (mode.json) {
    nlohmann::json summary = search_summary_json(settings, outcome, best_path);
    // What the search took, and what writing its outputs took after it (docs/cluster.md).
    summary["search_wall_s"] = outcome.wall_s;
    summary["postprocess_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    mode.print_json(summary);
  }
}

}  // namespace dse
