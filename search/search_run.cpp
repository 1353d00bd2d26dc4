#include "search/search_run.h"

#include "search/journal.h"

#include <tbb/global_control.h>

#include <fmt/format.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "search/rank_group.h"

#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "search/trial.h"
#include "sim/config/config_loader.h"
#include "sim/config/overrides.h"
#include "sim/run/device_memory.h"
#include "sim/run/experiment.h"

namespace dse {

void check_search_space_keys(const ConfigNode& base, const std::string& config_file, const SearchSettings& settings) {
  for (const auto& p : settings.space.parameters) {
    ConfigNode config = base;
    const std::string value = p.levels() ? p.level(0) : p.sample(0.5);
    try {
      apply_override(config, p.key + "=" + value, 1);
      read_experiment(config, config_file);
    } catch (const ConfigError& error) {
      const std::string message = error.what();
      // Only the key itself is judged here; a value the experiment refuses is the trial's to report.
      if (message.find("unknown key") == std::string::npos && message.find("expected KEY.PATH") == std::string::npos &&
          message.find("expected a mapping to set") == std::string::npos &&
          message.find("expected a sequence to index") == std::string::npos &&
          message.find("expected an index in") == std::string::npos)
        continue;
      const auto colon = message.find(": ", message.find(")"));  // past "(-p #1):1:COL"
      throw ConfigError(p.key_mark, p.key_path,
                        "expected a key path the experiment reads, found '" + p.key + "', which it does not (" +
                            (colon == std::string::npos ? message : message.substr(colon + 2)) + ")");
    }
  }
}

void check_search_metrics(const SearchSettings& settings, const std::vector<std::string>& metrics) {
  const auto check = [&metrics](const std::string& metric, const MetricMention& where, const char* role) {
    if (std::find(metrics.begin(), metrics.end(), metric) != metrics.end()) return;
    throw ConfigError(where.mark, where.key_path,
                      fmt::format("expected {} metric that a run of this device reports ({}), found '{}'{}", role,
                                  join_names(metrics), metric, did_you_mean_suffix(metric, metrics)));
  };
  for (const auto& objective : settings.objectives) check(objective.metric, objective.where, "an objective");
  for (const auto& constraint : settings.constraints) check(constraint.metric, constraint.where, "a constraint");
}

SearchSettings read_search_settings(const ConfigNode& search, const SpaceContext& context) {
  search.expect_map("a search: space, objective, constraints, strategy");
  SearchSettings settings;
  settings.space = read_search_space(search.at("space", "the parameters to search"), context);
  const auto read_objective = [](const ConfigNode& objective) {
    objective.expect_map("{maximize: METRIC} or {minimize: METRIC}");
    const auto maximize = objective.param<std::string>("maximize").optional();
    const auto minimize = objective.param<std::string>("minimize").optional();
    if (maximize.has_value() == minimize.has_value())
      objective.fail("expected exactly one of maximize or minimize, found " +
                     std::string(maximize ? "both" : "neither"));
    const ConfigNode& name = *objective.find(maximize ? "maximize" : "minimize");
    return SearchObjective{maximize ? *maximize : *minimize, maximize.has_value(), {name.mark(), name.path()}};
  };
  const ConfigNode& objective = search.at("objective", "{maximize: METRIC}, {minimize: METRIC} or a list of them");
  if (objective.is_sequence()) {
    for (const auto& item : objective.items()) settings.objectives.push_back(read_objective(item));
    if (settings.objectives.empty()) objective.fail("expected at least one objective, found an empty list");
  } else {
    settings.objectives.push_back(read_objective(objective));
  }
  if (const ConfigNode* constraints = search.find("constraints")) {
    constraints->expect_map("metric: {le | lt | ge | gt: bound}");
    for (const auto& metric : constraints->keys()) {
      const ConfigNode& bound = *constraints->find(metric);
      bound.expect_map("{le | lt | ge | gt: bound}");
      for (const auto& [relation, name] : kRelationNames.entries) {
        if (const auto value = bound.param<double>(name).optional())
          settings.constraints.push_back({metric, relation, *value, {constraints->key_mark(metric), bound.path()}});
      }
    }
  }
  const ConfigNode& strategy = search.at("strategy", "{name, trials, batch, seed}");
  strategy.expect_map("the strategy: name, trials, batch, seed");
  settings.strategy =
      strategy.param<std::string>("name").one_of(StrategyRegistry::instance().names(), "a strategy").required();
  settings.options.trials = strategy.param<std::int64_t>("trials").in_range(1, 100'000'000).with_default(100);
  settings.batch = strategy.param<std::int64_t>("batch").in_range(1, 1'000'000).with_default(8);
  settings.options.seed =
      static_cast<std::uint64_t>(strategy.param<std::int64_t>("seed").in_range(0, INT64_MAX).with_default(1));
  settings.timeout_s = search.param<double>("timeout_s").in_range(0.001, 1e7).optional();
  // The strategy reads (and so checks) its own keys now, before any trial runs.
  settings.strategy_params = strategy;
  StrategyRegistry::instance().find(settings.strategy)->factory(settings.space, settings.options, strategy);
  search.check_unknown_keys();
  settings.description = to_yaml(search);
  return settings;
}

std::vector<std::string> trial_overrides(const SearchSpace& space, const Trial& trial) {
  std::vector<std::string> out;
  const auto values = space.canonical(trial.values);
  for (std::size_t p = 0; p < space.parameters.size(); ++p)
    if (values[p] != "-") out.push_back(space.parameters[p].key + "=" + values[p]);
  return out;
}

namespace {

bool constraint_met(const SearchConstraint& c, double value) {
  switch (c.relation) {
    case Relation::le: return value <= c.bound;
    case Relation::lt: return value < c.bound;
    case Relation::ge: return value >= c.bound;
    case Relation::gt: return value > c.bound;
  }
  return false;
}

std::string unmet_message(const SearchConstraint& c) {
  return c.metric + " " + kRelationNames.name(c.relation) + " " + fmt::format("{:g}", c.bound) + " not met";
}

TrialResult evaluate(const ConfigNode& base, const std::string& config_file, const SearchSettings& settings,
                     const Trial& trial, const std::shared_ptr<RunCache>& cache) {
  TrialResult result;
  result.trial = trial;
  // Constraints on metrics known before simulating (area, TDP) are checked first.
  const auto precheck = [&settings](const TrialMetrics& cheap) {
    for (const auto& c : settings.constraints) {
      const auto value = cheap.find(c.metric);
      if (value != cheap.end() && !constraint_met(c, value->second)) return false;
    }
    return true;
  };
  TrialRun run;
  WallDeadline deadline;
  if (settings.timeout_s)
    deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                      std::chrono::duration<double>(*settings.timeout_s));
  try {
    run = run_trial(base, config_file, trial_overrides(settings.space, trial), precheck, deadline, cache);
  } catch (const SimulationTimeout&) {
    result.status = TrialStatus::timeout;
    result.message = fmt::format("still simulating after {:g} s (search.timeout_s)", *settings.timeout_s);
    return result;
  } catch (const DeviceMemoryError& error) {
    // A design the models do not fit is one the search may not pick, as one breaking a constraint.
    result.status = TrialStatus::infeasible;
    result.message = error.what();
    return result;
  } catch (const UserError& error) {
    result.status = TrialStatus::failed;
    result.message = error.what();
    return result;
  }
  result.metrics = std::move(run.metrics);
  if (run.simulated) {
    for (const auto& objective : settings.objectives) {
      if (!result.metrics.contains(objective.metric)) {
        result.status = TrialStatus::failed;
        result.message = "the run reported no metric '" + objective.metric + "'";
        return result;
      }
    }
  }
  for (const auto& c : settings.constraints) {
    const auto value = result.metrics.find(c.metric);
    if (value == result.metrics.end() && !run.simulated) continue;  // not reached: another constraint failed first
    if (value == result.metrics.end() || !constraint_met(c, value->second)) {
      result.status = TrialStatus::infeasible;
      result.message = unmet_message(c) + (!run.simulated                  ? " (checked before simulating)"
                                           : value == result.metrics.end() ? " (the run had none to measure)"
                                                                           : "");
      return result;
    }
  }
  for (const auto& objective : settings.objectives) {
    const double value = result.metrics.at(objective.metric);
    result.scores.push_back(objective.maximize ? value : -value);
  }
  result.objective = result.scores.front();
  return result;
}

}  // namespace

SearchShard parse_shard(const std::string& text, const std::string& flag) {
  const auto slash = text.find('/');
  const auto number = [&](const std::string& part) -> std::int64_t {
    if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != std::string::npos)
      throw UserError(flag + ": expected K/N (shard K of N, 0 <= K < N, e.g. 3/16), found '" + text + "'");
    return std::stoll(part);
  };
  if (slash == std::string::npos)
    throw UserError(flag + ": expected K/N (shard K of N, 0 <= K < N, e.g. 3/16), found '" + text + "'");
  SearchShard shard{number(text.substr(0, slash)), number(text.substr(slash + 1))};
  if (shard.count < 1 || shard.index >= shard.count)
    throw UserError(
        fmt::format("{}: expected K/N with 0 <= K < N (shards are numbered from 0), found '{}'", flag, text));
  if (shard.count > kMaxShards)
    throw UserError(fmt::format("{}: expected at most {} shards (more than a cluster's job array runs), found '{}'",
                                flag, kMaxShards, text));
  return shard;
}

std::string journal_description(const SearchSettings& settings, const std::optional<SearchShard>& shard) {
  if (!shard) return settings.description;
  return settings.description + fmt::format("# shard {}/{}\n", shard->index, shard->count);
}

SearchOutcome run_search(const ConfigNode& base, const std::string& config_file, const SearchSettings& settings,
                         const SearchRunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<tbb::global_control> threads;
  if (options.threads > 0) threads.emplace(tbb::global_control::max_allowed_parallelism, options.threads);
  const auto trial_threads = static_cast<int>(
      std::max<std::size_t>(1, tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));

  const RankGroup& ranks = RankGroup::world();
  // Several ranks: `trial_threads` TBB workers run the trials while the main thread talks MPI
  // (search/trial_distribution.cpp), so TBB may have one thread more than the trials.
  if (ranks.size() > 1) {
    threads.reset();
    threads.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(trial_threads) + 1);
  }
  auto strategy = StrategyRegistry::instance()
                      .find(settings.strategy)
                      ->factory(settings.space, settings.options, settings.strategy_params);
  if (options.shard && !strategy->trials_are_independent())
    throw UserError("--shard: the strategy '" + settings.strategy +
                    "' chooses trials from earlier results, so its trials cannot be run apart; shard a grid, random, "
                    "sobol or latin_hypercube search, or run this one under mpirun");
  const std::string description = journal_description(settings, options.shard);
  // Rank 0 holds (and locks) the journal; under MPI the others read what it resumes from.
  std::optional<SearchJournal> journal;
  std::map<std::int64_t, TrialResult> journaled;
  std::optional<int> cut_line;
  if (!options.journal_path.empty()) {
    const JournalStart start = options.resume  ? JournalStart::resume
                               : options.force ? JournalStart::force
                                               : JournalStart::fresh;
    if (ranks.rank() == 0) {
      journal.emplace(options.journal_path, description, start, options.journal_extra);
      journaled = journal->trials();
      cut_line = journal->cut_line();
    } else if (options.resume) {
      journaled = read_journal_trials(options.journal_path, description, nullptr, nullptr, options.journal_extra);
    }
  }
  std::mutex journal_mutex;

  // One cache for every trial of this search, on every thread (sim/run/run_cache.h).
  const std::shared_ptr<RunCache> cache = options.cache ? options.cache : std::make_shared<RunCache>();
  SearchOutcome outcome;
  outcome.journal_cut_line = cut_line;
  outcome.distribution = options.distribution.kind;
  outcome.shard = options.shard;
  DistributionOptions distribution = options.distribution;
  distribution.threads = trial_threads;
  TrialDistributor distributor(ranks, distribution);
  const auto better = [](const TrialResult& a, const std::optional<TrialResult>& b) {
    return a.objective && (!b || *a.objective > *b->objective);
  };
  // Repeated points (evolution and NSGA-II revisit them) reuse the first evaluation; the memo keeps
  // the last kMemoEntries points, so a sweep of millions of trials does not hold each twice.
  constexpr std::size_t kMemoEntries = 65536;
  std::map<std::vector<std::string>, TrialResult> memo;
  std::deque<std::vector<std::string>> memo_order;
  // `line`: the result's journal line as another rank already wrote it (search/trial_wire.h).
  const auto journal_line = [&](const TrialResult& result, double wall, bool flush = true,
                                const std::string* line = nullptr) {
    if (!journal) return;
    const std::lock_guard lock(journal_mutex);
    if (line)
      journal->append_line(*line, flush);
    else
      journal->append(result, wall, flush);
  };
  const std::int64_t expected = options.shard ? options.shard->share(settings.options.trials) : settings.options.trials;
  for (;;) {
    std::vector<Trial> batch = strategy->propose(settings.batch);
    if (batch.empty()) break;
    if (options.shard) std::erase_if(batch, [&](const Trial& trial) { return !options.shard->holds(trial.id); });
    for (auto& trial : batch) trial.values = settings.space.canonical(trial.values);
    std::vector<TrialResult> results(batch.size());
    std::vector<double> wall(batch.size(), 0.0);
    // A trial repeating an earlier one (in a past batch, or earlier in this one) takes its result.
    std::vector<std::size_t> first_in_batch(batch.size());
    for (std::size_t i = 0; i < batch.size(); ++i) {
      first_in_batch[i] = i;
      for (std::size_t j = 0; j < i; ++j)
        if (batch[j].values == batch[i].values) {
          first_in_batch[i] = j;
          break;
        }
    }
    // The journal of a resumed search already holds this trial (same id, same values).
    const auto replayed = [&](std::size_t i) {
      const auto it = journaled.find(batch[i].id);
      return it != journaled.end() && it->second.trial.values == batch[i].values ? &it->second : nullptr;
    };
    BatchWork work;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (const TrialResult* earlier = replayed(i)) {
        results[i] = *earlier;
      } else if (first_in_batch[i] != i) {
        continue;  // filled from its first occurrence below
      } else if (const auto seen = memo.find(batch[i].values); seen != memo.end()) {
        results[i] = seen->second;
        results[i].trial = batch[i];
        journal_line(results[i], 0.0);
      } else {
        work.todo.push_back(i);
      }
    }
    work.evaluate = [&](std::size_t i) { return evaluate(base, config_file, settings, batch[i], cache); };
    work.finished = [&](std::size_t, const TrialResult& result, double wall_s, const std::string* line,
                        bool more_follow) { journal_line(result, wall_s, !more_follow, line); };
    work.results_everywhere = !strategy->trials_are_independent();
    distributor.run_batch(work, results, wall);
    outcome.evaluated += static_cast<std::int64_t>(work.todo.size());
    // A rank other than 0 that was not sent the batch's results (a sweep) has nothing to keep.
    if (ranks.rank() != 0 && !work.results_everywhere && distribution.kind == Distribution::dynamic) continue;
    for (std::size_t i = 0; i < batch.size(); ++i) {
      if (first_in_batch[i] == i || replayed(i)) continue;
      results[i] = results[first_in_batch[i]];
      results[i].trial = batch[i];
      journal_line(results[i], 0.0);
    }
    for (const auto& r : results) {
      if (memo.emplace(r.trial.values, r).second) {
        memo_order.push_back(r.trial.values);
        if (memo_order.size() > kMemoEntries) {
          memo.erase(memo_order.front());
          memo_order.pop_front();
        }
      }
      strategy->report(r);
      if (better(r, outcome.best)) outcome.best = r;
      outcome.trials.push_back(r);
    }
    if (options.progress) options.progress(static_cast<std::int64_t>(outcome.trials.size()), expected, outcome.best);
  }
  journal.reset();  // closes the journal and releases the output's lock
  outcome.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  distributor.load().wall_s = outcome.wall_s;
  for (const auto& text : ranks.allgather(rank_load_json(distributor.load()).dump()))
    outcome.ranks.push_back(rank_load_from_json(nlohmann::json::parse(text)));
  return outcome;
}

}  // namespace dse
