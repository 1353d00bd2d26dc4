#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>

#include "search/journal.h"
#include "search/pareto.h"
#include "search/search_run.h"
#include "search/strategy.h"
#include "sim/config/config_loader.h"

namespace dse {
namespace fs = std::filesystem;
namespace {

const char* kExperiment = R"(name: s
workload:
  models:
    - {name: resnet18, batch: 8, dtype: fp16}
device: {gpu: t4, timing_model: kernel}
output: ~
)";

SearchSettings settings(const std::string& text) { return read_search_settings(load_config_text(text, "search.yaml")); }

const std::string kRandom = R"(space:
  workload.models[0].batch: {int: [1, 64]}
  device.gpu: {choice: [t4, l4, a100_pcie_40gb, h100_sxm]}
  workload.models[0].dtype: {choice: [fp16, fp32]}
objective: {maximize: throughput_per_s}
constraints: {latency_ms: {le: 8}}
strategy: {name: random, trials: 60, batch: 7, seed: 42}
)";

SearchOutcome run(const SearchSettings& s, int threads, const std::string& journal = "", bool resume = false) {
  SearchRunOptions options;
  options.threads = threads;
  options.journal_path = journal;
  options.resume = resume;
  return run_search(load_config_text(kExperiment, "e.yaml"), "e.yaml", s, options);
}

void expect_same(const SearchOutcome& a, const SearchOutcome& b) {
  ASSERT_EQ(a.trials.size(), b.trials.size());
  for (std::size_t i = 0; i < a.trials.size(); ++i) {
    EXPECT_EQ(a.trials[i].trial.values, b.trials[i].trial.values) << i;
    EXPECT_EQ(a.trials[i].status, b.trials[i].status) << i;
    EXPECT_EQ(a.trials[i].metrics, b.trials[i].metrics) << i;
  }
  ASSERT_EQ(a.best.has_value(), b.best.has_value());
  if (a.best) {
    EXPECT_EQ(a.best->trial.id, b.best->trial.id);
  }
}

}  // namespace

TEST(SearchSpace, LevelsAndSamples) {
  const SearchSpace space =
      read_search_space(load_config_text("a: {pow2: [1, 256]}\nb: {int: [8, 64], step: 8}\nc: {choice: [x, y]}\nd: "
                                         "{bool: true}\ne: {log_float: [1, 100]}\n",
                                         "s.yaml"));
  EXPECT_EQ(*space.parameters[0].levels(), 9);
  EXPECT_EQ(space.parameters[0].level(8), "256");
  EXPECT_EQ(*space.parameters[1].levels(), 8);
  EXPECT_EQ(space.parameters[1].level(7), "64");
  EXPECT_EQ(space.parameters[2].sample(0.99), "y");
  EXPECT_EQ(space.parameters[3].level(1), "true");
  EXPECT_FALSE(space.grid_size().has_value());       // e is continuous
  EXPECT_EQ(space.parameters[4].sample(0.5), "10");  // log-uniform midpoint of [1, 100]
  EXPECT_THROW(read_search_space(load_config_text("a: {pow2: [3, 8]}\n", "s.yaml")), ConfigError);
  const SearchSpace orders = read_search_space(load_config_text("o: {permutation: [a, b, c]}\n", "s.yaml"));
  EXPECT_EQ(*orders.parameters[0].levels(), 6);
  EXPECT_EQ(orders.parameters[0].level(0), "[a, b, c]");
  EXPECT_EQ(orders.parameters[0].level(1), "[a, c, b]");
  EXPECT_EQ(orders.parameters[0].level(5), "[c, b, a]");
  std::set<std::string> all;
  for (std::int64_t i = 0; i < 6; ++i) all.insert(orders.parameters[0].level(i));
  EXPECT_EQ(all.size(), 6u);
  EXPECT_THROW(read_search_space(load_config_text("a: {int: [1, 2], choice: [x]}\n", "s.yaml")), ConfigError);
}

TEST(SearchSpace, SupportedChoicesComeFromTheDevice) {
  const ConfigNode text = load_config_text("device.sm_clock_mhz: {choice: supported}\n", "s.yaml");
  const auto t4_clocks = [](const std::string& key) -> std::optional<std::vector<std::string>> {
    if (key != "device.sm_clock_mhz") return std::nullopt;
    return std::vector<std::string>{"1590", "1575", "300"};
  };
  const SearchSpace space = read_search_space(text, SupportedValues(t4_clocks));
  EXPECT_EQ(*space.parameters[0].levels(), 3);
  EXPECT_EQ(space.parameters[0].level(2), "300");
  // A key the device lists nothing for, or no device at all: an error at the choice.
  try {
    read_search_space(load_config_text("device.gpu: {choice: supported}\n", "s.yaml"), SupportedValues(t4_clocks));
    FAIL();
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("s.yaml:1:22"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("lists none for 'device.gpu'"), std::string::npos) << error.what();
  }
  EXPECT_THROW(read_search_space(text), ConfigError);
}

TEST(SearchStrategies, GridOverAContinuousParameterIsAConfigError) {
  try {
    settings("space: {x: {float: [0, 1]}}\nobjective: {maximize: throughput_per_s}\nstrategy: {name: grid}\n");
    FAIL();
  } catch (const ConfigError& error) {
    EXPECT_STREQ(error.what(),
                 "search.yaml:3:18: strategy.name: expected a strategy that can sample continuous "
                 "parameters (float, log_float, schedule), found grid");
  }
}

TEST(SearchSpace, ConditionalParametersApplyOnlyWhenTheirConditionHolds) {
  const SearchSettings s = settings(R"(space:
  device.gpu: {choice: [t4, l4]}
  workload.models[0].batch: {pow2: [1, 4], when: {device.gpu: [t4]}}
objective: {maximize: throughput_per_s}
strategy: {name: grid}
)");
  const SearchOutcome outcome = run(s, 2);
  ASSERT_EQ(outcome.trials.size(), 6u);
  for (const auto& r : outcome.trials) {
    if (r.trial.values[0] == "l4") {
      EXPECT_EQ(r.trial.values[1], "-");
      EXPECT_EQ(trial_overrides(s.space, r.trial), (std::vector<std::string>{"device.gpu=l4"}));
    } else {
      EXPECT_NE(r.trial.values[1], "-");
    }
  }
  EXPECT_EQ(outcome.evaluated, 4);  // 3 batch sizes on t4, and l4 once (its 3 trials are the same point)
  EXPECT_THROW(
      settings("space:\n  a: {int: [1, 2], when: {b: [x]}}\nobjective: {maximize: m}\nstrategy: {name: grid}\n"),
      ConfigError);  // conditions name earlier parameters
}

TEST(SearchStrategies, GridVisitsEveryPointOnce) {
  const SearchSettings s = settings(R"(space:
  workload.models[0].batch: {pow2: [1, 8]}
  device.gpu: {choice: [t4, l4, a10]}
objective: {minimize: latency_ms}
strategy: {name: grid, trials: 100, batch: 5}
)");
  const SearchOutcome outcome = run(s, 2);
  ASSERT_EQ(outcome.trials.size(), 12u);  // 4 batches x 3 GPUs, then the grid is exhausted
  std::set<std::vector<std::string>> seen;
  for (const auto& r : outcome.trials) seen.insert(r.trial.values);
  EXPECT_EQ(seen.size(), 12u);
  ASSERT_TRUE(outcome.best.has_value());
  for (const auto& r : outcome.trials) {  // minimise: the best has the lowest latency
    if (r.objective) {
      EXPECT_LE(outcome.best->metrics.at("latency_ms"), r.metrics.at("latency_ms"));
    }
  }
}

TEST(SearchStrategies, SameSeedSameSearchAnyThreadCount) {
  const SearchSettings s = settings(kRandom);
  const SearchOutcome one = run(s, 1), two = run(s, 2);
  expect_same(one, two);
  std::set<std::string> statuses;
  for (const auto& r : one.trials) statuses.insert(kTrialStatusNames.name(r.status));
  EXPECT_TRUE(statuses.contains("ok"));
  EXPECT_TRUE(statuses.contains("infeasible"));  // the latency bound cuts some
  SearchSettings other = s;
  other.options.seed = 43;
  EXPECT_NE(run(other, 2).trials[0].trial.values, one.trials[0].trial.values);
}

TEST(SearchStrategies, LatinHypercubeUsesEveryStratumOnce) {
  const SearchSettings s = settings(R"(space:
  workload.models[0].batch: {int: [1, 10]}
  device.gpu: {choice: [t4, l4, a10, a100_pcie_40gb, h100_sxm, v100_pcie, p100_pcie, p4, a100_sxm4_40gb, h200]}
objective: {maximize: throughput_per_s}
strategy: {name: latin_hypercube, trials: 10, seed: 5}
)");
  const SearchOutcome outcome = run(s, 2);
  ASSERT_EQ(outcome.trials.size(), 10u);
  std::set<std::string> batches, gpus;
  for (const auto& r : outcome.trials) {
    batches.insert(r.trial.values[0]);
    gpus.insert(r.trial.values[1]);
  }
  EXPECT_EQ(batches.size(), 10u);  // 10 strata of 10 levels: each level once
  EXPECT_EQ(gpus.size(), 10u);
}

TEST(SearchStrategies, EveryStrategyIsDeterministicAcrossThreadCounts) {
  for (const char* strategy :
       {"random", "sobol", "latin_hypercube", "aging_evolution", "nsga2", "bayes_opt", "cma_es"}) {
    std::string text = kRandom;
    text.replace(text.find("name: random"), 12, std::string("name: ") + strategy);
    const SearchSettings s = settings(text);
    const SearchOutcome one = run(s, 1), two = run(s, 2);
    expect_same(one, two);
    EXPECT_EQ(one.trials.size(), 60u) << strategy;
  }
}

TEST(SearchStrategies, BayesOptWithUcbIsDeterministicToo) {
  std::string text = kRandom;
  text.replace(text.find("name: random"), 12, "name: bayes_opt, acquisition: ucb, ucb_beta: 1.5");
  const SearchSettings s = settings(text);
  expect_same(run(s, 1), run(s, 2));
  std::string bad = kRandom;
  bad.replace(bad.find("name: random"), 12, "name: bayes_opt, acquisition: pi");
  EXPECT_THROW(settings(bad), ConfigError);
}

// A misspelt space key is an error at the key before any trial (every trial failed, blaming -p #1).
TEST(SearchSpace, KeysTheExperimentDoesNotReadAreErrorsAtTheKey) {
  const ConfigNode base = load_config_text(R"(name: t
workload:
  models: [{name: resnet18, batch: 1}]
device: {gpu: t4, timing_model: roofline}
output: ~
)",
                                           "base.yaml");
  const auto check = [&](const std::string& space) -> std::string {
    try {
      check_search_space_keys(
          base, "base.yaml",
          settings("space:\n" + space +
                   "strategy: {name: random, trials: 2}\nobjective: {maximize: throughput_per_s}\n"));
    } catch (const ConfigError& error) {
      return error.what();
    }
    return "";
  };
  const std::string bad = check("  workload.models[0].btch: {pow2: [1, 8]}\n");
  EXPECT_NE(bad.find("search.yaml:2:3: space.workload.models[0].btch"), std::string::npos) << bad;
  EXPECT_NE(bad.find("unknown key 'btch'"), std::string::npos) << bad;
  EXPECT_EQ(check("  workload.models[0].batch: {pow2: [1, 8]}\n  device.gpu: {choice: [t4, l4]}\n"), "");
  // A value the experiment refuses is the trial's to report, not the key's.
  EXPECT_EQ(check("  workload.models[0].batch: {int: [0, 3]}\n"), "");
}

// Each strategy reads its own keys: one the chosen strategy does not take is an unknown key.
TEST(SearchStrategies, KeysOfAnotherStrategyAreUnknown) {
  std::string text = kRandom;
  text.replace(text.find("name: random"), 12, "name: random, population: 8");
  try {
    settings(text);
    FAIL() << "random accepted a population";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what()).find("population"), std::string::npos) << error.what();
  }
  text = kRandom;
  text.replace(text.find("name: random"), 12, "name: cma_es, population: 4");  // pagmo needs 5
  EXPECT_THROW(settings(text), ConfigError);
  text = kRandom;
  text.replace(text.find("name: random"), 12, "name: nsga2, population: 8");
  EXPECT_NO_THROW(settings(text));
}

TEST(SearchStrategies, AgingEvolutionMutatesOneParameterOfAPopulationMember) {
  std::string text = kRandom;
  text.replace(text.find("name: random"), 12, "name: aging_evolution");
  const SearchOutcome outcome = run(settings(text), 2);
  for (std::size_t i = 20; i < outcome.trials.size(); ++i) {
    bool one_away = false;
    for (std::size_t j = (i >= 27 ? i - 27 : 0); j < i && !one_away; ++j) {  // a member of a recent population
      int differences = 0;
      for (std::size_t p = 0; p < outcome.trials[i].trial.values.size(); ++p)
        differences += outcome.trials[i].trial.values[p] != outcome.trials[j].trial.values[p];
      one_away = differences <= 1;
    }
    EXPECT_TRUE(one_away) << "trial " << i;
  }
}

TEST(Pareto, RanksFrontsAndHypervolumeByHand) {
  // Larger is better on both: (3,1), (2,2), (1,3) trade off; (1,1) is dominated by all three.
  const std::vector<std::vector<double>> points{{3, 1}, {2, 2}, {1, 3}, {1, 1}};
  EXPECT_EQ(pareto_ranks(points), (std::vector<int>{0, 0, 0, 1}));
  EXPECT_TRUE(dominates({2, 2}, {1, 1}));
  EXPECT_FALSE(dominates({3, 1}, {2, 2}));
  // Against (0, 0): 3x1 + 2x(2-1) + 1x(3-2) = 6.
  EXPECT_DOUBLE_EQ(*hypervolume({{3, 1}, {2, 2}, {1, 3}}, {0, 0}), 6.0);
  // Three objectives: two boxes 2x1x1 and 1x2x2 overlapping in 1x1x1 -> 2 + 4 - 1.
  EXPECT_DOUBLE_EQ(*hypervolume({{2, 1, 1}, {1, 2, 2}}, {0, 0, 0}), 5.0);
  EXPECT_DOUBLE_EQ(*hypervolume({{2, 1, 1}, {1, 2, 2}, {1, 1, 1}}, {0, 0, 0}), 5.0);  // a dominated point adds nothing
  EXPECT_FALSE(hypervolume({{1}}, {0}).has_value());
}

TEST(SearchStrategies, Nsga2FindsANonDominatedFrontForTwoObjectives) {
  const SearchSettings s = settings(R"(space:
  workload.models[0].batch: {int: [1, 128]}
  device.gpu: {choice: [t4, l4, a10, a100_pcie_40gb, h100_sxm]}
objective: [{maximize: throughput_per_s}, {minimize: latency_ms}]
strategy: {name: nsga2, trials: 80, batch: 10, population: 20, seed: 9}
)");
  const SearchOutcome one = run(s, 1), two = run(s, 2);
  expect_same(one, two);
  const auto front = pareto_front(one.trials);
  ASSERT_GT(front.size(), 1u);  // throughput and latency trade off through the batch size
  for (const auto i : front) {
    for (const auto& other : one.trials) {
      if (other.status == TrialStatus::ok) {
        EXPECT_FALSE(dominates(other.scores, one.trials[i].scores));
      }
    }
  }
}

TEST(SearchJournal, ResumeAfterATruncatedJournalEndsTheSame) {
  const SearchSettings s = settings(kRandom);
  const fs::path journal = fs::temp_directory_path() / ("dse_journal_" + std::to_string(::getpid()) + ".jsonl");
  const SearchOutcome full = run(s, 2, journal.string());
  // Keep the header and 20 trials, and half of the next line: as if killed mid-write.
  std::ifstream in(journal);
  std::string kept, line;
  for (int i = 0; i < 21 && std::getline(in, line); ++i) kept += line + "\n";
  std::getline(in, line);
  kept += line.substr(0, line.size() / 2);
  in.close();
  std::ofstream(journal, std::ios::trunc) << kept;
  const SearchOutcome resumed = run(s, 2, journal.string(), true);
  expect_same(full, resumed);
  // 60 - 20 from the journal, less the trials that repeat an earlier point (simulated once).
  EXPECT_LE(resumed.evaluated, 40);
  EXPECT_GE(resumed.evaluated, 30);
  // A journal of another search is refused.
  EXPECT_THROW(
      run(settings(std::string(kRandom).replace(kRandom.find("seed: 42"), 8, "seed: 7")), 2, journal.string(), true),
      UserError);
  fs::remove(journal);
}

// A trial line holds what the trial measured, non-finite numbers and non-UTF-8 text included, and a
// line whose fields have the wrong kinds (found by fuzz_journal: an id of 3e30 read as an integer was
// undefined behaviour) is a line that is not a record, not a crash.
TEST(SearchJournal, TrialLinesRoundTripAndWrongKindsAreNotRecords) {
  const fs::path path = fs::temp_directory_path() / ("dse_journal_kinds_" + std::to_string(::getpid()) + ".jsonl");
  TrialResult trial;
  trial.trial.id = 7;
  trial.trial.values = {"8", "t4"};
  trial.status = TrialStatus::ok;
  trial.metrics = {
      {"latency_ms", 1.5}, {"perf_per_w", std::numeric_limits<double>::infinity()}, {"energy_j", std::nan("")}};
  trial.objective = -std::numeric_limits<double>::infinity();
  trial.scores = {std::nan(""), 2.0};
  trial.message = "bad byte \xff here";
  {
    SearchJournal journal(path.string(), "d", JournalStart::force);
    journal.append(trial, 0.5);
  }
  const auto read = read_journal_trials(path.string(), "d");
  ASSERT_EQ(read.size(), 1u);
  const TrialResult& back = read.at(7);
  EXPECT_EQ(back.trial.values, trial.trial.values);
  EXPECT_EQ(back.metrics.at("latency_ms"), 1.5);
  EXPECT_TRUE(std::isinf(back.metrics.at("perf_per_w")) && back.metrics.at("perf_per_w") > 0);
  EXPECT_TRUE(std::isnan(back.metrics.at("energy_j")));
  ASSERT_TRUE(back.objective.has_value());
  EXPECT_TRUE(std::isinf(*back.objective) && *back.objective < 0);
  ASSERT_EQ(back.scores.size(), 2u);
  EXPECT_TRUE(std::isnan(back.scores[0]));
  EXPECT_EQ(back.message, "bad byte \xef\xbf\xbd here");  // U+FFFD for the byte that was not UTF-8
  for (const std::string line :
       {R"({"id":3E30,"values":[],"status":"ok","metrics":{},"message":"","objective":null})",
        R"({"id":1,"values":[2],"status":"ok","metrics":{},"message":"","objective":null})",
        R"({"id":1,"values":[],"status":"ok","metrics":{"a":true},"message":"","objective":null})",
        R"({"id":1,"values":[],"status":"ok","metrics":[],"message":"","objective":null})",
        R"({"id":1,"values":[],"status":"ok","metrics":{},"message":3,"objective":null})",
        R"({"id":1,"values":[],"status":"ok","metrics":{},"message":"","objective":"x"})",
        R"({"id":1,"values":[],"status":"ok","metrics":{},"message":"","objective":null,"scores":{}})"}) {
    std::ofstream(path, std::ios::trunc) << "{\"search\":\"d\"}\n" << line << "\n{}\n";
    EXPECT_THROW(read_journal_trials(path.string(), "d"), UserError) << line;
  }
  fs::remove(path);
}

// Sobol points spread evenly: 64 trials over one 8-level parameter use each level 7 to 9 times
// (random draws would stray much further); the same seed repeats, another seed shifts.
TEST(SearchStrategy, SobolFillsEvenly) {
  const SearchSpace space = read_search_space(load_config_text("a: {int: [0, 7]}\nb: {float: [0, 1]}\n", "s.yaml"));
  StrategyOptions options;
  options.trials = 64;
  options.seed = 5;
  const auto draw = [&](std::uint64_t seed) {
    options.seed = seed;
    auto s = StrategyRegistry::instance().find("sobol")->factory(space, options, ConfigNode::map({}));
    return s->propose(64);
  };
  const auto a = draw(5), b = draw(5), c = draw(6);
  ASSERT_EQ(a.size(), 64u);
  std::map<std::string, int> counts;
  for (const auto& t : a) ++counts[t.values[0]];
  ASSERT_EQ(counts.size(), 8u);
  for (const auto& [level, n] : counts) {
    EXPECT_GE(n, 7) << level;
    EXPECT_LE(n, 9) << level;
  }
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].values, b[i].values);
  int differ = 0;
  for (std::size_t i = 0; i < a.size(); ++i) differ += a[i].values != c[i].values;
  EXPECT_GT(differ, 32);
}

// CMA-ES through pagmo: on a smooth one-peak objective over a fine grid it closes in on the peak,
// its later generations sampling closer to it than its first.
TEST(SearchStrategy, CmaEsConvergesOnAPeak) {
  const SearchSpace space = read_search_space(load_config_text("x: {float: [0, 1]}\ny: {float: [0, 1]}\n", "s.yaml"));
  StrategyOptions options;
  options.trials = 400;
  options.seed = 2;
  auto s = StrategyRegistry::instance().find("cma_es")->factory(space, options,
                                                                load_config_text("population: 10\n", "s.yaml"));
  const auto distance = [](const Trial& t) {
    const double x = std::stod(t.values[0]) - 0.3, y = std::stod(t.values[1]) - 0.7;
    return std::sqrt(x * x + y * y);
  };
  std::vector<double> first, last;
  std::int64_t seen = 0;
  for (;;) {
    const auto batch = s->propose(7);  // batches need not align with generations
    if (batch.empty()) break;
    for (const auto& t : batch) {
      TrialResult r;
      r.trial = t;
      r.objective = -distance(t);
      r.scores = {*r.objective};
      if (seen < 10) first.push_back(distance(t));
      if (seen >= 390) last.push_back(distance(t));
      ++seen;
      s->report(r);
    }
  }
  EXPECT_EQ(seen, 400);
  const double best_last = *std::min_element(last.begin(), last.end());
  EXPECT_LT(best_last, 0.01);
  EXPECT_LT(best_last, *std::min_element(first.begin(), first.end()));
}

// CMA-ES's pagmo state is rebuilt from the journal's reports: a resumed search ends the same.
TEST(SearchJournal, CmaEsResumesExactly) {
  std::string text = kRandom;
  text.replace(text.find("name: random"), 12, "name: cma_es, population: 8");
  const SearchSettings s = settings(text);
  const fs::path journal = fs::temp_directory_path() / ("dse_cma_journal_" + std::to_string(::getpid()) + ".jsonl");
  const SearchOutcome full = run(s, 2, journal.string());
  std::ifstream in(journal);
  std::string kept, line;
  for (int i = 0; i < 1 + 27 && std::getline(in, line); ++i) kept += line + "\n";  // mid-generation
  in.close();
  std::ofstream(journal, std::ios::trunc) << kept;
  const SearchOutcome resumed = run(s, 1, journal.string(), true);
  expect_same(full, resumed);
  fs::remove(journal);
}

// A trial still simulating when search.timeout_s passes ends as `timeout`, the search goes on.
TEST(SearchStatuses, TrialsPastTheTimeoutAreTimeouts) {
  const char* experiment = R"(name: t
workload:
  models:
    - {name: gpt2_xl, batch: 4, dtype: fp16}
    - {name: bert_large, batch: 4, dtype: fp16}
device: {gpu: h100_sxm, timing_model: kernel}
output: ~
)";
  const SearchSettings s = read_search_settings(load_config_text(R"(space:
  workload.models[0].batch: {choice: [4, 8]}
objective: {maximize: throughput_per_s}
timeout_s: 0.001
strategy: {name: grid, trials: 2, batch: 2}
)",
                                                                 "search.yaml"));
  ASSERT_TRUE(s.timeout_s);
  SearchRunOptions options;
  options.threads = 2;
  const SearchOutcome outcome = run_search(load_config_text(experiment, "t.yaml"), "t.yaml", s, options);
  ASSERT_EQ(outcome.trials.size(), 2u);
  for (const auto& r : outcome.trials) {
    EXPECT_EQ(r.status, TrialStatus::timeout);
    EXPECT_NE(r.message.find("search.timeout_s"), std::string::npos) << r.message;
  }
  EXPECT_FALSE(outcome.best);
}

// Issue 54: a trial whose models do not fit in the device's memory is infeasible with the reason,
// and the search goes on (ResNet-50 fp16 keeps ~4.8 MB of activations per sample at its peak: a
// batch of 8,192 needs ~37 GiB, beyond the T4's 16 GiB).
TEST(SearchStatuses, ModelsOverTheDevicesMemoryAreInfeasible) {
  const char* experiment = R"(name: m
workload:
  models:
    - {name: resnet50, batch: 8, dtype: fp16}
device: {gpu: t4}
output: ~
)";
  const SearchSettings s = read_search_settings(load_config_text(R"(space:
  workload.models[0].batch: {choice: [8, 8192]}
objective: {maximize: throughput_per_s}
strategy: {name: grid, trials: 2, batch: 2}
)",
                                                                 "search.yaml"));
  SearchRunOptions options;
  options.threads = 2;
  const SearchOutcome outcome = run_search(load_config_text(experiment, "m.yaml"), "m.yaml", s, options);
  ASSERT_EQ(outcome.trials.size(), 2u);
  for (const auto& r : outcome.trials) {
    if (r.trial.values.front() == "8") {
      EXPECT_EQ(r.status, TrialStatus::ok) << r.message;
    } else {
      EXPECT_EQ(r.status, TrialStatus::infeasible);
      EXPECT_NE(r.message.find("workload.models[0].batch: expected a model that fits in t4's 16 GiB"),
                std::string::npos)
          << r.message;
      EXPECT_NE(r.message.find("resnet50 at batch 8192 needs"), std::string::npos) << r.message;
    }
  }
  ASSERT_TRUE(outcome.best);
  EXPECT_EQ(outcome.best->trial.values.front(), "8");
}

// Issue 54: a constraint on a metric the run had nothing to measure for is unmet. A 50 ms serving
// run has no power-sensor reading (one every 100 ms), so it has no power_peak_w: every trial of the
// shipped best-static search met power_peak_w <= 150 with a peak of 0 W while averaging 162 W.
TEST(SearchStatuses, AConstraintOnAMetricWithNothingToMeasureIsUnmet) {
  const char* experiment = R"(name: b
workload:
  models:
    - {name: resnet_v2_50, dtype: fp32}
  serving:
    duration_s: 0.05
    clock_levels_mhz: [544, 1063, 1531]
    tenants:
      - arrivals: {name: closed_loop, clients: 64, think_ms: 0}
        batching: {name: fixed, batch: 1, max_batch: 255}
    governor: {name: static, batch: 1, clock_mhz: 1063, power_cap_w: 150}
device: {gpu: p40}
output: ~
)";
  const SearchSettings s = read_search_settings(load_config_text(R"(space:
  workload.serving.governor.batch: {choice: [1, 8]}
  workload.serving.governor.clock_mhz: {choice: [544, 1531]}
objective: {maximize: throughput_per_s}
constraints: {power_peak_w: {le: 150}}
strategy: {name: grid, trials: 4, batch: 4}
)",
                                                                 "search.yaml"));
  SearchRunOptions options;
  options.threads = 2;
  const SearchOutcome outcome = run_search(load_config_text(experiment, "b.yaml"), "b.yaml", s, options);
  ASSERT_EQ(outcome.trials.size(), 4u);
  for (const auto& r : outcome.trials) {
    EXPECT_EQ(r.status, TrialStatus::infeasible);
    EXPECT_EQ(r.message, "power_peak_w le 150 not met (the run had none to measure)");
    EXPECT_FALSE(r.metrics.contains("power_peak_w"));
  }
  EXPECT_FALSE(outcome.best);
}

}  // namespace dse
