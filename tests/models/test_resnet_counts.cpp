// Zoo counts against published figures: torchvision's model documentation (ImageNet weights pages)
// lists params and "GFLOPS" (which are multiply-accumulates) at 224x224, batch 1:
// resnet18 11,689,512 / 1.81; resnet34 21,797,672 / 3.66; resnet50 25,557,032 / 4.09;
// resnet101 44,549,160 / 7.80; resnet152 60,192,808 / 11.51.
#include <gtest/gtest.h>

#include "models/zoo/zoo.h"

namespace dse {
namespace {

struct Published {
  const char* name;
  double params;
  double gmacs;
};

void PrintTo(const Published& published, std::ostream* out) { *out << published.name; }

class ResNetCounts : public ::testing::TestWithParam<Published> {};

TEST_P(ResNetCounts, MatchPublishedFigures) {
  const Published& published = GetParam();
  const Graph graph = ModelRegistry::instance().find(published.name)->factory(ModelParams{1, DType::fp32, 224});
  const OpCost total = graph.total_cost();
  EXPECT_NEAR(static_cast<double>(total.params), published.params, 0.01 * published.params);
  EXPECT_NEAR(static_cast<double>(total.macs) / 1e9, published.gmacs, 0.02 * published.gmacs);
}

INSTANTIATE_TEST_SUITE_P(Torchvision, ResNetCounts,
                         ::testing::Values(Published{"resnet18", 11'689'512, 1.81},
                                           Published{"resnet34", 21'797'672, 3.66},
                                           Published{"resnet50", 25'557'032, 4.09},
                                           Published{"resnet101", 44'549'160, 7.80},
                                           Published{"resnet152", 60'192'808, 11.51}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ResNet50, ExactParameterCount) {
  // Trainable parameters are exact, not approximate: torchvision's 25,557,032.
  const Graph graph = ModelRegistry::instance().find("resnet50")->factory(ModelParams{});
  EXPECT_EQ(graph.total_cost().params, 25'557'032);
}

TEST(ResNet50, ScalesWithBatchAndResolution) {
  const auto& build = ModelRegistry::instance().find("resnet50")->factory;
  const auto one = build(ModelParams{1, DType::fp16, 224}).total_cost();
  const auto eight = build(ModelParams{8, DType::fp16, 224}).total_cost();
  EXPECT_EQ(eight.macs, 8 * one.macs);
  EXPECT_EQ(eight.params, one.params);
  const auto big = build(ModelParams{1, DType::fp16, 448}).total_cost();
  // Convolutions scale with pixels (4x); only the classifier does not.
  EXPECT_NEAR(static_cast<double>(big.macs) / static_cast<double>(one.macs), 4.0, 0.01);
  const Graph g = build(ModelParams{2, DType::bf16, 224});
  EXPECT_EQ(g.tensor(g.outputs().front()).shape, (Shape{2, 1000}));
  EXPECT_EQ(g.tensor(g.outputs().front()).dtype, DType::bf16);
}

}  // namespace
}  // namespace dse
