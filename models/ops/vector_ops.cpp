// Vector-unit operators: normalisation, softmax, elementwise arithmetic, pooling, reductions.

#include <algorithm>
#include <stdexcept>

#include "models/base/checked_count.h"
#include "models/ops/op_common.h"
#include "models/ops/op_library.h"

namespace dse::ops {
using namespace detail;

TensorId batchnorm(Graph& graph, std::string name, TensorId input) {
  const Shape shape = shape_of(graph, input);
  if (shape.size() < 2) throw std::invalid_argument(name + ": batchnorm expects N x C x ...");
  const DType dtype = graph.tensor(input).dtype;
  Op op = start(graph, std::move(name), OpKind::batchnorm, {input});
  add_weights(op, 4 * shape[1], 2 * shape[1], dtype);  // reads gamma, beta, mean, var; learns gamma, beta
  return finish(graph, std::move(op), shape, dtype);
}

TensorId layernorm(Graph& graph, std::string name, TensorId input) {
  const Shape shape = shape_of(graph, input);
  if (shape.empty()) throw std::invalid_argument(name + ": layernorm of a scalar");
  const DType dtype = graph.tensor(input).dtype;
  Op op = start(graph, std::move(name), OpKind::layernorm, {input});
  add_weights(op, 2 * shape.back(), 2 * shape.back(), dtype);
  return finish(graph, std::move(op), shape, dtype);
}

TensorId groupnorm(Graph& graph, std::string name, TensorId input, std::int64_t groups) {
  const Shape shape = shape_of(graph, input);
  if (shape.size() < 2 || groups < 1 || shape[1] % groups != 0)
    throw std::invalid_argument(name + ": channels not divisible by groups");
  const DType dtype = graph.tensor(input).dtype;
  Op op = start(graph, std::move(name), OpKind::groupnorm, {input});
  op.attributes["groups"] = groups;
  add_weights(op, 2 * shape[1], 2 * shape[1], dtype);
  return finish(graph, std::move(op), shape, dtype);
}

TensorId softmax(Graph& graph, std::string name, TensorId input, std::int64_t axis) {
  const Shape shape = shape_of(graph, input);
  const std::int64_t normalized = normalize_axis(axis, shape.size(), name);
  Op op = start(graph, std::move(name), OpKind::softmax, {input});
  op.attributes["axis"] = normalized;
  return finish(graph, std::move(op), shape, graph.tensor(input).dtype);
}

TensorId unary(Graph& graph, std::string name, OpKind kind, TensorId input) {
  if (op_category(kind) != OpCategory::vector || kind == OpKind::cast || op_flops_per_element(kind) == 0)
    throw std::invalid_argument(name + ": " + std::string(op_kind_name(kind)) + " is not a unary elementwise op");
  const Shape shape = shape_of(graph, input);
  Op op = start(graph, std::move(name), kind, {input});
  return finish(graph, std::move(op), shape, graph.tensor(input).dtype);
}

TensorId cast(Graph& graph, std::string name, TensorId input, DType to) {
  const Shape shape = shape_of(graph, input);
  Op op = start(graph, std::move(name), OpKind::cast, {input});
  op.attributes["to"] = std::string(dtype_name(to));
  return finish(graph, std::move(op), shape, to);
}

TensorId binary(Graph& graph, std::string name, OpKind kind, TensorId lhs, TensorId rhs) {
  static constexpr OpKind kBinary[] = {OpKind::add, OpKind::sub,     OpKind::mul,    OpKind::div,
                                       OpKind::pow, OpKind::maximum, OpKind::minimum};
  if (std::find(std::begin(kBinary), std::end(kBinary), kind) == std::end(kBinary))
    throw std::invalid_argument(name + ": " + std::string(op_kind_name(kind)) + " is not a binary elementwise op");
  const Shape shape = broadcast_shapes(shape_of(graph, lhs), shape_of(graph, rhs), name);
  // The result takes the type of the non-constant operand (a scalar constant does not promote).
  const DType dtype = graph.tensor(lhs).constant ? graph.tensor(rhs).dtype : graph.tensor(lhs).dtype;
  Op op = start(graph, std::move(name), kind, {lhs, rhs});
  op.dtype = dtype;
  return finish(graph, std::move(op), shape, dtype);
}

namespace {

// An elementwise op that writes, besides its result, `side_bytes_per_element` per output element.
TensorId elementwise_writing(Graph& graph, std::string name, const std::string& function,
                             const std::vector<TensorId>& inputs, std::int64_t flops_per_element,
                             std::optional<DType> output_dtype, std::int64_t side_bytes_per_element) {
  if (inputs.empty()) throw std::invalid_argument(name + ": elementwise op without inputs");
  Shape shape = shape_of(graph, inputs[0]);
  for (std::size_t i = 1; i < inputs.size(); ++i) shape = broadcast_shapes(shape, shape_of(graph, inputs[i]), name);
  const DType dtype = output_dtype.value_or(graph.tensor(inputs[0]).dtype);
  const std::int64_t elements = element_count(shape);
  Op op = start(graph, std::move(name), OpKind::elementwise, inputs);
  op.attributes["function"] = function;
  op.attributes["flops_per_element"] = flops_per_element;
  if (output_dtype) op.attributes["to"] = std::string(dtype_name(*output_dtype));
  op.cost.flops = checked_mul(flops_per_element, elements, "the FLOPs of an op");
  op.cost.bytes_written = checked_mul(side_bytes_per_element, elements, "the bytes an op writes");
  return finish(graph, std::move(op), shape, dtype);
}

}  // namespace

TensorId elementwise(Graph& graph, std::string name, const std::string& function, const std::vector<TensorId>& inputs,
                     std::int64_t flops_per_element, std::optional<DType> output_dtype) {
  return elementwise_writing(graph, std::move(name), function, inputs, flops_per_element, output_dtype, 0);
}

TensorId dropout(Graph& graph, std::string name, TensorId input) {
  // Draw, compare, scale; the keep mask is a bool per element.
  return elementwise_writing(graph, std::move(name), "dropout", {input}, 3, std::nullopt, 1);
}

TensorId where(Graph& graph, std::string name, TensorId condition, TensorId x, TensorId y) {
  const Shape shape = broadcast_shapes(broadcast_shapes(shape_of(graph, condition), shape_of(graph, x), name),
                                       shape_of(graph, y), name);
  const DType dtype = graph.tensor(x).dtype;
  Op op = start(graph, std::move(name), OpKind::where, {condition, x, y});
  op.dtype = dtype;
  return finish(graph, std::move(op), shape, dtype);
}

namespace {

TensorId pool(Graph& graph, std::string name, OpKind kind, TensorId input, const Window& window) {
  require_rank(graph, input, 4, name);
  const Shape x = shape_of(graph, input);
  const auto ho =
      window_output_size(x[2], window.kernel_h, window.stride_h, window.pad_h, window.dilation_h, window.rounding);
  const auto wo =
      window_output_size(x[3], window.kernel_w, window.stride_w, window.pad_w, window.dilation_w, window.rounding);
  if (ho < 1 || wo < 1) throw std::invalid_argument(name + ": window larger than padded input " + shape_string(x));
  Op op = start(graph, std::move(name), kind, {input});
  op.attributes["rounding"] = static_cast<std::int64_t>(window.rounding);
  op.attributes["kernel"] = std::vector<std::int64_t>{window.kernel_h, window.kernel_w};
  op.attributes["stride"] = std::vector<std::int64_t>{window.stride_h, window.stride_w};
  op.attributes["pad"] = std::vector<std::int64_t>{window.pad_h, window.pad_w};
  // One comparison (max) or addition (avg) per window element.
  op.cost.flops = checked_product("the FLOPs of a pooling", x[0], x[1], ho, wo, window.kernel_h, window.kernel_w);
  return finish(graph, std::move(op), {x[0], x[1], ho, wo}, graph.tensor(input).dtype);
}

TensorId global_pool(Graph& graph, std::string name, OpKind kind, TensorId input) {
  const Shape x = shape_of(graph, input);
  if (x.size() < 3) throw std::invalid_argument(name + ": expects N x C x spatial...");
  Op op = start(graph, std::move(name), kind, {input});
  op.cost.flops = element_count(x);
  Shape out = x;
  std::fill(out.begin() + 2, out.end(), 1);
  return finish(graph, std::move(op), out, graph.tensor(input).dtype);
}

}  // namespace

TensorId maxpool(Graph& graph, std::string name, TensorId input, const Window& window) {
  return pool(graph, std::move(name), OpKind::maxpool, input, window);
}
TensorId avgpool(Graph& graph, std::string name, TensorId input, const Window& window) {
  return pool(graph, std::move(name), OpKind::avgpool, input, window);
}
TensorId global_avgpool(Graph& graph, std::string name, TensorId input) {
  return global_pool(graph, std::move(name), OpKind::global_avgpool, input);
}
TensorId global_maxpool(Graph& graph, std::string name, TensorId input) {
  return global_pool(graph, std::move(name), OpKind::global_maxpool, input);
}

TensorId reduce(Graph& graph, std::string name, OpKind kind, TensorId input, std::vector<std::int64_t> axes,
                bool keep_dims) {
  if (kind != OpKind::reduce_mean && kind != OpKind::reduce_sum && kind != OpKind::reduce_max)
    throw std::invalid_argument(name + ": not a reduction");
  const Shape x = shape_of(graph, input);
  std::vector<bool> reduced(x.size(), axes.empty());  // no axes: reduce everything (ONNX default)
  for (auto& axis : axes) {
    axis = normalize_axis(axis, x.size(), name);
    reduced[static_cast<std::size_t>(axis)] = true;
  }
  Shape out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!reduced[i])
      out.push_back(x[i]);
    else if (keep_dims)
      out.push_back(1);
  }
  Op op = start(graph, std::move(name), kind, {input});
  op.attributes["axes"] = axes;
  op.attributes["keep_dims"] = std::int64_t{keep_dims};
  op.cost.flops = element_count(x);
  return finish(graph, std::move(op), out, graph.tensor(input).dtype);
}

}  // namespace dse::ops
