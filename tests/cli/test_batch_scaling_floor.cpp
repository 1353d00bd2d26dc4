#include <gtest/gtest.h>

#include "cli/batch_scaling_floor.h"

namespace dse {
namespace {

KernelMeasurement bmm(std::int64_t batch, double latency_ms) {
  KernelMeasurement row;
  row.op = "bmm";
  row.b = batch;
  row.m = 512;
  row.n = 512;
  row.k = 64;
  row.latency_ms = latency_ms;
  return row;
}

}  // namespace

TEST(BatchScalingFloor, BestConstantThroughputPerShape) {
  DeviceRows device;
  // One shape at four batch sizes: 1,000 items/s, twice, then a slow and a fast state.
  device.rows = {bmm(2, 2.0), bmm(4, 4.0), bmm(8, 10.0), bmm(16, 10.0),
                 bmm(1, 0.5),                  // shorter than 1 ms: the harness's floor still shows
                 [] { auto r = bmm(2, 2.0); r.k = 96; return r; }()};  // a shape seen once
  const auto grouped = batch_scaling_rows({{"gpu", device}});
  ASSERT_EQ(grouped.at("gpu").rows.size(), 4u);
  const ErrorTable floor = batch_scaling_floor(grouped);
  // Throughputs 1000, 1000, 800, 1600 items/s; the best constant is 1000 (sum of |x/c - 1| = 0.8;
  // 1.5 at c = 800, 1.25 at c = 1600): errors 0, 0, 0.2, 0.6.
  const ErrorSummary& s = floor.at("gpu").at("bmm");
  EXPECT_EQ(s.rows, 4u);
  EXPECT_DOUBLE_EQ(s.mape_pct, 100 * 0.8 / 4);
  EXPECT_DOUBLE_EQ(s.within_20pct, 0.75);
  // Linear rows group by (N, K) with B x M rows as the items.
  DeviceRows linear;
  for (const auto& [rows, ms] : std::vector<std::pair<std::int64_t, double>>{{1024, 1.0}, {2048, 2.0}, {4096, 4.0}}) {
    KernelMeasurement row;
    row.op = "linear";
    row.b = 1;
    row.m = rows;
    row.n = 768;
    row.k = 3072;
    row.latency_ms = ms;
    linear.rows.push_back(row);
  }
  EXPECT_DOUBLE_EQ(batch_scaling_floor(batch_scaling_rows({{"gpu", linear}})).at("gpu").at("linear").mape_pct, 0.0);
}

}  // namespace dse
