// Searches over the accelerator template: constraints known before simulating skip the run, and
// evolution reaches parameters that apply only under a condition.
#include <gtest/gtest.h>

#include <string>

#include "search/search_run.h"
#include "sim/config/config_loader.h"

namespace dse {
namespace {

const char* kAccelExperiment = R"(name: a
workload:
  models:
    - {name: mobilenet_v2, batch: 8, dtype: bf16}
device: {accelerator: tpu_v3_like, fusion: exact}
output: ~
)";

SearchOutcome run_accel(const std::string& search_text, int threads) {
  SearchRunOptions options;
  options.threads = threads;
  return run_search(load_config_text(kAccelExperiment, "a.yaml"), "a.yaml",
                    read_search_settings(load_config_text(search_text, "search.yaml")), options);
}

}  // namespace

// Area and TDP constraints are checked before simulating: such trials carry only the cheap metrics.
TEST(AcceleratorSearch, CheapConstraintsSkipTheSimulation) {
  const SearchOutcome outcome = run_accel(R"(space:
  device.cores.x: {pow2: [1, 8]}
  device.array.rows: {pow2: [32, 256]}
objective: {maximize: perf_per_tdp_vs_tpu_v3}
constraints: {area_mm2: {le: 700}, latency_ms: {le: 100}}
strategy: {name: grid, trials: 16, batch: 4, seed: 1}
)",
                                          2);
  int skipped = 0, ok = 0;
  for (const auto& r : outcome.trials) {
    if (r.status == TrialStatus::infeasible) {
      ++skipped;
      EXPECT_GT(r.metrics.at("area_mm2"), 700);
      EXPECT_FALSE(r.metrics.contains("latency_ms"));
      EXPECT_NE(r.message.find("checked before simulating"), std::string::npos) << r.message;
    } else {
      ASSERT_EQ(r.status, TrialStatus::ok) << r.message;
      ++ok;
      EXPECT_LE(r.metrics.at("area_mm2"), 700);
      EXPECT_TRUE(r.metrics.contains("perf_per_tdp_vs_tpu_v3"));
    }
  }
  EXPECT_GT(skipped, 0);
  EXPECT_GT(ok, 0);
  ASSERT_TRUE(outcome.best);
}

// Aging evolution over a conditional parameter: a child that switches its condition on gets a value
// for it, so no trial fails for lack of the dependent key; same result on 1 and 2 threads.
TEST(AcceleratorSearch, EvolutionActivatesConditionalParameters) {
  const std::string search = R"(space:
  device.global_buffer_kib: {choice: [0, 4096, 16384]}
  device.noc_bandwidth_gbps: {choice: [512, 2048], when: {device.global_buffer_kib: [4096, 16384]}}
  device.array.cols: {pow2: [16, 128]}
objective: {maximize: perf_per_tdp}
strategy: {name: aging_evolution, trials: 60, batch: 6, population: 8, seed: 3}
)";
  const SearchOutcome one = run_accel(search, 1);
  const SearchOutcome two = run_accel(search, 2);
  ASSERT_EQ(one.trials.size(), 60u);
  for (const auto& r : one.trials) {
    EXPECT_EQ(r.status, TrialStatus::ok) << r.message;
    EXPECT_EQ(r.trial.values[0] == "0", r.trial.values[1] == "-") << r.trial.id;
  }
  ASSERT_EQ(one.trials.size(), two.trials.size());
  for (std::size_t i = 0; i < one.trials.size(); ++i) EXPECT_EQ(one.trials[i].metrics, two.trials[i].metrics) << i;
}

}  // namespace dse
