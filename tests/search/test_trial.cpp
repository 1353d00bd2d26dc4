#include <gtest/gtest.h>

#include "search/trial.h"
#include "sim/config/config_loader.h"

namespace dse {

TEST(Trial, AppliesOverridesWithoutChangingTheBase) {
  const std::string file = "embedded:configs/experiments/quickstart.yaml";
  const ConfigNode base = load_config_file(file);
  const TrialMetrics batch8 = run_trial(base, file, {}).metrics;
  const TrialMetrics batch64 = run_trial(base, file, {"workload.models[0].batch=64"}).metrics;
  const TrialMetrics again = run_trial(base, file, {}).metrics;
  EXPECT_EQ(batch8, again);  // the base was not modified by the second trial
  EXPECT_GT(batch64.at("latency_ms"), batch8.at("latency_ms"));
  EXPECT_GT(batch64.at("throughput_per_s"), batch8.at("throughput_per_s"));  // bigger batches amortise weights
  EXPECT_GT(batch64.at("energy_j"), batch8.at("energy_j"));                  // more work, more energy
  EXPECT_THROW(run_trial(base, file, {"workload.models[0].batch=0"}), ConfigError);
}

}  // namespace dse
