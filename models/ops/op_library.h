// Operator constructors: each infers its output shape, computes its cost (conventions in
// models/op.h), records the attributes needed to rebuild it, and appends itself to a graph.
// Shape mismatches throw std::invalid_argument naming the op; importers turn that into a user
// error with their file and node. Negative axes count from the end, as in numpy and ONNX.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/graph.h"

namespace dse::ops {

// --- matrix ops -----------------------------------------------------------------------------------
// NCHW convolution; weights [out_channels, in_channels/groups, kh, kw].
TensorId conv2d(Graph& graph, std::string name, TensorId input, std::int64_t out_channels, const Window& window,
                std::int64_t groups = 1, bool bias = false);
// NCHW transposed convolution; out = (in - 1) * stride - 2 pad + dilation (k - 1) + output_padding + 1.
TensorId conv_transpose2d(Graph& graph, std::string name, TensorId input, std::int64_t out_channels,
                          const Window& window, std::int64_t groups = 1, bool bias = false,
                          std::int64_t output_padding = 0);
// Linear layer on the last dimension: [.., K] -> [.., N] with constant weights [K, N] (+ bias [N]).
TensorId linear(Graph& graph, std::string name, TensorId input, std::int64_t out_features, bool bias = true);
// Matrix product of two tensors [.., M, K] x [.., K, N] (or [.., N, K] when transpose_b) with numpy
// broadcasting of the leading dimensions. A constant operand counts as parameters.
TensorId matmul(Graph& graph, std::string name, TensorId a, TensorId b, bool transpose_b = false);
// Fused scaled-dot-product attention softmax(Q K^T / sqrt(d)) V, as flash attention runs it:
// q [.., Lq, d], k [.., Lk, d], v [.., Lk, dv] -> [.., Lq, dv]; reads Q, K, V once, writes O once.
// An optional additive mask (broadcast to the scores) is read once and adds a flop per score.
TensorId attention(Graph& graph, std::string name, TensorId q, TensorId k, TensorId v,
                   std::optional<TensorId> mask = std::nullopt);

// Several ops run as one kernel: reads `inputs` once, writes one `shape` output, and does the
// members' work (their MACs, flops, GEMMs and owned weights), recorded as attributes so the op
// can be rebuilt from them.
struct FusedWork {
  std::string members;  // "conv2d+batchnorm+relu"
  std::int64_t macs = 0, flops = 0, params = 0, param_bytes = 0;
  std::vector<GemmView> gemms;
  std::int64_t side_bytes_written = 0;  // what members write besides their results (dropout's masks)
};
TensorId fused(Graph& graph, std::string name, const std::vector<TensorId>& inputs, Shape shape, DType dtype,
               const FusedWork& work);

// --- normalisation ----------------------------------------------------------------------------------
TensorId batchnorm(Graph& graph, std::string name, TensorId input);  // NC..., per channel
// Over the last dimension, with learnt scale and shift (2 x D parameters).
TensorId layernorm(Graph& graph, std::string name, TensorId input);
TensorId groupnorm(Graph& graph, std::string name, TensorId input, std::int64_t groups);
TensorId softmax(Graph& graph, std::string name, TensorId input, std::int64_t axis = -1);

// --- elementwise -------------------------------------------------------------------------------------
// Any unary vector kind: relu, leaky_relu, clip (relu6), gelu, silu, hardswish, hardsigmoid, sigmoid, tanh, exp,
// sqrt, erf, neg, reciprocal; cast changes the dtype to `to`.
TensorId unary(Graph& graph, std::string name, OpKind kind, TensorId input);
TensorId cast(Graph& graph, std::string name, TensorId input, DType to);
// add, sub, mul, div, pow, maximum, minimum with numpy broadcasting.
TensorId binary(Graph& graph, std::string name, OpKind kind, TensorId lhs, TensorId rhs);
// Any other elementwise function of one or more inputs (numpy broadcasting): `function` names it
// ("abs", "equal", ...), `flops_per_element` is its arithmetic per output element.
TensorId elementwise(Graph& graph, std::string name, const std::string& function, const std::vector<TensorId>& inputs,
                     std::int64_t flops_per_element, std::optional<DType> output_dtype = std::nullopt);
// Dropout as training runs it, PyTorch's native_dropout: one kernel that draws a Philox uniform per
// element, keeps it below 1 - p and scales what it keeps by 1 / (1 - p) (3 flops per element), and
// writes its keep mask for the backward pass besides the result, one byte (bool) per element
// (aten/src/ATen/native/cuda/Dropout.cu, fused_dropout_kernel_vec). An elementwise op, function
// "dropout"; inference runs none, and neither does a rate of 0.
TensorId dropout(Graph& graph, std::string name, TensorId input);
// where(condition, x, y) with numpy broadcasting of all three.
TensorId where(Graph& graph, std::string name, TensorId condition, TensorId x, TensorId y);
inline TensorId relu(Graph& g, std::string name, TensorId x) { return unary(g, std::move(name), OpKind::relu, x); }
inline TensorId add(Graph& g, std::string name, TensorId a, TensorId b) {
  return binary(g, std::move(name), OpKind::add, a, b);
}
inline TensorId mul(Graph& g, std::string name, TensorId a, TensorId b) {
  return binary(g, std::move(name), OpKind::mul, a, b);
}
// numpy broadcast of two shapes; std::invalid_argument if incompatible.
Shape broadcast_shapes(const Shape& a, const Shape& b, const std::string& op_name);

// --- pooling and reductions ----------------------------------------------------------------------------
TensorId maxpool(Graph& graph, std::string name, TensorId input, const Window& window);
TensorId avgpool(Graph& graph, std::string name, TensorId input, const Window& window);
TensorId global_avgpool(Graph& graph, std::string name, TensorId input);  // [N, C, H, W] -> [N, C, 1, 1]
TensorId global_maxpool(Graph& graph, std::string name, TensorId input);
// reduce_mean, reduce_sum, reduce_max over `axes`.
TensorId reduce(Graph& graph, std::string name, OpKind kind, TensorId input, std::vector<std::int64_t> axes,
                bool keep_dims);

// --- data movement and views -------------------------------------------------------------------------
TensorId concat(Graph& graph, std::string name, const std::vector<TensorId>& inputs, std::int64_t axis);
// Elements [start, end) with `step` along `axis` (end is clamped to the dimension).
TensorId slice(Graph& graph, std::string name, TensorId input, std::int64_t axis, std::int64_t start, std::int64_t end,
               std::int64_t step = 1);
TensorId transpose(Graph& graph, std::string name, TensorId input, const std::vector<std::int64_t>& permutation);
// `pads`: [begin_0, begin_1, ..., end_0, end_1, ...] as in ONNX.
TensorId pad(Graph& graph, std::string name, TensorId input, const std::vector<std::int64_t>& pads);
// Rows of `data` picked by integer `indices` along `axis`; reads only the rows it picks.
TensorId gather(Graph& graph, std::string name, TensorId data, TensorId indices, std::int64_t axis = 0);
// Broadcasts `input` to `shape` (numpy rules), writing the copies (ONNX Expand).
TensorId expand(Graph& graph, std::string name, TensorId input, Shape shape);
// An embedding table [vocab, dim] of `dtype` looked up by integer `indices`.
TensorId embedding(Graph& graph, std::string name, TensorId indices, std::int64_t vocab, std::int64_t dim, DType dtype);
// NCHW resize to out_h x out_w; mode "nearest" (a copy) or "linear" (7 flops per output).
TensorId resize(Graph& graph, std::string name, TensorId input, std::int64_t out_h, std::int64_t out_w,
                const std::string& mode);
// Appends new keys or values [.., new, d] to a cache [.., past, d] along `axis` in place: moves only
// the new part; the result is the full [.., past + new, d] tensor.
TensorId kv_cache_append(Graph& graph, std::string name, TensorId cache, TensorId update, std::int64_t axis = -2);
// New shape with at most one -1 (inferred); 0 is not special.
TensorId reshape(Graph& graph, std::string name, TensorId input, Shape shape);
// [d0, ..., dn] -> [d0 * ... * d(axis-1), d(axis) * ... * dn]
TensorId flatten(Graph& graph, std::string name, TensorId input, std::int64_t axis = 1);

// Output length of a sliding window: floor((in + 2 pad - dilation (kernel - 1) - 1) / stride) + 1;
// see Window::Rounding for the ceil variants.
std::int64_t window_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
                                std::int64_t dilation, Window::Rounding rounding = Window::Rounding::floor);
// `axis` in [-rank, rank) as a non-negative index; std::invalid_argument otherwise.
std::int64_t normalize_axis(std::int64_t axis, std::size_t rank, const std::string& op_name);

}  // namespace dse::ops
