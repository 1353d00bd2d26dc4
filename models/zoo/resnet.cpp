// ResNet v1.5 as in torchvision (He et al., CVPR 2016; stride on the 3x3 conv of each bottleneck).
// Published counts at 224x224, batch 1 (torchvision model docs): resnet18 11.69 M params / 1.81 G
// MACs, resnet34 21.80 M / 3.66 G, resnet50 25.56 M / 4.09 G, resnet101 44.55 M / 7.80 G,
// resnet152 60.19 M / 11.51 G.
#include <array>
#include <string>

#include "models/zoo/layers.h"

namespace dse {
namespace {

using zoo::square;

TensorId conv_bn(Graph& g, const std::string& name, TensorId x, std::int64_t channels, const Window& window,
                 bool with_relu) {
  auto y = ops::conv2d(g, name, x, channels, window);
  y = ops::batchnorm(g, name + ".bn", y);
  return with_relu ? ops::relu(g, name + ".relu", y) : y;
}

// Two 3x3 convs (resnet18/34).
TensorId basic_block(Graph& g, const std::string& name, TensorId x, std::int64_t channels, std::int64_t stride) {
  const auto in_channels = g.tensor(x).shape[1];
  auto y = conv_bn(g, name + ".conv1", x, channels, square(3, stride, 1), true);
  y = conv_bn(g, name + ".conv2", y, channels, square(3, 1, 1), false);
  TensorId shortcut = x;
  if (stride != 1 || in_channels != channels)
    shortcut = conv_bn(g, name + ".downsample", x, channels, square(1, stride, 0), false);
  return ops::relu(g, name + ".relu", ops::add(g, name + ".add", y, shortcut));
}

// 1x1 -> 3x3 (strided) -> 1x1 with 4x expansion (resnet50/101/152).
TensorId bottleneck(Graph& g, const std::string& name, TensorId x, std::int64_t width, std::int64_t stride) {
  const auto in_channels = g.tensor(x).shape[1];
  const auto out_channels = 4 * width;
  auto y = conv_bn(g, name + ".conv1", x, width, square(1, 1, 0), true);
  y = conv_bn(g, name + ".conv2", y, width, square(3, stride, 1), true);
  y = conv_bn(g, name + ".conv3", y, out_channels, square(1, 1, 0), false);
  TensorId shortcut = x;
  if (stride != 1 || in_channels != out_channels)
    shortcut = conv_bn(g, name + ".downsample", x, out_channels, square(1, stride, 0), false);
  return ops::relu(g, name + ".relu", ops::add(g, name + ".add", y, shortcut));
}

Graph build_resnet(const std::string& name, const std::array<int, 4>& blocks, bool use_bottleneck,
                   const ModelParams& params) {
  const int resolution = params.resolution ? params.resolution : 224;
  Graph g(name);
  auto x = g.add_input("input", {params.batch, 3, resolution, resolution}, params.dtype);
  x = conv_bn(g, "conv1", x, 64, square(7, 2, 3), true);
  x = ops::maxpool(g, "maxpool", x, square(3, 2, 1));
  const std::array<std::int64_t, 4> widths{64, 128, 256, 512};
  for (int stage = 0; stage < 4; ++stage) {
    for (int block = 0; block < blocks[stage]; ++block) {
      const std::int64_t stride = (stage > 0 && block == 0) ? 2 : 1;
      const std::string block_name = "layer" + std::to_string(stage + 1) + "." + std::to_string(block);
      x = use_bottleneck ? bottleneck(g, block_name, x, widths[stage], stride)
                         : basic_block(g, block_name, x, widths[stage], stride);
    }
  }
  x = ops::global_avgpool(g, "avgpool", x);
  x = ops::flatten(g, "flatten", x);
  ops::linear(g, "fc", x, 1000);
  return g;
}

}  // namespace

DSE_REGISTER_FACTORY(ModelZoo, "resnet18", "ResNet-18 (torchvision), 224x224 ImageNet classifier",
                     [](const ModelParams& p) {
                       return build_resnet("resnet18", {2, 2, 2, 2}, false, p);
                     })
DSE_REGISTER_FACTORY(ModelZoo, "resnet34", "ResNet-34 (torchvision), 224x224 ImageNet classifier",
                     [](const ModelParams& p) {
                       return build_resnet("resnet34", {3, 4, 6, 3}, false, p);
                     })
DSE_REGISTER_FACTORY(ModelZoo, "resnet50", "ResNet-50 v1.5 (torchvision), 224x224 ImageNet classifier",
                     [](const ModelParams& p) {
                       return build_resnet("resnet50", {3, 4, 6, 3}, true, p);
                     })
DSE_REGISTER_FACTORY(ModelZoo, "resnet101", "ResNet-101 v1.5 (torchvision), 224x224 ImageNet classifier",
                     [](const ModelParams& p) {
                       return build_resnet("resnet101", {3, 4, 23, 3}, true, p);
                     })
DSE_REGISTER_FACTORY(ModelZoo, "resnet152", "ResNet-152 v1.5 (torchvision), 224x224 ImageNet classifier",
                     [](const ModelParams& p) {
                       return build_resnet("resnet152", {3, 8, 36, 3}, true, p);
                     })

}  // namespace dse
