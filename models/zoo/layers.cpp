#include "models/zoo/layers.h"

#include <cmath>

namespace dse::zoo {

Window square(std::int64_t kernel, std::int64_t stride, std::int64_t pad, bool ceil_mode) {
  Window w{kernel, kernel, stride, stride, pad, pad, 1, 1};
  w.rounding = ceil_mode ? Window::Rounding::ceil : Window::Rounding::floor;
  return w;
}

TensorId conv_bn_act(Graph& g, const std::string& name, TensorId x, std::int64_t out_channels, std::int64_t kernel,
                     std::int64_t stride, std::optional<OpKind> activation, std::int64_t groups) {
  auto y = ops::conv2d(g, name, x, out_channels, square(kernel, stride, (kernel - 1) / 2), groups);
  y = ops::batchnorm(g, name + ".bn", y);
  return activation ? ops::unary(g, name + "." + std::string(op_kind_name(*activation)), *activation, y) : y;
}

TensorId squeeze_excite(Graph& g, const std::string& name, TensorId x, std::int64_t squeeze_channels, OpKind activation,
                        OpKind gate) {
  const auto channels = g.tensor(x).shape[1];
  auto s = ops::global_avgpool(g, name + ".pool", x);
  s = ops::conv2d(g, name + ".fc1", s, squeeze_channels, square(1, 1, 0), 1, true);
  s = ops::unary(g, name + ".act", activation, s);
  s = ops::conv2d(g, name + ".fc2", s, channels, square(1, 1, 0), 1, true);
  s = ops::unary(g, name + ".gate", gate, s);
  return ops::mul(g, name + ".scale", x, s);
}

std::int64_t make_divisible(double value, std::int64_t divisor) {
  auto rounded = std::max<std::int64_t>(divisor, static_cast<std::int64_t>(value + divisor / 2.0) / divisor * divisor);
  if (static_cast<double>(rounded) < 0.9 * value) rounded += divisor;  // never round down by more than 10 %
  return rounded;
}

TensorId split_heads(Graph& g, const std::string& name, TensorId x, AttentionShape shape) {
  const Shape s = g.tensor(x).shape;  // a copy: adding ops reallocates the tensor table
  auto y = ops::reshape(g, name + ".view", x, {s[0], s[1], shape.heads, shape.head_dim});
  return ops::transpose(g, name + ".heads", y, {0, 2, 1, 3});
}

TensorId rms_norm(Graph& g, const std::string& name, TensorId x) {
  const Shape s = g.tensor(x).shape;  // a copy: adding ops reallocates the tensor table
  const DType dtype = g.tensor(x).dtype;
  const auto two = g.add_constant(name + ".two", {1}, dtype, false);
  const auto variance = ops::reduce(g, name + ".mean", OpKind::reduce_mean,
                                    ops::binary(g, name + ".square", OpKind::pow, x, two), {-1}, true);
  const auto eps = g.add_constant(name + ".eps", {1}, dtype, false);
  const auto scale = ops::elementwise(g, name + ".rsqrt", "rsqrt", {ops::add(g, name + ".add_eps", variance, eps)}, 2);
  const auto normed = ops::mul(g, name + ".normalise", x, scale);
  return ops::mul(g, name + ".weight", g.add_constant(name + ".weight", {s.back()}, dtype), normed);
}

TensorId dropped(Graph& g, const std::string& name, TensorId x, bool active) {
  return active ? ops::dropout(g, name, x) : x;
}

TensorId self_attention(Graph& g, const std::string& name, TensorId x, AttentionShape shape,
                        const AttentionInputs& inputs) {
  const Shape s = g.tensor(x).shape;  // a copy: adding ops reallocates the tensor table
  const auto d = shape.heads * shape.head_dim;
  const auto qkv = ops::linear(g, name + ".qkv", x, 3 * d);
  auto q = split_heads(g, name + ".q", ops::slice(g, name + ".q", qkv, -1, 0, d), shape);
  auto k = split_heads(g, name + ".k", ops::slice(g, name + ".k", qkv, -1, d, 2 * d), shape);
  auto v = split_heads(g, name + ".v", ops::slice(g, name + ".v", qkv, -1, 2 * d, 3 * d), shape);
  if (inputs.kv_cache) {
    k = ops::kv_cache_append(g, name + ".k_cache", inputs.kv_cache->first, k);
    v = ops::kv_cache_append(g, name + ".v_cache", inputs.kv_cache->second, v);
  }
  auto scores = ops::matmul(g, name + ".scores", q, k, true);
  const auto scale = g.add_constant(name + ".scale", {1}, g.tensor(x).dtype, false);  // 1 / sqrt(head_dim)
  scores = ops::mul(g, name + ".scaled", scores, scale);
  if (inputs.mask) scores = ops::add(g, name + ".masked", scores, *inputs.mask);
  const auto probs = dropped(g, name + ".probs_dropout", ops::softmax(g, name + ".softmax", scores, -1),
                             inputs.dropouts.attention_probs);
  auto out = ops::matmul(g, name + ".context", probs, v);
  out = ops::transpose(g, name + ".merge", out, {0, 2, 1, 3});
  out = ops::reshape(g, name + ".merge_view", out, {s[0], s[1], d});
  return ops::linear(g, name + ".out", out, d);
}

TensorId gelu_new(Graph& g, const std::string& name, TensorId x) {
  const DType dtype = g.tensor(x).dtype;
  const auto scalar = [&](const std::string& what) { return g.add_constant(name + "." + what, {1}, dtype, false); };
  const auto half_x = ops::mul(g, name + ".half", x, scalar("one_half"));
  const auto cube = ops::binary(g, name + ".cube", OpKind::pow, x, scalar("three"));
  const auto inner = ops::add(g, name + ".inner", x, ops::mul(g, name + ".cube_scaled", cube, scalar("c0_044715")));
  const auto tanh =
      ops::unary(g, name + ".tanh", OpKind::tanh, ops::mul(g, name + ".scaled", inner, scalar("sqrt_2_pi")));
  return ops::mul(g, name + ".gate", half_x, ops::add(g, name + ".one_plus", tanh, scalar("one")));
}

TensorId mlp(Graph& g, const std::string& name, TensorId x, std::int64_t hidden, Activation activation) {
  const auto d = g.tensor(x).shape.back();
  auto y = ops::linear(g, name + ".fc1", x, hidden);
  y = activation.gelu_new ? gelu_new(g, name + ".act", y) : ops::unary(g, name + ".act", activation.kind, y);
  return ops::linear(g, name + ".fc2", y, d);
}

TensorId pre_norm_block(Graph& g, const std::string& name, TensorId x, AttentionShape shape, std::int64_t hidden,
                        Activation activation, const AttentionInputs& inputs) {
  const bool drop = inputs.dropouts.sublayer_output;
  auto y = self_attention(g, name + ".attn", ops::layernorm(g, name + ".ln1", x), shape, inputs);
  x = ops::add(g, name + ".residual1", x, dropped(g, name + ".attn_dropout", y, drop));
  y = mlp(g, name + ".mlp", ops::layernorm(g, name + ".ln2", x), hidden, activation);
  return ops::add(g, name + ".residual2", x, dropped(g, name + ".mlp_dropout", y, drop));
}

}  // namespace dse::zoo
