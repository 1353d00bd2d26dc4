// EfficientNet B0-B7 as torchvision builds them (Tan & Le, ICML 2019): MBConv blocks with
// squeeze-excite (SiLU, sigmoid gate), width and depth scaled per variant. Published counts, batch 1
// (torchvision model docs; "GFLOPS" are MACs, at torchvision's eval crop): b0 5,288,548 params /
// 0.39 G at 224; b1 7,794,184 / 0.69 G at 240; b2 9,109,994 / 1.09 G at 288; b3 12,233,232 /
// 1.83 G at 300; b4 19,341,616 / 4.39 G at 380; b5 30,389,784 / 10.27 G at 456; b6 43,040,704 /
// 19.07 G at 528; b7 66,347,960 / 37.75 G at 600. Default resolution here is the paper's
// (224, 240, 260, 300, 380, 456, 528, 600).
#include <cmath>

#include "models/zoo/layers.h"

namespace dse {
namespace {

using zoo::conv_bn_act;
using zoo::make_divisible;

struct Variant {
  const char* name;
  double width, depth;
  int resolution;
};

Graph efficientnet(const Variant& v, const ModelParams& p) {
  Graph g(v.name);
  const int r = p.resolution ? p.resolution : v.resolution;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  const auto channels = [&v](int c) { return make_divisible(c * v.width); };
  x = conv_bn_act(g, "stem", x, channels(32), 3, 2, OpKind::silu);
  // expand ratio, kernel, stride, out channels, layers (B0)
  struct Stage {
    int expand, kernel, stride, out, layers;
  };
  const Stage stages[] = {{1, 3, 1, 16, 1},  {6, 3, 2, 24, 2},  {6, 5, 2, 40, 2}, {6, 3, 2, 80, 3},
                          {6, 5, 1, 112, 3}, {6, 5, 2, 192, 4}, {6, 3, 1, 320, 1}};
  int index = 1;
  for (const auto& stage : stages) {
    const int layers = static_cast<int>(std::ceil(stage.layers * v.depth));
    const auto out = channels(stage.out);
    for (int i = 0; i < layers; ++i) {
      const std::string name = "block" + std::to_string(index++);
      const auto in = g.tensor(x).shape[1];
      const auto expanded = make_divisible(static_cast<double>(in * stage.expand));
      const std::int64_t stride = i == 0 ? stage.stride : 1;
      auto y = x;
      if (expanded != in) y = conv_bn_act(g, name + ".expand", y, expanded, 1, 1, OpKind::silu);
      y = conv_bn_act(g, name + ".dw", y, expanded, stage.kernel, stride, OpKind::silu, expanded);
      y = zoo::squeeze_excite(g, name + ".se", y, std::max<std::int64_t>(1, in / 4), OpKind::silu, OpKind::sigmoid);
      y = conv_bn_act(g, name + ".project", y, out, 1, 1, std::nullopt);
      x = stride == 1 && in == out ? ops::add(g, name + ".add", x, y) : y;
    }
  }
  x = conv_bn_act(g, "head", x, 4 * g.tensor(x).shape[1], 1, 1, OpKind::silu);
  x = ops::global_avgpool(g, "avgpool", x);
  x = ops::flatten(g, "flatten", x);
  ops::linear(g, "fc", x, 1000);
  return g;
}

constexpr Variant kVariants[] = {{"efficientnet_b0", 1.0, 1.0, 224}, {"efficientnet_b1", 1.0, 1.1, 240},
                                 {"efficientnet_b2", 1.1, 1.2, 260}, {"efficientnet_b3", 1.2, 1.4, 300},
                                 {"efficientnet_b4", 1.4, 1.8, 380}, {"efficientnet_b5", 1.6, 2.2, 456},
                                 {"efficientnet_b6", 1.8, 2.6, 528}, {"efficientnet_b7", 2.0, 3.1, 600}};

}  // namespace

#define DSE_EFFICIENTNET(i, text)                         \
  DSE_REGISTER_FACTORY(ModelZoo, kVariants[i].name, text, \
                       [](const ModelParams& p) { return efficientnet(kVariants[i], p); })
DSE_EFFICIENTNET(0, "EfficientNet-B0 (torchvision), 224x224")
DSE_EFFICIENTNET(1, "EfficientNet-B1 (torchvision), 240x240")
DSE_EFFICIENTNET(2, "EfficientNet-B2 (torchvision), 260x260")
DSE_EFFICIENTNET(3, "EfficientNet-B3 (torchvision), 300x300")
DSE_EFFICIENTNET(4, "EfficientNet-B4 (torchvision), 380x380")
DSE_EFFICIENTNET(5, "EfficientNet-B5 (torchvision), 456x456")
DSE_EFFICIENTNET(6, "EfficientNet-B6 (torchvision), 528x528")
DSE_EFFICIENTNET(7, "EfficientNet-B7 (torchvision), 600x600")
#undef DSE_EFFICIENTNET

}  // namespace dse
