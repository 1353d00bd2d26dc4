#include <gtest/gtest.h>

#include "hwcal/clock_states.h"
#include "hwcal/measured_op.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {
namespace {

KernelMeasurement bmm(std::int64_t batch, std::int64_t m, std::int64_t n, std::int64_t k) {
  KernelMeasurement row;
  row.op = "bmm";
  row.b = batch;
  row.m = m;
  row.n = n;
  row.k = k;
  return row;
}

// The row as a harness would time it with every kernel at `clock_mhz` (0: the clock dse gives it).
double timed_ms(const KernelMeasurement& row, const KernelTimer& timer, double clock_mhz) {
  double seconds = timer.calibration().timing_floor_us * 1e-6;
  for (const auto& kernel : predict_kernels(row, timer))
    seconds += clock_mhz > 0 ? timer.time_at(kernel, clock_mhz).seconds : timer.time(kernel).seconds;
  return seconds * 1e3;
}

}  // namespace

TEST(ClockStates, FindsRowsTimedAtTheBoostClock) {
  // A T4 holds its SGEMMs near half its boost clock. One shape's batches alternate between the held
  // clock and boost; another shape stays held.
  DeviceRows t4{test::catalog_gpu("t4"), {}};
  const KernelTimer timer(t4.spec, KernelCalibration{});
  const double boost = t4.spec.boost_clock_mhz;
  for (const std::int64_t batch : {64, 128, 256, 512}) {
    KernelMeasurement row = bmm(batch, 512, 512, 64);
    const bool at_boost = batch == 128 || batch == 512;
    row.latency_ms = timed_ms(row, timer, at_boost ? boost : 0);
    if (at_boost) {
      EXPECT_LT(row.latency_ms, 0.8 * timed_ms(row, timer, 0));
    }
    t4.rows.push_back(row);
  }
  for (const std::int64_t batch : {32, 64, 128}) {
    KernelMeasurement row = bmm(batch, 256, 256, 256);
    row.latency_ms = timed_ms(row, timer, 0);
    t4.rows.push_back(row);
  }
  const ClockStateTable table = evaluate_clock_states({{"t4", t4}}, KernelCalibration{});
  const ClockStateSummary& s = table.at("t4").at("bmm");
  EXPECT_EQ(s.held_rows, 7u);
  EXPECT_EQ(s.nearer_boost, 2u);
  EXPECT_NEAR(s.either_state_mape_pct, 0.0, 1e-9);
  EXPECT_GT(s.model_mape_pct, 5.0);  // the two boost rows, 20 % or more off each
  // A slower state helps none of the rows: the control keeps dse's error.
  EXPECT_DOUBLE_EQ(s.control_mape_pct, s.model_mape_pct);
  EXPECT_EQ(s.shapes, 2u);
  EXPECT_EQ(s.shapes_in_both, 1u);

  // Rows timed in a slower state: the control finds them, the boost state does not.
  DeviceRows slow{t4.spec, {}};
  for (const std::int64_t batch : {64, 128, 256}) {
    KernelMeasurement row = bmm(batch, 512, 512, 64);
    const double held = timer.time(predict_kernels(row, timer).front()).clock_mhz;
    row.latency_ms = timed_ms(row, timer, batch == 128 ? held * held / boost : 0);
    slow.rows.push_back(row);
  }
  const ClockStateTable slow_table = evaluate_clock_states({{"t4", slow}}, KernelCalibration{});
  const ClockStateSummary& c = slow_table.at("t4").at("bmm");
  EXPECT_EQ(c.nearer_boost, 0u);
  EXPECT_NEAR(c.control_mape_pct, 0.0, 1e-9);
  EXPECT_DOUBLE_EQ(c.either_state_mape_pct, c.model_mape_pct);
  EXPECT_GT(c.model_mape_pct, 5.0);

  // A GPU whose SGEMMs run at boost (the V100 PCIe) has no held rows to split.
  DeviceRows v100{test::catalog_gpu("v100_pcie"), {bmm(128, 512, 512, 64)}};
  v100.rows[0].latency_ms = 1.0;
  EXPECT_FALSE(evaluate_clock_states({{"v100_pcie", v100}}, KernelCalibration{}).contains("v100_pcie"));
}

}  // namespace dse
