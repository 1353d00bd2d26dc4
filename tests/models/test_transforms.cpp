#include <gtest/gtest.h>

#include "models/ops/op_library.h"
#include "models/transforms/rebuild.h"
#include "models/zoo/zoo.h"

namespace dse {
namespace {

Graph zoo(const std::string& name, int batch = 1) {
  ModelParams params;
  params.batch = batch;
  return ModelRegistry::instance().find(name)->factory(params);
}

void expect_same_costs(const Graph& a, const Graph& b, const std::string& what) {
  ASSERT_EQ(a.ops().size(), b.ops().size()) << what;
  for (std::size_t i = 0; i < a.ops().size(); ++i) {
    const Op &x = a.ops()[i], &y = b.ops()[i];
    EXPECT_EQ(x.name, y.name) << what;
    EXPECT_EQ(x.kind, y.kind) << what << " " << x.name;
    EXPECT_EQ(a.tensor(x.output).shape, b.tensor(y.output).shape) << what << " " << x.name;
    EXPECT_EQ(x.cost.flops, y.cost.flops) << what << " " << x.name;
    EXPECT_EQ(x.cost.bytes_read, y.cost.bytes_read) << what << " " << x.name;
    EXPECT_EQ(x.cost.params, y.cost.params) << what << " " << x.name;
    EXPECT_EQ(x.gemms, y.gemms) << what << " " << x.name;
  }
}

}  // namespace

TEST(Rebuild, EveryZooModelRebuildsFromItsAttributes) {
  // Every op of every zoo model must be re-creatable from kind + attributes: the contract YAML
  // graphs and transforms rely on.
  for (const auto& name : ModelRegistry::instance().names()) {
    const Graph original = zoo(name);
    expect_same_costs(original, transforms::rebuild(original), name);
  }
}

TEST(SetBatch, MatchesBuildingAtThatBatch) {
  for (const char* name : {"resnet50", "mobilenet_v3_large", "vit_b16", "efficientnet_b0"}) {
    const Graph eight = transforms::set_batch(zoo(name, 1), 8);
    EXPECT_EQ(eight.total_cost().macs, zoo(name, 8).total_cost().macs) << name;
    EXPECT_EQ(eight.total_cost().bytes_read, zoo(name, 8).total_cost().bytes_read) << name;
    EXPECT_EQ(eight.total_cost().params, zoo(name, 1).total_cost().params) << name;
  }
  EXPECT_THROW(transforms::set_batch(zoo("resnet18"), 0), std::invalid_argument);
}

TEST(RemoveDeadOps, DropsWhatNoOutputNeeds) {
  Graph g("dead");
  const auto x = g.add_input("x", {1, 8}, DType::fp32);
  const auto used = ops::relu(g, "used", x);
  ops::unary(g, "dead_end", OpKind::sigmoid, x);  // an output nobody asked for
  ops::relu(g, "out", used);
  const Graph kept = transforms::remove_dead_ops(g, {"out:out"});
  ASSERT_EQ(kept.ops().size(), 2u);
  EXPECT_EQ(kept.ops()[1].name, "out");
  EXPECT_EQ(transforms::remove_dead_ops(g).ops().size(), 3u);  // both ends are outputs
}

TEST(Rebuild, NewInputShapes) {
  const Graph g = transforms::rebuild(zoo("resnet18"), {{"input", {2, 3, 448, 448}}});
  EXPECT_EQ(g.tensor(g.outputs()[0]).shape, (Shape{2, 1000}));
  EXPECT_THROW(transforms::rebuild(zoo("resnet18"), {{"imput", {1, 3, 224, 224}}}), std::invalid_argument);
}

}  // namespace dse
