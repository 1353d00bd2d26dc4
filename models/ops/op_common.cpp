#include "models/ops/op_common.h"

#include <stdexcept>

#include "models/base/checked_count.h"
#include "models/ops/op_library.h"

namespace dse::ops {

std::int64_t normalize_axis(std::int64_t axis, std::size_t rank, const std::string& op_name) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r)
    throw std::invalid_argument(op_name + ": axis " + std::to_string(axis) + " out of range for rank " +
                                std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

std::int64_t window_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
                                std::int64_t dilation, Window::Rounding rounding) {
  const char* what = "the window of a convolution or pooling";
  const std::int64_t span = checked_add(checked_mul(dilation, kernel - 1, what), 1, what);
  const std::int64_t padded = checked_add(in, checked_mul(2, pad, what), what);
  if (stride < 1 || padded < span) return 0;
  if (rounding == Window::Rounding::floor) return (padded - span) / stride + 1;
  std::int64_t out = checked_add(padded - span, stride - 1, what) / stride + 1;
  // PyTorch: the last window must start inside the input or the left padding.
  if (rounding == Window::Rounding::ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

Shape broadcast_shapes(const Shape& a, const Shape& b, const std::string& op_name) {
  const std::size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      throw std::invalid_argument(op_name + ": cannot broadcast " + shape_string(a) + " with " + shape_string(b));
    out[i] = x == 1 ? y : x;
  }
  return out;
}

namespace detail {

const Shape& shape_of(const Graph& graph, TensorId id) { return graph.tensor(id).shape; }

void require_rank(const Graph& graph, TensorId id, std::size_t rank, const std::string& op_name) {
  if (graph.tensor(id).shape.size() != rank)
    throw std::invalid_argument(op_name + ": expects a rank-" + std::to_string(rank) + " input, got " +
                                shape_string(graph.tensor(id).shape));
}

Op start(const Graph& graph, std::string name, OpKind kind, std::vector<TensorId> inputs) {
  Op op;
  op.name = std::move(name);
  op.kind = kind;
  op.dtype = graph.tensor(inputs.at(0)).dtype;
  for (const auto input : inputs) {
    const Tensor& tensor = graph.tensor(input);
    checked_accumulate(op.cost.bytes_read, tensor.bytes(), "the bytes an op reads");
    if (tensor.constant) checked_accumulate(op.cost.param_bytes, tensor.bytes(), "the parameter bytes of an op");
    if (tensor.parameter) checked_accumulate(op.cost.params, tensor.elements(), "the parameters of an op");
  }
  op.inputs = std::move(inputs);
  return op;
}

void add_weights(Op& op, std::int64_t elements, std::int64_t trainable, DType dtype) {
  const std::int64_t bytes = checked_mul(elements, dtype_bytes(dtype), "the bytes of an op's weights");
  checked_accumulate(op.cost.params, trainable, "the parameters of an op");
  checked_accumulate(op.cost.param_bytes, bytes, "the parameter bytes of an op");
  checked_accumulate(op.cost.bytes_read, bytes, "the bytes an op reads");
}

TensorId finish(Graph& graph, Op op, Shape shape, DType dtype) {
  // Same-rank outputs keep the first input's layout (an NHWC conv writes NHWC).
  const Tensor& first = graph.tensor(op.inputs.at(0));
  const Layout layout = first.shape.size() == shape.size() ? first.layout : default_layout(shape.size());
  Tensor output{op.name + ":out", std::move(shape), dtype, false, false, layout};
  op.cost.bytes_written = checked_add(op.cost.bytes_written, output.bytes(), "the bytes an op writes");
  op.cost.flops =
      checked_add(op.cost.flops, checked_mul(op_flops_per_element(op.kind), output.elements(), "the FLOPs of an op"),
                  "the FLOPs of an op");
  return graph.add_op(std::move(op), std::move(output));
}

}  // namespace detail
}  // namespace dse::ops
