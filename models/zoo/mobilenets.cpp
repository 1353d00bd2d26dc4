// MobileNets. Published counts at 224x224, batch 1:
// - mobilenet_v1 (Howard et al. 2017, Table 8 / Keras applications, trainable params): width 1.0
//   4,231,976 params / 569 M MACs; 0.5: 1.33 M / 149 M; 0.25: 0.47 M / 41 M.
// - mobilenet_v2 (torchvision): 3,504,872 params / 0.30 G MACs; width 1.4 (TF-slim MobileNet
//   table, mobilenet_v2_1.4_224): 6.06 M params / 582 M MACs.
// - mobilenet_v3_large (torchvision): 5,483,032 params / 0.22 G MACs.
#include "models/zoo/layers.h"

namespace dse {
namespace {

using zoo::conv_bn_act;
using zoo::make_divisible;

Graph mobilenet_v1(const std::string& name, double width, const ModelParams& p) {
  Graph g(name);
  const int r = p.resolution ? p.resolution : 224;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  const auto channels = [width](int c) { return static_cast<std::int64_t>(c * width); };  // Keras: int(c * alpha)
  x = conv_bn_act(g, "conv1", x, channels(32), 3, 2, OpKind::relu);
  const std::pair<int, int> blocks[] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1},  {512, 2}, {512, 1},
                                        {512, 1}, {512, 1}, {512, 1}, {512, 1}, {1024, 2}, {1024, 1}};
  int index = 1;
  for (const auto& [out, stride] : blocks) {
    const std::string block = "block" + std::to_string(index++);
    const auto in = g.tensor(x).shape[1];
    x = conv_bn_act(g, block + ".dw", x, in, 3, stride, OpKind::relu, in);
    x = conv_bn_act(g, block + ".pw", x, channels(out), 1, 1, OpKind::relu);
  }
  x = ops::global_avgpool(g, "avgpool", x);
  x = ops::flatten(g, "flatten", x);
  ops::linear(g, "fc", x, 1000);
  return g;
}

// MobileNet v2/v3 block; se_channels = 0 means no squeeze-excite.
TensorId inverted_residual(Graph& g, const std::string& name, TensorId x, std::int64_t out, std::int64_t stride,
                           std::int64_t expanded, std::int64_t kernel, OpKind activation, std::int64_t se_channels,
                           OpKind se_activation, OpKind se_gate) {
  const auto in = g.tensor(x).shape[1];
  auto y = x;
  if (expanded != in) y = conv_bn_act(g, name + ".expand", y, expanded, 1, 1, activation);
  y = conv_bn_act(g, name + ".dw", y, expanded, kernel, stride, activation, expanded);
  if (se_channels > 0) y = zoo::squeeze_excite(g, name + ".se", y, se_channels, se_activation, se_gate);
  y = conv_bn_act(g, name + ".project", y, out, 1, 1, std::nullopt);
  return stride == 1 && in == out ? ops::add(g, name + ".add", x, y) : y;
}

Graph mobilenet_v2(const std::string& name, double width, const ModelParams& p) {
  Graph g(name);
  const int r = p.resolution ? p.resolution : 224;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  x = conv_bn_act(g, "conv1", x, make_divisible(32 * width), 3, 2, OpKind::clip);
  struct Stage {
    int t, c, n, s;
  };
  const Stage stages[] = {{1, 16, 1, 1}, {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                          {6, 96, 3, 1}, {6, 160, 3, 2}, {6, 320, 1, 1}};
  int index = 1;
  for (const auto& stage : stages) {
    const auto out = make_divisible(stage.c * width);
    for (int i = 0; i < stage.n; ++i) {
      const auto in = g.tensor(x).shape[1];
      x = inverted_residual(g, "block" + std::to_string(index++), x, out, i == 0 ? stage.s : 1, in * stage.t, 3,
                            OpKind::clip, 0, OpKind::relu, OpKind::sigmoid);
    }
  }
  x = conv_bn_act(g, "conv_last", x, make_divisible(1280 * std::max(1.0, width)), 1, 1, OpKind::clip);
  x = ops::global_avgpool(g, "avgpool", x);
  x = ops::flatten(g, "flatten", x);
  ops::linear(g, "fc", x, 1000);
  return g;
}

Graph mobilenet_v3_large(const ModelParams& p) {
  Graph g("mobilenet_v3_large");
  const int r = p.resolution ? p.resolution : 224;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  x = conv_bn_act(g, "conv1", x, 16, 3, 2, OpKind::hardswish);
  struct Block {
    int kernel, expanded, out;
    bool se;
    OpKind act;
    int stride;
  };
  const OpKind RE = OpKind::relu, HS = OpKind::hardswish;
  const Block blocks[] = {{3, 16, 16, false, RE, 1},  {3, 64, 24, false, RE, 2},  {3, 72, 24, false, RE, 1},
                          {5, 72, 40, true, RE, 2},   {5, 120, 40, true, RE, 1},  {5, 120, 40, true, RE, 1},
                          {3, 240, 80, false, HS, 2}, {3, 200, 80, false, HS, 1}, {3, 184, 80, false, HS, 1},
                          {3, 184, 80, false, HS, 1}, {3, 480, 112, true, HS, 1}, {3, 672, 112, true, HS, 1},
                          {5, 672, 160, true, HS, 2}, {5, 960, 160, true, HS, 1}, {5, 960, 160, true, HS, 1}};
  int index = 1;
  for (const auto& b : blocks) {
    const std::int64_t se = b.se ? make_divisible(b.expanded / 4) : 0;  // squeeze channels; 0 = no SE
    x = inverted_residual(g, "block" + std::to_string(index++), x, b.out, b.stride, b.expanded, b.kernel, b.act, se,
                          OpKind::relu, OpKind::hardsigmoid);
  }
  x = conv_bn_act(g, "conv_last", x, 960, 1, 1, OpKind::hardswish);
  x = ops::global_avgpool(g, "avgpool", x);
  x = ops::flatten(g, "flatten", x);
  x = ops::unary(g, "fc1.hardswish", OpKind::hardswish, ops::linear(g, "fc1", x, 1280));
  ops::linear(g, "fc2", x, 1000);
  return g;
}

}  // namespace

DSE_REGISTER_FACTORY(ModelZoo, "mobilenet_v1", "MobileNet v1, width 1.0 (Howard et al. 2017), 224x224",
                     [](const ModelParams& p) { return mobilenet_v1("mobilenet_v1", 1.0, p); })
DSE_REGISTER_FACTORY(ModelZoo, "mobilenet_v1_050", "MobileNet v1, width 0.5, 224x224",
                     [](const ModelParams& p) { return mobilenet_v1("mobilenet_v1_050", 0.5, p); })
DSE_REGISTER_FACTORY(ModelZoo, "mobilenet_v1_025", "MobileNet v1, width 0.25, 224x224",
                     [](const ModelParams& p) { return mobilenet_v1("mobilenet_v1_025", 0.25, p); })
DSE_REGISTER_FACTORY(ModelZoo, "mobilenet_v2", "MobileNet v2, width 1.0 (torchvision), 224x224",
                     [](const ModelParams& p) { return mobilenet_v2("mobilenet_v2", 1.0, p); })
DSE_REGISTER_FACTORY(ModelZoo, "mobilenet_v2_140", "MobileNet v2, width 1.4, 224x224",
                     [](const ModelParams& p) { return mobilenet_v2("mobilenet_v2_140", 1.4, p); })
DSE_REGISTER_FACTORY(ModelZoo, "mobilenet_v3_large", "MobileNet v3 large (torchvision), 224x224", mobilenet_v3_large)

}  // namespace dse
