// Inception v3 (Szegedy et al., CVPR 2016) as torchvision builds it, without the auxiliary
// classifier that only training runs: torchvision reports 27,161,264 params including the 3,326,696
// of AuxLogits, i.e. 23,834,568 for the inference graph; 5.71 G MACs at 299x299 (torchvision docs).
// Inception v4 (Szegedy et al., AAAI 2017) as timm builds it: 42,679,816 params, 12.28 G MACs at
// 299x299 (timm model card inception_v4.tf_in1k).
#include "models/zoo/layers.h"

namespace dse {
namespace {

// conv (no bias) + batch norm + relu with a rectangular kernel and explicit padding.
TensorId conv(Graph& g, const std::string& name, TensorId x, std::int64_t out, std::int64_t kh, std::int64_t kw,
              std::int64_t stride = 1, std::int64_t ph = 0, std::int64_t pw = 0) {
  auto y = ops::conv2d(g, name, x, out, Window{kh, kw, stride, stride, ph, pw, 1, 1});
  return ops::relu(g, name + ".relu", ops::batchnorm(g, name + ".bn", y));
}

TensorId max3s2(Graph& g, const std::string& name, TensorId x) {
  return ops::maxpool(g, name, x, zoo::square(3, 2, 0));
}
TensorId avg3s1(Graph& g, const std::string& name, TensorId x) {
  return ops::avgpool(g, name, x, zoo::square(3, 1, 1));
}

// --- Inception v3 (torchvision) -----------------------------------------------------------------
TensorId v3_a(Graph& g, const std::string& n, TensorId x, std::int64_t pool_features) {
  const auto b1 = conv(g, n + ".b1x1", x, 64, 1, 1);
  const auto b5 = conv(g, n + ".b5x5_2", conv(g, n + ".b5x5_1", x, 48, 1, 1), 64, 5, 5, 1, 2, 2);
  auto b3 = conv(g, n + ".b3x3dbl_1", x, 64, 1, 1);
  b3 = conv(g, n + ".b3x3dbl_3", conv(g, n + ".b3x3dbl_2", b3, 96, 3, 3, 1, 1, 1), 96, 3, 3, 1, 1, 1);
  const auto bp = conv(g, n + ".bpool", avg3s1(g, n + ".pool", x), pool_features, 1, 1);
  return ops::concat(g, n + ".concat", {b1, b5, b3, bp}, 1);
}

TensorId v3_b(Graph& g, const std::string& n, TensorId x) {
  const auto b3 = conv(g, n + ".b3x3", x, 384, 3, 3, 2);
  auto bd = conv(g, n + ".b3x3dbl_2", conv(g, n + ".b3x3dbl_1", x, 64, 1, 1), 96, 3, 3, 1, 1, 1);
  bd = conv(g, n + ".b3x3dbl_3", bd, 96, 3, 3, 2);
  return ops::concat(g, n + ".concat", {b3, bd, max3s2(g, n + ".pool", x)}, 1);
}

TensorId v3_c(Graph& g, const std::string& n, TensorId x, std::int64_t c7) {
  const auto b1 = conv(g, n + ".b1x1", x, 192, 1, 1);
  auto b7 = conv(g, n + ".b7x7_1", x, c7, 1, 1);
  b7 = conv(g, n + ".b7x7_3", conv(g, n + ".b7x7_2", b7, c7, 1, 7, 1, 0, 3), 192, 7, 1, 1, 3, 0);
  auto bd = conv(g, n + ".b7x7dbl_1", x, c7, 1, 1);
  bd = conv(g, n + ".b7x7dbl_2", bd, c7, 7, 1, 1, 3, 0);
  bd = conv(g, n + ".b7x7dbl_3", bd, c7, 1, 7, 1, 0, 3);
  bd = conv(g, n + ".b7x7dbl_4", bd, c7, 7, 1, 1, 3, 0);
  bd = conv(g, n + ".b7x7dbl_5", bd, 192, 1, 7, 1, 0, 3);
  const auto bp = conv(g, n + ".bpool", avg3s1(g, n + ".pool", x), 192, 1, 1);
  return ops::concat(g, n + ".concat", {b1, b7, bd, bp}, 1);
}

TensorId v3_d(Graph& g, const std::string& n, TensorId x) {
  const auto b3 = conv(g, n + ".b3x3_2", conv(g, n + ".b3x3_1", x, 192, 1, 1), 320, 3, 3, 2);
  auto b7 = conv(g, n + ".b7x7x3_1", x, 192, 1, 1);
  b7 = conv(g, n + ".b7x7x3_2", b7, 192, 1, 7, 1, 0, 3);
  b7 = conv(g, n + ".b7x7x3_3", b7, 192, 7, 1, 1, 3, 0);
  b7 = conv(g, n + ".b7x7x3_4", b7, 192, 3, 3, 2);
  return ops::concat(g, n + ".concat", {b3, b7, max3s2(g, n + ".pool", x)}, 1);
}

TensorId v3_e(Graph& g, const std::string& n, TensorId x) {
  const auto b1 = conv(g, n + ".b1x1", x, 320, 1, 1);
  const auto b3 = conv(g, n + ".b3x3_1", x, 384, 1, 1);
  const auto b3a = conv(g, n + ".b3x3_2a", b3, 384, 1, 3, 1, 0, 1),
             b3b = conv(g, n + ".b3x3_2b", b3, 384, 3, 1, 1, 1, 0);
  auto bd = conv(g, n + ".b3x3dbl_2", conv(g, n + ".b3x3dbl_1", x, 448, 1, 1), 384, 3, 3, 1, 1, 1);
  const auto bda = conv(g, n + ".b3x3dbl_3a", bd, 384, 1, 3, 1, 0, 1),
             bdb = conv(g, n + ".b3x3dbl_3b", bd, 384, 3, 1, 1, 1, 0);
  const auto bp = conv(g, n + ".bpool", avg3s1(g, n + ".pool", x), 192, 1, 1);
  return ops::concat(g, n + ".concat", {b1, b3a, b3b, bda, bdb, bp}, 1);
}

Graph inception_v3(const ModelParams& p) {
  Graph g("inception_v3");
  const int r = p.resolution ? p.resolution : 299;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  x = conv(g, "Conv2d_1a_3x3", x, 32, 3, 3, 2);
  x = conv(g, "Conv2d_2a_3x3", x, 32, 3, 3);
  x = conv(g, "Conv2d_2b_3x3", x, 64, 3, 3, 1, 1, 1);
  x = max3s2(g, "maxpool1", x);
  x = conv(g, "Conv2d_3b_1x1", x, 80, 1, 1);
  x = conv(g, "Conv2d_4a_3x3", x, 192, 3, 3);
  x = max3s2(g, "maxpool2", x);
  x = v3_a(g, "Mixed_5b", x, 32);
  x = v3_a(g, "Mixed_5c", x, 64);
  x = v3_a(g, "Mixed_5d", x, 64);
  x = v3_b(g, "Mixed_6a", x);
  x = v3_c(g, "Mixed_6b", x, 128);
  x = v3_c(g, "Mixed_6c", x, 160);
  x = v3_c(g, "Mixed_6d", x, 160);
  x = v3_c(g, "Mixed_6e", x, 192);
  x = v3_d(g, "Mixed_7a", x);
  x = v3_e(g, "Mixed_7b", x);
  x = v3_e(g, "Mixed_7c", x);
  x = ops::flatten(g, "flatten", ops::global_avgpool(g, "avgpool", x));
  ops::linear(g, "fc", x, 1000);
  return g;
}

// --- Inception v4 (timm) ------------------------------------------------------------------------
TensorId v4_a(Graph& g, const std::string& n, TensorId x) {
  const auto b0 = conv(g, n + ".b0", x, 96, 1, 1);
  const auto b1 = conv(g, n + ".b1_2", conv(g, n + ".b1_1", x, 64, 1, 1), 96, 3, 3, 1, 1, 1);
  auto b2 = conv(g, n + ".b2_2", conv(g, n + ".b2_1", x, 64, 1, 1), 96, 3, 3, 1, 1, 1);
  b2 = conv(g, n + ".b2_3", b2, 96, 3, 3, 1, 1, 1);
  const auto b3 = conv(g, n + ".b3", avg3s1(g, n + ".pool", x), 96, 1, 1);
  return ops::concat(g, n + ".concat", {b0, b1, b2, b3}, 1);
}

TensorId v4_reduction_a(Graph& g, const std::string& n, TensorId x) {
  const auto b0 = conv(g, n + ".b0", x, 384, 3, 3, 2);
  auto b1 = conv(g, n + ".b1_2", conv(g, n + ".b1_1", x, 192, 1, 1), 224, 3, 3, 1, 1, 1);
  b1 = conv(g, n + ".b1_3", b1, 256, 3, 3, 2);
  return ops::concat(g, n + ".concat", {b0, b1, max3s2(g, n + ".pool", x)}, 1);
}

TensorId v4_b(Graph& g, const std::string& n, TensorId x) {
  const auto b0 = conv(g, n + ".b0", x, 384, 1, 1);
  auto b1 = conv(g, n + ".b1_1", x, 192, 1, 1);
  b1 = conv(g, n + ".b1_3", conv(g, n + ".b1_2", b1, 224, 1, 7, 1, 0, 3), 256, 7, 1, 1, 3, 0);
  auto b2 = conv(g, n + ".b2_1", x, 192, 1, 1);
  b2 = conv(g, n + ".b2_2", b2, 192, 7, 1, 1, 3, 0);
  b2 = conv(g, n + ".b2_3", b2, 224, 1, 7, 1, 0, 3);
  b2 = conv(g, n + ".b2_4", b2, 224, 7, 1, 1, 3, 0);
  b2 = conv(g, n + ".b2_5", b2, 256, 1, 7, 1, 0, 3);
  const auto b3 = conv(g, n + ".b3", avg3s1(g, n + ".pool", x), 128, 1, 1);
  return ops::concat(g, n + ".concat", {b0, b1, b2, b3}, 1);
}

TensorId v4_reduction_b(Graph& g, const std::string& n, TensorId x) {
  const auto b0 = conv(g, n + ".b0_2", conv(g, n + ".b0_1", x, 192, 1, 1), 192, 3, 3, 2);
  auto b1 = conv(g, n + ".b1_1", x, 256, 1, 1);
  b1 = conv(g, n + ".b1_2", b1, 256, 1, 7, 1, 0, 3);
  b1 = conv(g, n + ".b1_3", b1, 320, 7, 1, 1, 3, 0);
  b1 = conv(g, n + ".b1_4", b1, 320, 3, 3, 2);
  return ops::concat(g, n + ".concat", {b0, b1, max3s2(g, n + ".pool", x)}, 1);
}

TensorId v4_c(Graph& g, const std::string& n, TensorId x) {
  const auto b0 = conv(g, n + ".b0", x, 256, 1, 1);
  const auto b1 = conv(g, n + ".b1_0", x, 384, 1, 1);
  const auto b1a = conv(g, n + ".b1_1a", b1, 256, 1, 3, 1, 0, 1), b1b = conv(g, n + ".b1_1b", b1, 256, 3, 1, 1, 1, 0);
  auto b2 = conv(g, n + ".b2_0", x, 384, 1, 1);
  b2 = conv(g, n + ".b2_2", conv(g, n + ".b2_1", b2, 448, 3, 1, 1, 1, 0), 512, 1, 3, 1, 0, 1);
  const auto b2a = conv(g, n + ".b2_3a", b2, 256, 1, 3, 1, 0, 1), b2b = conv(g, n + ".b2_3b", b2, 256, 3, 1, 1, 1, 0);
  const auto b3 = conv(g, n + ".b3", avg3s1(g, n + ".pool", x), 256, 1, 1);
  return ops::concat(g, n + ".concat", {b0, b1a, b1b, b2a, b2b, b3}, 1);
}

Graph inception_v4(const ModelParams& p) {
  Graph g("inception_v4");
  const int r = p.resolution ? p.resolution : 299;
  auto x = g.add_input("input", {p.batch, 3, r, r}, p.dtype);
  x = conv(g, "stem.conv1", x, 32, 3, 3, 2);
  x = conv(g, "stem.conv2", x, 32, 3, 3);
  x = conv(g, "stem.conv3", x, 64, 3, 3, 1, 1, 1);
  x = ops::concat(g, "stem.mixed3a", {max3s2(g, "stem.pool3a", x), conv(g, "stem.conv3a", x, 96, 3, 3, 2)}, 1);
  const auto a = conv(g, "stem.4a_2", conv(g, "stem.4a_1", x, 64, 1, 1), 96, 3, 3);
  auto b = conv(g, "stem.4b_1", x, 64, 1, 1);
  b = conv(g, "stem.4b_3", conv(g, "stem.4b_2", b, 64, 1, 7, 1, 0, 3), 64, 7, 1, 1, 3, 0);
  b = conv(g, "stem.4b_4", b, 96, 3, 3);
  x = ops::concat(g, "stem.mixed4a", {a, b}, 1);
  x = ops::concat(g, "stem.mixed5a", {conv(g, "stem.conv5a", x, 192, 3, 3, 2), max3s2(g, "stem.pool5a", x)}, 1);
  for (int i = 0; i < 4; ++i) x = v4_a(g, "inception_a" + std::to_string(i), x);
  x = v4_reduction_a(g, "reduction_a", x);
  for (int i = 0; i < 7; ++i) x = v4_b(g, "inception_b" + std::to_string(i), x);
  x = v4_reduction_b(g, "reduction_b", x);
  for (int i = 0; i < 3; ++i) x = v4_c(g, "inception_c" + std::to_string(i), x);
  x = ops::flatten(g, "flatten", ops::global_avgpool(g, "avgpool", x));
  ops::linear(g, "fc", x, 1000);
  return g;
}

}  // namespace

DSE_REGISTER_FACTORY(ModelZoo, "inception_v3", "Inception v3 (torchvision, no auxiliary head), 299x299", inception_v3)
DSE_REGISTER_FACTORY(ModelZoo, "inception_v4", "Inception v4 (timm), 299x299", inception_v4)

}  // namespace dse
