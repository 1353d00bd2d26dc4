// ResNet v2 (He et al., "Identity Mappings in Deep Residual Networks", ECCV 2016): pre-activation
// bottlenecks, as Keras Applications builds ResNet50V2/101V2/152V2 (stride on the last block of
// stages 1-3, biased 1x1 output convs, a final batch norm + relu). Published parameter counts
// (Keras Applications table, which also counts batch-norm moving statistics): 25.6 M, 44.7 M,
// 60.4 M; dse counts trainable parameters only (0.2 % fewer).
#include <array>

#include "models/zoo/layers.h"

namespace dse {
namespace {

using zoo::square;

TensorId block_v2(Graph& g, const std::string& name, TensorId x, std::int64_t filters, std::int64_t stride,
                  bool conv_shortcut) {
  const auto preact = ops::relu(g, name + ".preact.relu", ops::batchnorm(g, name + ".preact.bn", x));
  TensorId shortcut = x;
  if (conv_shortcut)
    shortcut = ops::conv2d(g, name + ".shortcut", preact, 4 * filters, square(1, stride, 0), 1, true);
  else if (stride > 1)
    shortcut = ops::maxpool(g, name + ".shortcut", x, square(1, stride, 0));
  auto y = zoo::conv_bn_act(g, name + ".conv1", preact, filters, 1, 1, OpKind::relu);
  y = zoo::conv_bn_act(g, name + ".conv2", y, filters, 3, stride, OpKind::relu);
  y = ops::conv2d(g, name + ".conv3", y, 4 * filters, square(1, 1, 0), 1, true);
  return ops::add(g, name + ".add", shortcut, y);
}

Graph resnet_v2(const std::string& name, const std::array<int, 4>& blocks, const ModelParams& p) {
  Graph g(name);
  const int r = p.resolution ? p.resolution : 224;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  x = ops::conv2d(g, "conv1", x, 64, square(7, 2, 3), 1, true);
  x = ops::maxpool(g, "pool1", x, square(3, 2, 1));
  const std::int64_t filters[] = {64, 128, 256, 512};
  for (int stage = 0; stage < 4; ++stage) {
    const std::int64_t last_stride = stage < 3 ? 2 : 1;
    for (int b = 0; b < blocks[stage]; ++b) {
      const std::string block = "stage" + std::to_string(stage + 1) + ".block" + std::to_string(b + 1);
      x = block_v2(g, block, x, filters[stage], b == blocks[stage] - 1 ? last_stride : 1, b == 0);
    }
  }
  x = ops::relu(g, "post.relu", ops::batchnorm(g, "post.bn", x));
  x = ops::flatten(g, "flatten", ops::global_avgpool(g, "avgpool", x));
  ops::linear(g, "fc", x, 1000);
  return g;
}

}  // namespace

DSE_REGISTER_FACTORY(ModelZoo, "resnet_v2_50", "ResNet-50 v2, pre-activation (Keras ResNet50V2), 224x224",
                     [](const ModelParams& p) {
                       return resnet_v2("resnet_v2_50", {3, 4, 6, 3}, p);
                     })
DSE_REGISTER_FACTORY(ModelZoo, "resnet_v2_101", "ResNet-101 v2, pre-activation (Keras ResNet101V2), 224x224",
                     [](const ModelParams& p) {
                       return resnet_v2("resnet_v2_101", {3, 4, 23, 3}, p);
                     })
DSE_REGISTER_FACTORY(ModelZoo, "resnet_v2_152", "ResNet-152 v2, pre-activation (Keras ResNet152V2), 224x224",
                     [](const ModelParams& p) {
                       return resnet_v2("resnet_v2_152", {3, 8, 36, 3}, p);
                     })

}  // namespace dse
