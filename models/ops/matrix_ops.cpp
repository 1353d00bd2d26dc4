// Matrix-unit operators: convolution, transposed convolution, linear, matmul, fused attention.

#include <stdexcept>

#include "models/base/checked_count.h"
#include "models/ops/op_common.h"
#include "models/ops/op_library.h"

namespace dse::ops {
using namespace detail;

namespace {

void record_window(Op& op, const Window& w, std::int64_t groups) {
  op.attributes["kernel"] = std::vector<std::int64_t>{w.kernel_h, w.kernel_w};
  op.attributes["stride"] = std::vector<std::int64_t>{w.stride_h, w.stride_w};
  op.attributes["pad"] = std::vector<std::int64_t>{w.pad_h, w.pad_w};
  op.attributes["dilation"] = std::vector<std::int64_t>{w.dilation_h, w.dilation_w};
  op.attributes["groups"] = groups;
}

// Adds a matrix op's GEMMs: macs and 2 flops per MAC.
void add_gemm(Op& op, GemmView gemm) {
  op.gemms.push_back(gemm);
  checked_accumulate(op.cost.macs, gemm.macs(), "the MACs of an op");
  checked_accumulate(op.cost.flops, checked_mul(2, gemm.macs(), "the FLOPs of an op"), "the FLOPs of an op");
}

// Adds a layer's trainable weights: `inputs` x `outputs` (checked, `what` names the product) and a
// bias of `outputs` when it has one.
void add_layer_weights(Op& op, std::int64_t inputs, std::int64_t outputs, bool bias, const char* what, DType dtype) {
  const std::int64_t params =
      checked_add(checked_mul(inputs, outputs, what), bias ? outputs : 0, "the parameters of an op");
  add_weights(op, params, params, dtype);
}

}  // namespace

TensorId conv2d(Graph& graph, std::string name, TensorId input, std::int64_t out_channels, const Window& window,
                std::int64_t groups, bool bias) {
  require_rank(graph, input, 4, name);
  const Shape x = shape_of(graph, input);
  const auto n = x[0], c = x[1];
  if (groups < 1 || c % groups != 0 || out_channels % groups != 0)
    throw std::invalid_argument(name + ": channels " + std::to_string(c) + " -> " + std::to_string(out_channels) +
                                " not divisible by groups " + std::to_string(groups));
  const auto ho =
      window_output_size(x[2], window.kernel_h, window.stride_h, window.pad_h, window.dilation_h, window.rounding);
  const auto wo =
      window_output_size(x[3], window.kernel_w, window.stride_w, window.pad_w, window.dilation_w, window.rounding);
  if (ho < 1 || wo < 1) throw std::invalid_argument(name + ": window larger than padded input " + shape_string(x));

  const DType dtype = graph.tensor(input).dtype;
  Op op = start(graph, std::move(name), OpKind::conv2d, {input});
  if (window.rounding != Window::Rounding::floor)
    op.attributes["rounding"] = static_cast<std::int64_t>(window.rounding);
  record_window(op, window, groups);
  op.attributes["out_channels"] = out_channels;
  op.attributes["bias"] = std::int64_t{bias};
  const std::int64_t reduction =
      checked_product("the reduction of a convolution", c / groups, window.kernel_h, window.kernel_w);
  add_layer_weights(op, reduction, out_channels, bias, "the weights of a convolution", dtype);
  add_gemm(
      op, {groups, checked_product("the output pixels of a convolution", n, ho, wo), out_channels / groups, reduction});
  if (bias)
    checked_accumulate(op.cost.flops, checked_product("the FLOPs of a bias", n, out_channels, ho, wo),
                       "the FLOPs of an op");
  return finish(graph, std::move(op), {n, out_channels, ho, wo}, dtype);
}

TensorId conv_transpose2d(Graph& graph, std::string name, TensorId input, std::int64_t out_channels,
                          const Window& window, std::int64_t groups, bool bias, std::int64_t output_padding) {
  require_rank(graph, input, 4, name);
  const Shape x = shape_of(graph, input);
  const auto n = x[0], c = x[1];
  if (groups < 1 || c % groups != 0 || out_channels % groups != 0)
    throw std::invalid_argument(name + ": channels not divisible by groups");
  const auto out_size = [&](std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t p, std::int64_t d) {
    const char* what = "the output size of a transposed convolution";
    const std::int64_t grown = checked_add(checked_mul(in - 1, s, what), checked_mul(d, k - 1, what), what);
    return checked_add(checked_add(grown, -checked_mul(2, p, what), what), output_padding + 1, what);
  };
  const auto ho = out_size(x[2], window.kernel_h, window.stride_h, window.pad_h, window.dilation_h);
  const auto wo = out_size(x[3], window.kernel_w, window.stride_w, window.pad_w, window.dilation_w);
  if (ho < 1 || wo < 1) throw std::invalid_argument(name + ": empty output");

  const DType dtype = graph.tensor(input).dtype;
  Op op = start(graph, std::move(name), OpKind::conv_transpose2d, {input});
  record_window(op, window, groups);
  op.attributes["out_channels"] = out_channels;
  op.attributes["bias"] = std::int64_t{bias};
  op.attributes["output_padding"] = output_padding;
  const std::int64_t patch =
      checked_product("the patch of a transposed convolution", out_channels / groups, window.kernel_h, window.kernel_w);
  add_layer_weights(op, c, patch, false, "the weights of a transposed convolution", dtype);
  if (bias) add_weights(op, out_channels, out_channels, dtype);
  // Each input pixel scatters a kh x kw x (out/groups) patch: the GEMM of the input side.
  add_gemm(op,
           {groups, checked_product("the input pixels of a transposed convolution", n, x[2], x[3]), patch, c / groups});
  if (bias)
    checked_accumulate(op.cost.flops, checked_product("the FLOPs of a bias", n, out_channels, ho, wo),
                       "the FLOPs of an op");
  return finish(graph, std::move(op), {n, out_channels, ho, wo}, dtype);
}

TensorId linear(Graph& graph, std::string name, TensorId input, std::int64_t out_features, bool bias) {
  const Shape x = shape_of(graph, input);
  if (x.empty()) throw std::invalid_argument(name + ": linear of a scalar");
  const DType dtype = graph.tensor(input).dtype;
  const auto k = x.back();
  if (k < 1 || out_features < 1)
    throw std::invalid_argument(name + ": linear of " + std::to_string(k) + " input features onto " +
                                std::to_string(out_features) + " (expected at least 1 each)");
  Shape out = x;
  out.back() = out_features;
  Op op = start(graph, std::move(name), OpKind::matmul, {input});
  op.attributes["out_features"] = out_features;
  op.attributes["bias"] = std::int64_t{bias};
  add_layer_weights(op, k, out_features, bias, "the weights of a linear layer", dtype);
  add_gemm(op, {1, element_count(x) / k, out_features, k});
  if (bias) checked_accumulate(op.cost.flops, element_count(out), "the FLOPs of an op");
  return finish(graph, std::move(op), out, dtype);
}

TensorId matmul(Graph& graph, std::string name, TensorId a, TensorId b, bool transpose_b) {
  const Shape sa = shape_of(graph, a), sb = shape_of(graph, b);
  if (sa.size() < 2 || sb.size() < 2) throw std::invalid_argument(name + ": matmul needs rank >= 2 operands");
  const auto m = sa[sa.size() - 2], k = sa.back();
  const auto kb = transpose_b ? sb.back() : sb[sb.size() - 2];
  const auto n = transpose_b ? sb[sb.size() - 2] : sb.back();
  if (k != kb)
    throw std::invalid_argument(name + ": inner dimensions differ: " + shape_string(sa) + " x " + shape_string(sb) +
                                (transpose_b ? " (b transposed)" : ""));
  Shape batch = broadcast_shapes(Shape(sa.begin(), sa.end() - 2), Shape(sb.begin(), sb.end() - 2), name);
  Shape out = batch;
  out.push_back(m);
  out.push_back(n);
  const DType dtype = graph.tensor(a).dtype;
  Op op = start(graph, std::move(name), OpKind::matmul, {a, b});
  op.attributes["transpose_b"] = std::int64_t{transpose_b};
  add_gemm(op, {element_count(batch), m, n, k});
  return finish(graph, std::move(op), out, dtype);
}

TensorId attention(Graph& graph, std::string name, TensorId q, TensorId k, TensorId v, std::optional<TensorId> mask) {
  const Shape sq = shape_of(graph, q), sk = shape_of(graph, k), sv = shape_of(graph, v);
  if (sq.size() < 2 || sk.size() != sq.size() || sv.size() != sq.size())
    throw std::invalid_argument(name + ": attention needs q, k, v of equal rank >= 2");
  const auto lq = sq[sq.size() - 2], d = sq.back(), lk = sk[sk.size() - 2], dv = sv.back();
  if (sk.back() != d || sv[sv.size() - 2] != lk)
    throw std::invalid_argument(name + ": q " + shape_string(sq) + ", k " + shape_string(sk) + ", v " +
                                shape_string(sv) + " do not fit");
  const Shape batch(sq.begin(), sq.end() - 2);
  const std::int64_t heads = element_count(batch);
  Shape out = batch;
  out.push_back(lq);
  out.push_back(dv);
  const DType dtype = graph.tensor(q).dtype;
  if (mask) broadcast_shapes(shape_of(graph, *mask), Shape{heads, lq, lk}, name);
  std::vector<TensorId> inputs{q, k, v};
  if (mask) inputs.push_back(*mask);
  Op op = start(graph, std::move(name), OpKind::attention, inputs);
  if (mask)
    checked_accumulate(op.cost.flops, checked_product("the FLOPs of a mask", heads, lq, lk), "the FLOPs of an op");
  add_gemm(op, {heads, lq, lk, d});   // S = Q K^T
  add_gemm(op, {heads, lq, dv, lk});  // O = P V
  // Scaling and softmax on the scores, never written to memory.
  checked_accumulate(
      op.cost.flops,
      checked_product("the FLOPs of a softmax", 1 + op_flops_per_element(OpKind::softmax), heads, lq, lk),
      "the FLOPs of an op");
  return finish(graph, std::move(op), out, dtype);
}

TensorId fused(Graph& graph, std::string name, const std::vector<TensorId>& inputs, Shape shape, DType dtype,
               const FusedWork& work) {
  Op op = start(graph, std::move(name), OpKind::fused, inputs);
  op.dtype = dtype;
  checked_accumulate(op.cost.macs, work.macs, "the MACs of an op");
  checked_accumulate(op.cost.flops, work.flops, "the FLOPs of an op");
  checked_accumulate(op.cost.params, work.params, "the parameters of an op");
  checked_accumulate(op.cost.param_bytes, work.param_bytes, "the parameter bytes of an op");
  checked_accumulate(op.cost.bytes_read, work.param_bytes, "the bytes an op reads");
  checked_accumulate(op.cost.bytes_written, work.side_bytes_written, "the bytes an op writes");
  op.gemms = work.gemms;
  std::vector<std::int64_t> gemms;
  for (const auto& g : work.gemms) gemms.insert(gemms.end(), {g.batch, g.m, g.n, g.k});
  op.attributes = {{"members", work.members},
                   {"shape", std::vector<std::int64_t>(shape.begin(), shape.end())},
                   {"dtype", std::string(dtype_name(dtype))},
                   {"macs", work.macs},
                   {"flops", work.flops},
                   {"params", work.params},
                   {"param_bytes", work.param_bytes},
                   {"gemms", gemms},
                   {"side_bytes_written", work.side_bytes_written}};
  return finish(graph, std::move(op), std::move(shape), dtype);
}

}  // namespace dse::ops
