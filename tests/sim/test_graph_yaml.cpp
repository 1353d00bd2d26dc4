#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "models/export/graphviz.h"
#include "models/import/scalesim_topology.h"
#include "models/transforms/fusion.h"
#include "models/zoo/zoo.h"
#include "sim/config/config_loader.h"
#include "sim/graph_io/graph_yaml.h"
#include "sim/run/model_source.h"

namespace dse {
namespace {

Graph zoo(const std::string& name) { return ModelRegistry::instance().find(name)->factory(ModelParams{}); }

std::string read_error(const std::string& text) {
  try {
    graph_from_yaml(load_config_text(text, "g.yaml"));
  } catch (const UserError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST(GraphYaml, EveryZooModelRoundTripsExactly) {
  for (const auto& name : ModelRegistry::instance().names()) {
    const Graph original = zoo(name);
    const std::string text = graph_to_yaml(original);
    const Graph back = graph_from_yaml(load_config_text(text, name + ".yaml"));
    EXPECT_EQ(graph_to_yaml(back), text) << name;
    const OpCost a = original.total_cost(), b = back.total_cost();
    EXPECT_EQ(a.params, b.params) << name;
    EXPECT_EQ(a.macs, b.macs) << name;
    EXPECT_EQ(a.flops, b.flops) << name;
    EXPECT_EQ(a.bytes_read + a.bytes_written, b.bytes_read + b.bytes_written) << name;
  }
}

// A training pass's dropouts write their masks, and fused, the fused op carries those bytes: both
// survive the YAML graph format.
TEST(GraphYaml, TrainingPassesAndTheirFusedDropoutsRoundTrip) {
  ModelParams train;
  train.training = true;
  const Graph plain = ModelRegistry::instance().find("bert_base_pretraining")->factory(train);
  for (const Graph& original : {plain, transforms::fuse_elementwise(plain)}) {
    const std::string text = graph_to_yaml(original);
    const Graph back = graph_from_yaml(load_config_text(text, "train.yaml"));
    EXPECT_EQ(graph_to_yaml(back), text);
    EXPECT_EQ(back.total_cost().bytes_written, original.total_cost().bytes_written);
  }
  EXPECT_GT(transforms::fuse_elementwise(plain).total_cost().bytes_written, 0);
}

TEST(GraphYaml, ChannelsLastInputsKeepTheirLayout) {
  const std::string text =
      "name: g\ninputs: [{name: x, shape: [1, 8, 4, 4], dtype: fp16, layout: nhwc}]\n"
      "ops: [{name: r, kind: relu, inputs: [x]}]\n";
  const Graph g = graph_from_yaml(load_config_text(text, "g.yaml"));
  EXPECT_EQ(g.tensor(g.ops()[0].output).layout, Layout::nhwc);
  EXPECT_NE(graph_to_yaml(g).find("layout: nhwc"), std::string::npos);
  EXPECT_EQ(graph_to_yaml(graph_from_yaml(load_config_text(graph_to_yaml(g), "again.yaml"))), graph_to_yaml(g));
}

TEST(GraphYaml, ErrorsPointIntoTheFile) {
  const std::string head = "name: g\ninputs: [{name: x, shape: [1, 8], dtype: fp32}]\nops:\n";
  EXPECT_EQ(read_error(head + "  - {name: r, kind: relu, inputs: [y]}\n"),
            "g.yaml:4:36: ops[0].inputs[0]: expected a tensor defined earlier (an input, a constant or '<op>:out'), "
            "found \"y\"; did you mean 'x'?");
  EXPECT_EQ(read_error(head + "  - {name: r, kind: reul, inputs: [x]}\n"),
            read_error(head + "  - {name: r, kind: reul, inputs: [x]}\n"));
  EXPECT_NE(read_error(head + "  - {name: r, kind: reul, inputs: [x]}\n").find("did you mean 'relu'?"),
            std::string::npos);
  EXPECT_EQ(
      read_error(head + "  - {name: r, kind: softmax, inputs: [x], axsi: 1}\n"),
      "g.yaml:4:43: ops[0].axsi: expected an attribute of softmax (axis), found unknown attribute 'axsi'; did you "
      "mean 'axis'?");
  EXPECT_EQ(read_error(head + "  - {name: m, kind: matmul, inputs: [x, x]}\n"),
            "g.yaml:4:5: ops[0]: expected an op its inputs and attributes allow, found: m: inner dimensions differ: "
            "1x8 x 1x8");
  EXPECT_EQ(read_error(head + "  - {name: c, kind: conv2d, inputs: [x]}\n"),
            "g.yaml:4:5: ops[0]: expected an op its inputs and attributes allow, found: c: missing attribute "
            "'out_channels'");
  EXPECT_EQ(read_error(head + "  - {name: f, kind: fused, inputs: [x], members: relu, macs: -1, flops: 8, params: 0, "
                              "param_bytes: 0, gemms: [], shape: [1, 8], dtype: fp32}\n"),
            "g.yaml:4:5: ops[0]: expected an op its inputs and attributes allow, found: f: attribute 'macs' must be a "
            "count >= 0");
  EXPECT_EQ(read_error("name: g\ninputs: []\nopps: []\n"),
            "g.yaml:1:1: ops: expected key 'ops' (a list of ops), found a mapping without it; did you mean to write "
            "'ops' for 'opps'?");
}

TEST(ScaleSimTopology, ConvRowsAreSizedAsScaleSimSizesThem) {
  const std::string path = std::string(DSE_REFERENCE_DIR) + "/scalesim/inputs/alexnet.csv";
  const Graph g = import_scalesim_topology(path);
  ASSERT_EQ(g.ops().size(), 5u);
  // Conv1: 224x224, 11x11, stride 4 -> ceil((224 - 11 + 4) / 4) = 55 (PyTorch without padding: 54).
  EXPECT_EQ(g.tensor(g.ops()[0].output).shape, (Shape{1, 96, 55, 55}));
  EXPECT_EQ(g.ops()[0].gemms[0], (GemmView{1, 55 * 55, 96, 11 * 11 * 3}));
  const Graph gemm = import_scalesim_topology(std::string(DSE_REFERENCE_DIR) + "/scalesim/inputs/gpt2.csv");
  EXPECT_EQ(gemm.ops()[0].gemms[0], (GemmView{1, 1024, 1024, 64}));  // QKT: M, N, K
}

TEST(ScaleSimTopology, BadFilesNamePositions) {
  const auto path = std::filesystem::temp_directory_path() / "dse_bad_topology.csv";
  std::ofstream(path) << "Layer,M,N,K,\nL1,10,0,3,\n";
  try {
    import_scalesim_topology(path.string());
    FAIL();
  } catch (const UserError& error) {
    EXPECT_EQ(std::string(error.what()), path.string() + ":2:7: N: expected a positive integer, found 0");
  }
  std::ofstream(path) << "a,b,c\n1,2,3\n";
  EXPECT_THROW(import_scalesim_topology(path.string()), UserError);
  std::filesystem::remove(path);
}

TEST(ModelFiles, DispatchByExtension) {
  EXPECT_THROW(load_model_file("model.pt", {}), UserError);
  const std::string path = std::string(DSE_REFERENCE_DIR) + "/scalesim/inputs/Resnet18.csv";
  EXPECT_GT(load_model_file(path, {}).ops().size(), 10u);
}

// A graph of views only (or of no ops) ran in 0 s at 0 W, and served it never advanced the clock
// until memory ran out: refused where the model is named, for a run and for serving alike.
TEST(ModelFiles, AModelWithNoOpThatTakesTimeIsRefusedForRunAndServing) {
  const auto dir = std::filesystem::temp_directory_path() / ("dse_no_kernels_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string inputs = "inputs: [{name: x, shape: [1, 8], dtype: fp16}]\n";
  std::ofstream(dir / "views.yaml") << "name: views\n" + inputs +
                                           "ops: [{name: v, kind: reshape, inputs: [x], shape: [2, 4]}, "
                                           "{name: f, kind: flatten, inputs: ['v:out']}]\n";
  std::ofstream(dir / "empty.yaml") << "name: empty\n" + inputs + "ops: []\n";
  std::ofstream(dir / "relu.yaml") << "name: relu\n" + inputs + "ops: [{name: r, kind: relu, inputs: [x]}]\n";
  const std::string config = (dir / "run.yaml").string();
  const auto error_of = [&](const std::string& graph, const std::string& serving) -> std::string {
    try {
      read_experiment(load_config_text("name: t\nworkload:\n  models: [{graph: " + graph + "}]\n" + serving +
                                           "device: {gpu: h200}\noutput: ~\n",
                                       config),
                      config);
    } catch (const ConfigError& error) {
      return error.what();
    }
    return "(accepted)";
  };
  const std::string serving =
      "  serving:\n    duration_s: 1\n    tenants: [{arrivals: {name: closed_loop, clients: 4, think_ms: 0}, "
      "batching: {name: fixed, batch: 1}}]\n";
  for (const std::string& workload : {std::string(), serving}) {
    EXPECT_EQ(error_of("views.yaml", workload),
              config +
                  ":3:12: workload.models[0]: expected a model with at least one op that takes time (not only "
                  "reshape or flatten views), found 'views' with only views (2 ops)");
    EXPECT_NE(error_of("empty.yaml", workload).find("found 'empty' with no ops"), std::string::npos);
    EXPECT_EQ(error_of("relu.yaml", workload), "(accepted)");
  }
  std::filesystem::remove_all(dir);
}

TEST(Graphviz, OneNodePerOpAndEdgesAlongTensors) {
  const Graph g = zoo("squeezenet1_1");
  const std::string dot = to_graphviz(g);
  EXPECT_TRUE(dot.starts_with("digraph \"squeezenet1_1\" {"));
  std::size_t nodes = 0;
  for (std::size_t at = dot.find("  op"); at != std::string::npos; at = dot.find("  op", at + 1))
    if (dot.compare(at, 4, "  op") == 0 && dot.find("[", at) < dot.find("\n", at)) ++nodes;
  EXPECT_EQ(nodes, g.ops().size());
}

}  // namespace dse
