// Early ImageNet CNNs as torchvision builds them. Published counts at 224x224, batch 1 (torchvision
// model docs; their "GFLOPS" are multiply-accumulates): alexnet 61,100,840 params / 0.71 G MACs;
// vgg16 138,357,544 / 15.47 G; vgg19 143,667,240 / 19.63 G; squeezenet1_1 1,235,496 / 0.35 G;
// googlenet 6,624,904 / 1.50 G.
#include "models/zoo/layers.h"

namespace dse {
namespace {

using zoo::square;

// torchvision's AdaptiveAvgPool2d((n, n)) where the input is a multiple of n (identity when equal).
TensorId adaptive_avgpool(Graph& g, const std::string& name, TensorId x, std::int64_t n) {
  const auto h = g.tensor(x).shape[2];
  if (h == n) return x;
  if (h % n != 0)
    throw std::invalid_argument(name + ": input " + std::to_string(h) + " not a multiple of " + std::to_string(n));
  return ops::avgpool(g, name, x, square(h / n, h / n, 0));
}

TensorId conv_relu(Graph& g, const std::string& name, TensorId x, std::int64_t channels, std::int64_t kernel,
                   std::int64_t stride, std::int64_t pad) {
  return ops::relu(g, name + ".relu", ops::conv2d(g, name, x, channels, square(kernel, stride, pad), 1, true));
}

TensorId classifier(Graph& g, TensorId x, std::int64_t hidden) {
  x = ops::flatten(g, "flatten", x);
  x = ops::relu(g, "fc1.relu", ops::linear(g, "fc1", x, hidden));
  x = ops::relu(g, "fc2.relu", ops::linear(g, "fc2", x, hidden));
  return ops::linear(g, "fc3", x, 1000);
}

Graph alexnet(const ModelParams& p) {
  Graph g("alexnet");
  const int r = p.resolution ? p.resolution : 224;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  x = conv_relu(g, "conv1", x, 64, 11, 4, 2);
  x = ops::maxpool(g, "pool1", x, square(3, 2, 0));
  x = conv_relu(g, "conv2", x, 192, 5, 1, 2);
  x = ops::maxpool(g, "pool2", x, square(3, 2, 0));
  x = conv_relu(g, "conv3", x, 384, 3, 1, 1);
  x = conv_relu(g, "conv4", x, 256, 3, 1, 1);
  x = conv_relu(g, "conv5", x, 256, 3, 1, 1);
  x = ops::maxpool(g, "pool5", x, square(3, 2, 0));
  x = adaptive_avgpool(g, "avgpool", x, 6);
  classifier(g, x, 4096);
  return g;
}

Graph vgg(const std::string& name, const std::vector<int>& convs_per_stage, const ModelParams& p) {
  Graph g(name);
  const int r = p.resolution ? p.resolution : 224;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  const std::int64_t widths[] = {64, 128, 256, 512, 512};
  for (std::size_t stage = 0; stage < convs_per_stage.size(); ++stage) {
    for (int i = 0; i < convs_per_stage[stage]; ++i)
      x = conv_relu(g, "conv" + std::to_string(stage + 1) + "_" + std::to_string(i + 1), x, widths[stage], 3, 1, 1);
    x = ops::maxpool(g, "pool" + std::to_string(stage + 1), x, square(2, 2, 0));
  }
  x = adaptive_avgpool(g, "avgpool", x, 7);
  classifier(g, x, 4096);
  return g;
}

TensorId fire(Graph& g, const std::string& name, TensorId x, std::int64_t squeeze, std::int64_t expand) {
  const auto s = conv_relu(g, name + ".squeeze", x, squeeze, 1, 1, 0);
  const auto e1 = conv_relu(g, name + ".expand1x1", s, expand, 1, 1, 0);
  const auto e3 = conv_relu(g, name + ".expand3x3", s, expand, 3, 1, 1);
  return ops::concat(g, name + ".concat", {e1, e3}, 1);
}

Graph squeezenet1_1(const ModelParams& p) {
  Graph g("squeezenet1_1");
  const int r = p.resolution ? p.resolution : 224;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  x = conv_relu(g, "conv1", x, 64, 3, 2, 0);
  x = ops::maxpool(g, "pool1", x, square(3, 2, 0, true));
  x = fire(g, "fire2", x, 16, 64);
  x = fire(g, "fire3", x, 16, 64);
  x = ops::maxpool(g, "pool3", x, square(3, 2, 0, true));
  x = fire(g, "fire4", x, 32, 128);
  x = fire(g, "fire5", x, 32, 128);
  x = ops::maxpool(g, "pool5", x, square(3, 2, 0, true));
  x = fire(g, "fire6", x, 48, 192);
  x = fire(g, "fire7", x, 48, 192);
  x = fire(g, "fire8", x, 64, 256);
  x = fire(g, "fire9", x, 64, 256);
  x = conv_relu(g, "conv10", x, 1000, 1, 1, 0);
  x = ops::global_avgpool(g, "avgpool", x);
  ops::flatten(g, "flatten", x);
  return g;
}

// torchvision BasicConv2d: conv (no bias) + batch norm + relu.
TensorId basic_conv(Graph& g, const std::string& name, TensorId x, std::int64_t channels, std::int64_t kernel,
                    std::int64_t stride = 1) {
  return zoo::conv_bn_act(g, name, x, channels, kernel, stride, OpKind::relu);
}

// GoogLeNet inception module; torchvision's "5x5" branch uses a 3x3 kernel (kept for its weights).
TensorId inception(Graph& g, const std::string& name, TensorId x, std::int64_t c1, std::int64_t c3r, std::int64_t c3,
                   std::int64_t c5r, std::int64_t c5, std::int64_t pool_proj) {
  const auto b1 = basic_conv(g, name + ".branch1", x, c1, 1);
  const auto b2 = basic_conv(g, name + ".branch2b", basic_conv(g, name + ".branch2a", x, c3r, 1), c3, 3);
  const auto b3 = basic_conv(g, name + ".branch3b", basic_conv(g, name + ".branch3a", x, c5r, 1), c5, 3);
  const auto pooled = ops::maxpool(g, name + ".branch4.pool", x, square(3, 1, 1, true));
  const auto b4 = basic_conv(g, name + ".branch4", pooled, pool_proj, 1);
  return ops::concat(g, name + ".concat", {b1, b2, b3, b4}, 1);
}

Graph googlenet(const ModelParams& p) {
  Graph g("googlenet");
  const int r = p.resolution ? p.resolution : 224;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  x = basic_conv(g, "conv1", x, 64, 7, 2);
  x = ops::maxpool(g, "maxpool1", x, square(3, 2, 0, true));
  x = basic_conv(g, "conv2", x, 64, 1);
  x = basic_conv(g, "conv3", x, 192, 3);
  x = ops::maxpool(g, "maxpool2", x, square(3, 2, 0, true));
  x = inception(g, "inception3a", x, 64, 96, 128, 16, 32, 32);
  x = inception(g, "inception3b", x, 128, 128, 192, 32, 96, 64);
  x = ops::maxpool(g, "maxpool3", x, square(3, 2, 0, true));
  x = inception(g, "inception4a", x, 192, 96, 208, 16, 48, 64);
  x = inception(g, "inception4b", x, 160, 112, 224, 24, 64, 64);
  x = inception(g, "inception4c", x, 128, 128, 256, 24, 64, 64);
  x = inception(g, "inception4d", x, 112, 144, 288, 32, 64, 64);
  x = inception(g, "inception4e", x, 256, 160, 320, 32, 128, 128);
  x = ops::maxpool(g, "maxpool4", x, square(2, 2, 0, true));
  x = inception(g, "inception5a", x, 256, 160, 320, 32, 128, 128);
  x = inception(g, "inception5b", x, 384, 192, 384, 48, 128, 128);
  x = ops::global_avgpool(g, "avgpool", x);
  x = ops::flatten(g, "flatten", x);
  ops::linear(g, "fc", x, 1000);
  return g;
}

}  // namespace

DSE_REGISTER_FACTORY(ModelZoo, "alexnet", "AlexNet (torchvision), 224x224", alexnet)
DSE_REGISTER_FACTORY(ModelZoo, "vgg16", "VGG-16 (torchvision, no batch norm), 224x224", [](const ModelParams& p) {
  return vgg("vgg16", {2, 2, 3, 3, 3}, p);
})
DSE_REGISTER_FACTORY(ModelZoo, "vgg19", "VGG-19 (torchvision, no batch norm), 224x224", [](const ModelParams& p) {
  return vgg("vgg19", {2, 2, 4, 4, 4}, p);
})
DSE_REGISTER_FACTORY(ModelZoo, "squeezenet1_1", "SqueezeNet 1.1 (torchvision), 224x224", squeezenet1_1)
DSE_REGISTER_FACTORY(ModelZoo, "googlenet", "GoogLeNet / Inception v1 with batch norm (torchvision), 224x224",
                     googlenet)

}  // namespace dse
