#include "search/search_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <limits>

#include "search/pareto.h"
#include "sim/config/config_loader.h"
#include "sim/config/overrides.h"
#include "sim/output/hdf5_file.h"

namespace dse {

std::string sibling_path(const std::string& output, const std::string& suffix) {
  const auto dot = output.rfind('.');
  const auto slash = output.rfind('/');
  const std::string stem =
      dot != std::string::npos && (slash == std::string::npos || dot > slash) ? output.substr(0, dot) : output;
  return stem + suffix;
}

std::string best_config_yaml(const ConfigNode& base, const SearchSettings& settings, const TrialResult& best) {
  ConfigNode config = base;
  apply_overrides(config, trial_overrides(settings.space, best.trial));
  return to_yaml(config);
}

namespace {

// /meta/ranks, /meta/distribution, /meta/shard and /meta/rank_load: how the search was spread.
void write_rank_loads(Hdf5File& file, const SearchOutcome& outcome) {
  file.number("/meta/ranks", static_cast<double>(std::max<std::size_t>(1, outcome.ranks.size())));
  file.string("/meta/distribution",
              outcome.ranks.size() > 1 ? kDistributionNames.name(outcome.distribution) : "one rank");
  if (outcome.shard) file.string("/meta/shard", fmt::format("{}/{}", outcome.shard->index, outcome.shard->count));
  if (outcome.merged_from.size()) file.strings("/meta/merged_from", outcome.merged_from);
  if (outcome.ranks.empty()) return;
  std::vector<std::int64_t> rank, threads, trials, requests;
  std::vector<double> busy, trials_per_s, wall, coordinator, exchange;
  for (const auto& load : outcome.ranks) {
    rank.push_back(load.rank);
    threads.push_back(load.threads);
    trials.push_back(load.trials);
    busy.push_back(load.busy_share());
    wall.push_back(load.wall_s);
    trials_per_s.push_back(load.wall_s > 0 ? load.trials / load.wall_s : 0.0);
    coordinator.push_back(load.coordinator_s);
    requests.push_back(load.requests);
    exchange.push_back(load.exchange_s);
  }
  file.group("/meta/rank_load");
  file.integers("/meta/rank_load/rank", rank);
  file.integers("/meta/rank_load/threads", threads);
  file.integers("/meta/rank_load/trials", trials);
  file.doubles("/meta/rank_load/busy_share", busy);
  file.doubles("/meta/rank_load/wall_s", wall);
  file.doubles("/meta/rank_load/trials_per_s", trials_per_s);
  file.doubles("/meta/rank_load/coordinator_s", coordinator);
  file.integers("/meta/rank_load/requests", requests);
  file.doubles("/meta/rank_load/exchange_s", exchange);
}

}  // namespace

void write_search_hdf5(const std::string& path, const std::string& config_yaml, const std::string& config_file,
                       const SearchSettings& settings, const SearchOutcome& outcome, const MetricTable* baseline) {
  Hdf5File file(path);
  file.string("/config", config_yaml);
  write_meta(file, "search", config_file, "", {}, {});
  write_rank_loads(file, outcome);
  file.group("/trials");
  // One column at a time, each freed once written: for a million trials every column is 8-32 MB,
  // held beside the trials and the file being built (docs/cluster.md).
  const double sign = settings.primary().maximize ? 1.0 : -1.0;
  const auto doubles = [&](const std::string& column, const auto& value) {
    std::vector<double> values;
    values.reserve(outcome.trials.size());
    for (const auto& r : outcome.trials) values.push_back(value(r));
    file.doubles(column, values);
  };
  const auto strings = [&](const std::string& column, const auto& value) {
    std::vector<std::string> values;
    values.reserve(outcome.trials.size());
    for (const auto& r : outcome.trials) values.push_back(value(r));
    file.strings(column, values);
  };
  {
    std::vector<std::int64_t> ids;
    ids.reserve(outcome.trials.size());
    for (const auto& r : outcome.trials) ids.push_back(r.trial.id);
    file.integers("/trials/id", ids);
  }
  // Convergence: the best primary metric among trials 0..i.
  std::optional<double> best_score;
  doubles("/trials/best_so_far", [&](const TrialResult& r) {
    if (r.objective && (!best_score || *r.objective > *best_score)) best_score = r.objective;
    return best_score ? sign * *best_score : std::nan("");
  });
  strings("/trials/status", [](const TrialResult& r) { return kTrialStatusNames.name(r.status); });
  strings("/trials/message", [](const TrialResult& r) { return r.message; });
  doubles("/trials/objective", [&](const TrialResult& r) { return r.objective ? sign * *r.objective : std::nan(""); });
  file.group("/trials/parameters");
  for (std::size_t p = 0; p < settings.space.parameters.size(); ++p)
    strings("/trials/parameters/" + settings.space.parameters[p].key,
            [p](const TrialResult& r) { return r.trial.values[p]; });
  file.group("/trials/metrics");
  // The metrics any trial has: names are interned, so a pointer comparison finds the few distinct ones.
  std::vector<MetricName> seen;
  for (const auto& r : outcome.trials)
    for (const auto& entry : r.metrics)
      if (std::find(seen.begin(), seen.end(), entry.first) == seen.end()) seen.push_back(entry.first);
  std::set<std::string> names;
  for (const auto& name : seen) names.insert(name.str());
  for (const auto& name : names)
    doubles("/trials/metrics/" + name, [&name](const TrialResult& r) {
      const auto it = r.metrics.find(name);
      return it == r.metrics.end() ? std::nan("") : it->second;
    });
  file.group("/pareto");
  std::vector<std::int64_t> front_ids;
  for (const auto i : pareto_front(outcome.trials)) front_ids.push_back(outcome.trials[i].trial.id);
  file.integers("/pareto/trial", front_ids);
  if (outcome.best) {
    file.group("/best");
    file.integers("/best/trial", {outcome.best->trial.id});
    file.number("/best/objective", settings.primary().maximize ? *outcome.best->objective : -*outcome.best->objective);
  }
  if (baseline) {
    file.group("/baseline");
    write_metric_table(file, "/baseline/metrics", *baseline);
  }
  file.commit();
}

namespace {
nlohmann::json trial_json(const SearchSettings& settings, const TrialResult& r) {
  nlohmann::json values = nlohmann::json::object();
  for (std::size_t p = 0; p < settings.space.parameters.size(); ++p)
    values[settings.space.parameters[p].key] = r.trial.values[p];
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto& [name, value] : r.metrics) metrics[name.str()] = value;
  return {{"trial", r.trial.id}, {"values", values}, {"metrics", metrics}};
}
}  // namespace

nlohmann::json search_summary_json(const SearchSettings& settings, const SearchOutcome& outcome,
                                   const std::string& best_config_path) {
  std::map<std::string, std::int64_t> counts;
  for (const auto& r : outcome.trials) ++counts[kTrialStatusNames.name(r.status)];
  nlohmann::json best = nullptr;
  if (outcome.best) {
    best = trial_json(settings, *outcome.best);
    best[settings.primary().metric] = outcome.best->metrics.at(settings.primary().metric);
  }
  nlohmann::json objectives = nlohmann::json::array();
  for (const auto& o : settings.objectives) objectives.push_back({{o.maximize ? "maximize" : "minimize", o.metric}});
  nlohmann::json pareto = nlohmann::json::array();
  std::vector<std::vector<double>> front;
  for (const auto i : pareto_front(outcome.trials)) {
    pareto.push_back(trial_json(settings, outcome.trials[i]));
    front.push_back(outcome.trials[i].scores);
  }
  // Hypervolume against the worst score seen on each objective among ok trials.
  nlohmann::json volume = nullptr;
  const std::size_t dims = settings.objectives.size();
  if (dims >= 2 && !front.empty()) {
    std::vector<double> reference(dims, std::numeric_limits<double>::infinity());
    for (const auto& r : outcome.trials)
      for (std::size_t o = 0; o < r.scores.size() && o < dims; ++o) reference[o] = std::min(reference[o], r.scores[o]);
    if (const auto hv = hypervolume(front, reference)) volume = *hv;
  }
  nlohmann::json rank_loads = nlohmann::json::array();
  for (const auto& load : outcome.ranks) {
    nlohmann::json entry = rank_load_json(load);
    entry["busy_share"] = load.busy_share();
    rank_loads.push_back(entry);
  }
  return {{"objectives", objectives},
          {"strategy", settings.strategy},
          {"best", best},
          {"trials", outcome.trials.size()},
          {"status_counts", counts},
          {"pareto", pareto},
          {"hypervolume", volume},
          {"evaluated_this_run", outcome.evaluated},
          {"ranks", rank_loads},
          {"evaluations_per_s", outcome.wall_s > 0 ? static_cast<double>(outcome.evaluated) / outcome.wall_s : 0.0},
          {"best_config", best_config_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(best_config_path)}};
}

}  // namespace dse
