#include <gtest/gtest.h>

#include "hwcal/batch_scaling_floor.h"

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
  device.rows = {bmm(2, 2.0),
                 bmm(4, 4.0),
                 bmm(8, 10.0),
                 bmm(16, 10.0),
                 bmm(1, 0.5),  // shorter than 1 ms: the harness's floor still shows
                 [] {
                   auto r = bmm(2, 2.0);
                   r.k = 96;
                   return r;
                 }()};  // a shape seen once
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

TEST(AffineFloor, BestFixedPlusPerItemCostPerShape) {
  DeviceRows device;
  // Batches 1, 2, 3 taking 2, 3, 5 ms. The vertices within a, b >= 0 (mean error):
  //   through (1, 2) and (3, 5): 0.5 + 1.5 B -> 2, 3.5, 5 ms: 0, 1/6, 0 (0.0556), the best;
  //   through (1, 2) and (2, 3): 1 + B -> 0, 0, 1/5 (0.0667); (2, 3) and (3, 5): a < 0, not allowed;
  //   through the origin: 5/3 B -> 1/6, 1/9, 0 (0.0926); 1.5 B (0.117); 2 B (0.178);
  //   constants 2, 3, 5 ms (0.311, 0.3, 0.72).
  device.rows = {bmm(1, 2.0), bmm(2, 3.0), bmm(3, 5.0), [] {
                   auto r = bmm(2, 2.0);
                   r.k = 96;
                   return r;
                 }()};  // a shape seen once: left out
  const auto grouped = batch_scaling_rows({{"gpu", device}}, FloorOptions{.min_latency_ms = 0});
  ASSERT_EQ(grouped.at("gpu").rows.size(), 3u);
  const ErrorTable floor = affine_floor(grouped);
  const ErrorSummary& s = floor.at("gpu").at("bmm");
  EXPECT_EQ(s.rows, 3u);
  EXPECT_NEAR(s.mape_pct, 100.0 / 18, 1e-9);
  EXPECT_DOUBLE_EQ(s.within_20pct, 1.0);
  // Rows on a line with a fixed cost: the floor is zero, where one constant throughput is not.
  DeviceRows line;
  for (const std::int64_t batch : {4, 8, 16, 32})
    line.rows.push_back(bmm(batch, 0.05 + 0.01 * static_cast<double>(batch)));
  const auto line_groups = batch_scaling_rows({{"gpu", line}}, FloorOptions{.min_latency_ms = 0});
  EXPECT_NEAR(affine_floor(line_groups).at("gpu").at("bmm").mape_pct, 0.0, 1e-9);
  EXPECT_GT(batch_scaling_floor(line_groups).at("gpu").at("bmm").mape_pct, 10.0);
}

}  // namespace dse
