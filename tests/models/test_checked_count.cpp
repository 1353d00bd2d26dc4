// Counts that would pass 64 bits are refused, never wrapped into negative MACs, bytes or times.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "models/base/checked_count.h"
#include "models/graph.h"
#include "models/ops/op_library.h"
#include "sim/engine/engine.h"

namespace dse {

TEST(CheckedCount, ProductsAndSumsRefuseToWrap) {
  EXPECT_EQ(checked_product("x", 1 << 20, 1 << 20, 1 << 20), std::int64_t{1} << 60);
  EXPECT_THROW((void)checked_product("x", 1 << 20, 1 << 20, 1 << 20, 16), CountOverflow);
  EXPECT_THROW((void)checked_add(std::numeric_limits<std::int64_t>::max(), 1, "x"), CountOverflow);
  try {
    (void)checked_mul(std::int64_t{1} << 62, 4, "the MACs of op 'fc'");
    FAIL();
  } catch (const UserError& e) {  // a user error: exit 2 with the message
    EXPECT_NE(std::string(e.what()).find("the MACs of op 'fc' exceeds what a 64-bit count holds"), std::string::npos);
  }
}

TEST(CheckedCount, TensorsAndGemmsTooLargeToCount) {
  EXPECT_THROW((void)element_count({1 << 30, 1 << 30, 1 << 30}), CountOverflow);
  Tensor t{"x", {std::int64_t{1} << 31, std::int64_t{1} << 31}, DType::fp32};
  EXPECT_EQ(t.elements(), std::int64_t{1} << 62);
  EXPECT_THROW((void)t.bytes(), CountOverflow);  // 2^64 bytes
  EXPECT_EQ(GemmView({65536, 262144, 262144, 64}).macs(), std::int64_t{1} << 58);
  EXPECT_THROW((void)GemmView({65536, 262144, 262144, 4096}).macs(), CountOverflow);  // 2^64
  // An op whose MACs pass 64 bits cannot be built.
  Graph g("big");
  const auto a = g.add_input("a", {65536, 262144, 4096}, DType::fp16);
  const auto b = g.add_input("b", {65536, 4096, 262144}, DType::fp16);
  EXPECT_THROW(ops::matmul(g, "scores", a, b), CountOverflow);
}

// A layer whose weights alone pass 64 bits (a fuzzed calibration row reached linear's K x N).
TEST(CheckedCount, WeightsTooLargeToCount) {
  Graph g("wide");
  const auto x = g.add_input("x", {1, std::int64_t{1} << 40}, DType::fp16);
  EXPECT_THROW(ops::linear(g, "fc", x, std::int64_t{1} << 30), CountOverflow);  // 2^70 weights
  EXPECT_NO_THROW(ops::linear(g, "fc_fits", x, 1024));
  const auto image = g.add_input("image", {1, std::int64_t{1} << 20, 8, 8}, DType::fp16);
  Window window;
  window.kernel_h = window.kernel_w = 3;
  window.pad_h = window.pad_w = 1;
  EXPECT_THROW(ops::conv2d(g, "conv", image, std::int64_t{1} << 40, window), CountOverflow);
  EXPECT_THROW(ops::conv_transpose2d(g, "deconv", image, std::int64_t{1} << 40, window), CountOverflow);
  Window huge = window;
  huge.dilation_h = std::int64_t{1} << 62;  // its span passes 64 bits
  EXPECT_THROW(ops::conv2d(g, "dilated", image, 8, huge), CountOverflow);
}

TEST(CheckedCount, SimulatedTimesRefuseToWrap) {
  EXPECT_EQ(checked_ps(1.5, "t"), 2);
  EXPECT_THROW((void)checked_ps(1e19, "a kernel's duration"), CountOverflow);  // 1e19 ps: 116 days
  EXPECT_THROW((void)checked_ps(std::nan(""), "a kernel's duration"), CountOverflow);
  Engine engine;
  engine.schedule_at(std::numeric_limits<TimePs>::max() - 5, [] {});
  engine.run();
  EXPECT_THROW(engine.schedule_after(10, [] {}), CountOverflow);
}

}  // namespace dse
