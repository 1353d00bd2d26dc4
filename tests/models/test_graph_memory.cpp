// What a graph keeps in device memory (models/graph_memory.h), against hand counts.
#include <gtest/gtest.h>

#include "models/graph_memory.h"
#include "models/ops/op_library.h"
#include "models/zoo/zoo.h"

namespace dse {

TEST(GraphMemory, CountsWeightsOnceAndTheLargestLiveSetByHand) {
  Graph g("small");
  const auto x = g.add_input("x", {1, 8, 4, 4}, DType::fp16);           // 256 B
  const auto c = ops::conv2d(g, "c", x, 16, {3, 3, 1, 1, 1, 1, 1, 1});  // 512 B; 16 x 8 x 9 x 2 = 2,304 B of weights
  const auto r = ops::relu(g, "r", c);                                  // 512 B
  const auto f = ops::reshape(g, "f", r, {1, 256});                     // a view: r's memory
  ops::linear(g, "l", f, 10);  // 20 B; (256 x 10 + 10) x 2 = 5,140 B of weights
  const GraphMemory m = graph_memory(g);
  EXPECT_DOUBLE_EQ(m.weight_bytes, 2304 + 5140);
  EXPECT_DOUBLE_EQ(m.kv_cache_bytes, 0);
  // Live at each op: conv x + c = 768; relu c + r = 1,024; reshape r = 512; linear r + l = 532.
  EXPECT_DOUBLE_EQ(m.activation_peak_bytes, 1024);
  EXPECT_DOUBLE_EQ(m.total_bytes(), 7444 + 1024);
}

TEST(GraphMemory, HoldsAKvCacheWholeBesideTheActivations) {
  Graph g("cache");
  const auto past = g.add_input("past", {1, 2, 10, 4}, DType::fp16);  // 160 B
  const auto k = g.add_input("k", {1, 2, 1, 4}, DType::fp16);         // 16 B
  const auto q = g.add_input("q", {1, 2, 1, 4}, DType::fp16);         // 16 B
  const auto all = ops::kv_cache_append(g, "append", past, k);        // [1, 2, 11, 4]: 176 B
  ops::matmul(g, "scores", q, all, true);                             // [1, 2, 1, 11]: 44 B
  const GraphMemory m = graph_memory(g);
  EXPECT_DOUBLE_EQ(m.weight_bytes, 0);
  EXPECT_DOUBLE_EQ(m.kv_cache_bytes, 176);
  // Apart from the cache: k and q while appending (32 B), then q and the scores (60 B).
  EXPECT_DOUBLE_EQ(m.activation_peak_bytes, 60);
}

TEST(GraphMemory, Gpt2DecodeHoldsEveryParameterOnceAndItsWholeCache) {
  ModelParams decode;
  decode.decode = true;
  decode.past_len = 511;
  const Graph g = ModelRegistry::instance().find("gpt2")->factory(decode);
  const GraphMemory m = graph_memory(g);
  // 124,439,808 fp32 parameters (the tied LM head once; its gather reads only one row of the
  // table, the head the whole) and a few literal constants.
  const double parameters = 124'439'808.0 * 4;
  EXPECT_GE(m.weight_bytes, parameters);
  EXPECT_LT(m.weight_bytes, parameters + 16384);
  // K and V of 512 positions x 768 per layer, 12 layers, fp32.
  EXPECT_DOUBLE_EQ(m.kv_cache_bytes, 2.0 * 12 * 512 * 768 * 4);
  EXPECT_GT(m.activation_peak_bytes, 0);
}

}  // namespace dse
