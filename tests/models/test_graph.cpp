#include <gtest/gtest.h>

#include "models/graph.h"
#include "models/ops/op_library.h"

namespace dse {

TEST(Graph, ConnectsProducersToConsumers) {
  Graph g("diamond");
  const auto x = g.add_input("x", {1, 8, 4, 4}, DType::fp16);
  const auto a = ops::relu(g, "a", x);
  const auto b = ops::relu(g, "b", x);
  ops::add(g, "sum", a, b);
  ASSERT_EQ(g.ops().size(), 3u);
  EXPECT_EQ(g.predecessors(2), (std::vector<OpId>{0, 1}));
  EXPECT_EQ(g.successors(0), (std::vector<OpId>{2}));
  EXPECT_TRUE(g.predecessors(0).empty());
  EXPECT_EQ(g.topological_order(), (std::vector<OpId>{0, 1, 2}));
  EXPECT_EQ(g.outputs().size(), 1u);
  EXPECT_FALSE(g.producer(x).has_value());
}

TEST(Graph, RejectsMissingInputsAndShapeMismatches) {
  Graph g("bad");
  const auto x = g.add_input("x", {1, 8, 4, 4}, DType::fp32);
  const auto y = g.add_input("y", {1, 8, 2, 2}, DType::fp32);
  EXPECT_THROW(ops::add(g, "sum", x, y), std::invalid_argument);
  EXPECT_THROW(ops::relu(g, "r", 99), std::out_of_range);
  EXPECT_THROW(ops::conv2d(g, "c", x, 8, Window{9, 9, 1, 1, 0, 0, 1, 1}), std::invalid_argument);
}

TEST(Graph, CopiesAreIndependent) {
  Graph g("g");
  ops::relu(g, "r", g.add_input("x", {2, 2}, DType::fp32));
  Graph copy = g;
  ops::relu(copy, "r2", 1);
  EXPECT_EQ(g.ops().size(), 1u);
  EXPECT_EQ(copy.ops().size(), 2u);
  EXPECT_EQ(copy.predecessors(1), (std::vector<OpId>{0}));
}

TEST(Conv2d, CountsByHand) {
  // 3x3 conv, 64 -> 128 channels, stride 2, pad 1 on 1x64x56x56 fp16:
  // output 28x28 (floor((56 + 2 - 3) / 2) + 1 = 28); MACs = 128*28*28 * 64*3*3 = 57,802,752.
  Graph g("conv");
  const auto x = g.add_input("x", {1, 64, 56, 56}, DType::fp16);
  const auto y = ops::conv2d(g, "c", x, 128, Window{3, 3, 2, 2, 1, 1, 1, 1});
  EXPECT_EQ(g.tensor(y).shape, (Shape{1, 128, 28, 28}));
  const OpCost& cost = g.op(0).cost;
  EXPECT_EQ(cost.macs, 57'802'752);
  EXPECT_EQ(cost.flops, 2 * 57'802'752);
  EXPECT_EQ(cost.params, 128 * 64 * 9);
  EXPECT_EQ(cost.bytes_read, (64 * 56 * 56 + 128 * 64 * 9) * 2);
  EXPECT_EQ(cost.bytes_written, 128 * 28 * 28 * 2);
}

TEST(Graph, LayoutsDefaultByRankAndPropagate) {
  Graph g("layouts");
  const auto x = g.add_input("x", {1, 8, 4, 4}, DType::fp16);
  EXPECT_EQ(g.tensor(x).layout, Layout::nchw);
  const auto y = ops::relu(g, "r", ops::conv2d(g, "c", x, 8, Window{}));
  EXPECT_EQ(g.tensor(y).layout, Layout::nchw);
  EXPECT_EQ(g.tensor(ops::flatten(g, "f", y)).layout, Layout::plain);
  const auto channels_last = g.add_input("h", {1, 8, 4, 4}, DType::fp16, Layout::nhwc);
  EXPECT_EQ(g.tensor(ops::relu(g, "r2", channels_last)).layout, Layout::nhwc);
  EXPECT_EQ(kLayoutNames.parse("nhwc"), Layout::nhwc);
  EXPECT_FALSE(kLayoutNames.parse("nwhc").has_value());
}

TEST(Conv2d, DepthwiseAndDilation) {
  Graph g("dw");
  const auto x = g.add_input("x", {2, 32, 10, 10}, DType::fp32);
  // depthwise 3x3, dilation 2: span 5, output (10 - 5) / 1 + 1 = 6
  ops::conv2d(g, "dw", x, 32, Window{3, 3, 1, 1, 0, 0, 2, 2}, 32);
  EXPECT_EQ(g.tensor(g.op(0).output).shape, (Shape{2, 32, 6, 6}));
  EXPECT_EQ(g.op(0).cost.macs, 2 * 32 * 6 * 6 * 9);
  EXPECT_EQ(g.op(0).cost.params, 32 * 9);
}

TEST(VectorOps, BatchnormCountsTrainableParamsAndReadsStatistics) {
  Graph g("bn");
  const auto x = g.add_input("x", {1, 16, 4, 4}, DType::fp32);
  ops::batchnorm(g, "bn", x);
  const OpCost& cost = g.op(0).cost;
  EXPECT_EQ(cost.params, 32);                      // gamma, beta
  EXPECT_EQ(cost.bytes_read, (256 + 4 * 16) * 4);  // input + gamma, beta, mean, var
  EXPECT_EQ(cost.flops, 2 * 256);
}

TEST(VectorOps, FlattenMovesNothing) {
  Graph g("f");
  const auto x = g.add_input("x", {4, 8, 2, 2}, DType::fp32);
  const auto y = ops::flatten(g, "f", x);
  EXPECT_EQ(g.tensor(y).shape, (Shape{4, 32}));
  EXPECT_EQ(g.op(0).cost.bytes_read + g.op(0).cost.bytes_written, 0);
}

}  // namespace dse
