// Vector-unit operators: normalisation, activations, elementwise arithmetic, pooling, views.
#include <stdexcept>

#include "models/ops/op_library.h"

namespace dse::ops {
namespace {

// An op reading `inputs`, writing a tensor of `out_shape`, doing `flops_per_output` per element.
TensorId elementwise_like(Graph& graph, std::string name, OpKind kind, std::vector<TensorId> inputs,
                          Shape out_shape, std::int64_t flops_per_output, std::int64_t constant_elements = 0,
                          std::int64_t params = 0) {
  const DType dtype = graph.tensor(inputs.front()).dtype;
  Tensor y{name + ":out", std::move(out_shape), dtype};
  Op op{std::move(name), kind, inputs, 0, dtype, {}};
  for (const auto input : inputs) op.cost.bytes_read += graph.tensor(input).bytes();
  op.cost.param_bytes = constant_elements * dtype_bytes(dtype);
  op.cost.params = params;
  op.cost.bytes_read += op.cost.param_bytes;
  op.cost.bytes_written = y.bytes();
  op.cost.flops = flops_per_output * y.elements();
  return graph.add_op(std::move(op), std::move(y));
}

const Shape& nchw_shape(const Graph& graph, TensorId input, const std::string& name) {
  const Shape& shape = graph.tensor(input).shape;
  if (shape.size() != 4) throw std::invalid_argument(name + ": expects an NCHW input");
  return shape;
}

TensorId pool(Graph& graph, std::string name, OpKind kind, TensorId input, const Window& window) {
  const Shape& x = nchw_shape(graph, input, name);
  const auto ho = window_output_size(x[2], window.kernel_h, window.stride_h, window.pad_h, window.dilation_h);
  const auto wo = window_output_size(x[3], window.kernel_w, window.stride_w, window.pad_w, window.dilation_w);
  if (ho < 1 || wo < 1) throw std::invalid_argument(name + ": window larger than padded input");
  // One comparison (max) or addition (avg) per window element.
  return elementwise_like(graph, std::move(name), kind, {input}, {x[0], x[1], ho, wo},
                          window.kernel_h * window.kernel_w);
}

}  // namespace

TensorId batchnorm(Graph& graph, std::string name, TensorId input) {
  const Shape shape = nchw_shape(graph, input, name);
  // Inference: y = x * scale + shift per channel (2 flops per element); reads gamma, beta, mean, var;
  // gamma and beta are the trainable parameters.
  return elementwise_like(graph, std::move(name), OpKind::batchnorm, {input}, shape, 2, 4 * shape[1],
                          2 * shape[1]);
}

TensorId relu(Graph& graph, std::string name, TensorId input) {
  const Shape shape = graph.tensor(input).shape;
  return elementwise_like(graph, std::move(name), OpKind::relu, {input}, shape, 1);
}

TensorId add(Graph& graph, std::string name, TensorId lhs, TensorId rhs) {
  const Shape shape = graph.tensor(lhs).shape;
  if (shape != graph.tensor(rhs).shape)
    throw std::invalid_argument(name + ": add of " + shape_string(shape) + " and " +
                                shape_string(graph.tensor(rhs).shape));
  return elementwise_like(graph, std::move(name), OpKind::add, {lhs, rhs}, shape, 1);
}

TensorId maxpool(Graph& graph, std::string name, TensorId input, const Window& window) {
  return pool(graph, std::move(name), OpKind::maxpool, input, window);
}

TensorId avgpool(Graph& graph, std::string name, TensorId input, const Window& window) {
  return pool(graph, std::move(name), OpKind::avgpool, input, window);
}

TensorId global_avgpool(Graph& graph, std::string name, TensorId input) {
  const Shape x = nchw_shape(graph, input, name);
  return elementwise_like(graph, std::move(name), OpKind::global_avgpool, {input}, {x[0], x[1], 1, 1},
                          x[2] * x[3]);
}

TensorId flatten(Graph& graph, std::string name, TensorId input) {
  const Tensor& x = graph.tensor(input);
  if (x.shape.empty()) throw std::invalid_argument(name + ": flatten of a scalar");
  const Shape out{x.shape[0], x.elements() / x.shape[0]};
  Tensor y{name + ":out", out, x.dtype};
  // A view: nothing is read or written.
  Op op{std::move(name), OpKind::flatten, {input}, 0, x.dtype, {}};
  return graph.add_op(std::move(op), std::move(y));
}

}  // namespace dse::ops
