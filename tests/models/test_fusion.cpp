#include <gtest/gtest.h>

#include "models/transforms/fusion.h"
#include "models/zoo/zoo.h"

namespace dse {
namespace {

Graph zoo(const std::string& name) { return ModelRegistry::instance().find(name)->factory(ModelParams{}); }

std::size_t count(const Graph& g, OpKind kind) {
  return static_cast<std::size_t>(
      std::count_if(g.ops().begin(), g.ops().end(), [kind](const Op& op) { return op.kind == kind; }));
}

std::int64_t traffic(const Graph& g) { return g.total_cost().bytes_read + g.total_cost().bytes_written; }

}  // namespace

TEST(Fusion, FoldBatchnormIntoConvBiases) {
  const Graph original = zoo("resnet50");
  const Graph folded = transforms::fold_batchnorm(original);
  EXPECT_EQ(count(original, OpKind::batchnorm), 53u);
  EXPECT_EQ(count(folded, OpKind::batchnorm), 0u);
  EXPECT_EQ(folded.total_cost().macs, original.total_cost().macs);
  // Each batch norm's 2C params become C conv biases: torchvision's 53,120 BN params are 2 x 26,560.
  EXPECT_EQ(folded.total_cost().params, 25'557'032 - 26'560);
  EXPECT_LT(traffic(folded), traffic(original));
}

TEST(Fusion, EpiloguesAbsorbBiasActivationAndResidual) {
  const Graph folded = transforms::fold_batchnorm(zoo("resnet50"));
  const Graph fused = transforms::fuse_epilogues(folded);
  EXPECT_EQ(count(fused, OpKind::relu), 0u);  // every relu follows a conv or a residual add it joins
  EXPECT_EQ(count(fused, OpKind::add), 0u);
  EXPECT_EQ(fused.total_cost().macs, folded.total_cost().macs);
  EXPECT_EQ(fused.total_cost().flops, folded.total_cost().flops);
  EXPECT_EQ(fused.total_cost().params, folded.total_cost().params);
  EXPECT_LT(traffic(fused), traffic(folded));
  for (const auto& op : fused.ops()) {
    if (op.kind == OpKind::fused) {
      EXPECT_FALSE(op.gemms.empty()) << op.name;  // each group starts at a matrix op
    }
  }
}

TEST(Fusion, AttentionBecomesOneOpPerLayer) {
  const Graph bert = zoo("bert_base");
  const Graph fused = transforms::fuse_attention(bert);
  EXPECT_EQ(count(fused, OpKind::attention), 12u);
  EXPECT_EQ(count(fused, OpKind::softmax), 0u);
  EXPECT_EQ(fused.total_cost().macs, bert.total_cost().macs);
  EXPECT_EQ(fused.total_cost().flops, bert.total_cost().flops);  // scale + mask + softmax flops kept
  // Scores [1, 12, 128, 128] fp32 were written and read back three times around scale, mask, softmax.
  EXPECT_LT(traffic(fused), traffic(bert) - 4 * 12 * 128 * 128 * 4 * 12);
  // GPT-2 decode: the fused attention reads the KV cache appended in place.
  ModelParams decode;
  decode.decode = true;
  EXPECT_EQ(
      count(transforms::fuse_attention(ModelRegistry::instance().find("gpt2")->factory(decode)), OpKind::attention),
      12u);
}

TEST(Fusion, ElementwiseChainsAndMacsPreservedAcrossTheZoo) {
  for (const auto& name : ModelRegistry::instance().names()) {
    const Graph g = zoo(name);
    for (const auto& transform : transforms::TransformRegistry::instance().names()) {
      const Graph t = transforms::TransformRegistry::instance().find(transform)->factory(g);
      EXPECT_EQ(t.total_cost().macs, g.total_cost().macs) << name << " " << transform;
      EXPECT_LE(t.ops().size(), g.ops().size()) << name << " " << transform;
      EXPECT_LE(traffic(t), traffic(g)) << name << " " << transform;
    }
  }
  const Graph effnet = zoo("efficientnet_b0");
  EXPECT_LT(transforms::fuse_elementwise(effnet).ops().size(), effnet.ops().size());
}

TEST(Fusion, GeluNewDiamondBecomesOneKernel) {
  // GPT-2's MLP activation is Hugging Face's gelu_new written out: eight eager ops per layer, whose
  // two chains (x / 2 and x^3 -> ... -> 1 + tanh) meet at their product.
  const Graph gpt2 = zoo("gpt2");
  EXPECT_EQ(count(gpt2, OpKind::gelu), 0u);
  EXPECT_EQ(count(gpt2, OpKind::tanh), 12u);
  EXPECT_EQ(count(gpt2, OpKind::pow), 12u);
  const Graph fused = transforms::fuse_elementwise(gpt2);
  EXPECT_EQ(count(fused, OpKind::tanh), 0u);
  EXPECT_EQ(count(fused, OpKind::pow), 0u);
  std::size_t activations = 0;
  for (const auto& op : fused.ops()) {
    if (op.kind != OpKind::fused || op.name.find(".mlp.act.") == std::string::npos) continue;
    ++activations;
    EXPECT_EQ(std::get<std::string>(op.attributes.at("members")), "mul+pow+mul+add+mul+tanh+add+mul") << op.name;
  }
  EXPECT_EQ(activations, 12u);  // one kernel per layer, reading x once and writing the result once
  EXPECT_EQ(fused.total_cost().flops, gpt2.total_cost().flops);
}

TEST(Fusion, FusedDropoutStillWritesItsMask) {
  ModelParams train;
  train.training = true;
  const Graph gpt2 = ModelRegistry::instance().find("gpt2")->factory(train);
  const Graph fused = transforms::fuse_elementwise(gpt2);
  const auto residual = std::find_if(fused.ops().begin(), fused.ops().end(),
                                     [](const Op& op) { return op.name == "layer0.mlp_dropout+1"; });
  ASSERT_NE(residual, fused.ops().end());  // dropout + residual add, one kernel
  EXPECT_EQ(std::get<std::int64_t>(residual->attributes.at("side_bytes_written")), 1024 * 768);
  EXPECT_EQ(residual->cost.bytes_written, 1024 * 768 * 4 + 1024 * 768);
  // Rebuilt from its attributes (as a YAML graph is), the fused op keeps the mask's bytes.
  const Graph again = transforms::fuse_elementwise(fused);
  EXPECT_EQ(again.total_cost().bytes_written, fused.total_cost().bytes_written);
}

TEST(Fusion, SplitSegmentsAtNamedOps) {
  const Graph g = zoo("resnet18");
  const auto segments = transforms::split_segments(g, {"layer2.1.relu"});
  ASSERT_EQ(segments.size(), 2u);
  EXPECT_EQ(segments[0].total_cost().macs + segments[1].total_cost().macs, g.total_cost().macs);
  ASSERT_EQ(segments[1].inputs().size(), 1u);
  EXPECT_EQ(segments[1].tensor(segments[1].inputs()[0]).name, "layer2.1.relu:out");
  EXPECT_THROW(transforms::split_segments(g, {"no_such_op"}), std::invalid_argument);
}

}  // namespace dse
