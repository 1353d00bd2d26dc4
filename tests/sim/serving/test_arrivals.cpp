// Arrival processes at the edges of their ranges: bursty arrivals whose gaps span millions of state
// holds (a low rate, short holds) come in bounded time and at the configured mean rate.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim/config/config_loader.h"
#include "sim/serving/arrivals.h"
#include "tests/cli/cli_runner.h"

namespace dse {
namespace {

// The gaps between `count` arrivals of the process in `block`: their mean and coefficient of variation.
std::pair<double, double> gap_mean_and_cv(const std::string& block, int count) {
  const ConfigNode params = load_config_text(block, "arrivals.yaml");
  const auto process = make_arrivals(params, "arrivals.yaml");
  ServingRng rng(11);
  double now = process->initial_s(rng).at(0), sum = 0, squares = 0;
  for (int i = 0; i < count; ++i) {
    const double next = process->after_arrival_s(now, rng).value();
    sum += next - now;
    squares += (next - now) * (next - now);
    now = next;
  }
  const double mean = sum / count;
  return {mean, std::sqrt(squares / count - mean * mean) / mean};
}

// Holds of 1 us against a gap of ~2 s: a million switches a gap, once taken one by one (issue 54).
// Holds this short average the two rates: Poisson arrivals at the mean rate (0.5/s), CV 1.
TEST(Arrivals, BurstyGapsAcrossMillionsOfHoldsKeepTheMeanRate) {
  const auto [mean_s, cv] =
      gap_mean_and_cv("{name: bursty, high_rate_per_s: 1, high_mean_s: 1e-6, low_mean_s: 1e-6}", 4000);
  EXPECT_NEAR(mean_s, 2.0, 0.1);  // 4,000 gaps: 1.6 % standard error
  EXPECT_NEAR(cv, 1.0, 0.1);
}

// About a thousand cycles a gap: some gaps are drawn one switch at a time, the longer in bulk; the
// mean rate is 1000 x 1e-6 / (1e-6 + 1e-3) = 0.999/s either way.
TEST(Arrivals, BurstyGapsDrawnInBulkJoinThoseDrawnOneByOne) {
  const auto [mean_s, cv] =
      gap_mean_and_cv("{name: bursty, high_rate_per_s: 1000, high_mean_s: 1e-6, low_mean_s: 1e-3}", 4000);
  EXPECT_NEAR(mean_s, 1.0 / 0.999, 0.05);
  EXPECT_NEAR(cv, 1.0, 0.1);
}

// The case: a rate of 1e-3/s with 1 us holds looped inside one engine event (a search's
// timeout_s, checked between events, never fired). Now the run ends at once.
TEST(Arrivals, BurstyRunWithALowRateAndShortHoldsEnds) {
  const test::CliResult run = test::run_dse(
      "--version >/dev/null; timeout 120 '" + std::string(DSE_BINARY) +
      "' run configs/experiments/serving_resnet50_dynamic.yaml -q --json -p output= -p workload.serving.warmup_s=0 "
      "-p workload.serving.duration_s=20000 -p 'workload.serving.tenants[0].arrivals={name: bursty, high_rate_per_s: "
      "1e-3, high_mean_s: 1e-6, low_mean_s: 1e-6}'");
  ASSERT_EQ(run.exit_code, 0) << run.err;  // 124: timed out
}

}  // namespace
}  // namespace dse
