// Matrix-unit operators: convolution and linear (GEMM).
#include <stdexcept>

#include "models/ops/op_library.h"

namespace dse::ops {

std::int64_t window_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
                                std::int64_t dilation) {
  const std::int64_t span = dilation * (kernel - 1) + 1;
  if (stride < 1 || in + 2 * pad < span) return 0;
  return (in + 2 * pad - span) / stride + 1;
}

TensorId conv2d(Graph& graph, std::string name, TensorId input, std::int64_t out_channels,
                const Window& window, std::int64_t groups, bool bias) {
  const Tensor& x = graph.tensor(input);
  if (x.shape.size() != 4) throw std::invalid_argument(name + ": conv2d expects an NCHW input");
  const auto n = x.shape[0], c = x.shape[1];
  if (groups < 1 || c % groups != 0 || out_channels % groups != 0)
    throw std::invalid_argument(name + ": channels not divisible by groups");
  const auto ho = window_output_size(x.shape[2], window.kernel_h, window.stride_h, window.pad_h, window.dilation_h);
  const auto wo = window_output_size(x.shape[3], window.kernel_w, window.stride_w, window.pad_w, window.dilation_w);
  if (ho < 1 || wo < 1) throw std::invalid_argument(name + ": window larger than padded input");

  Tensor y{name + ":out", {n, out_channels, ho, wo}, x.dtype};
  const std::int64_t weights = out_channels * (c / groups) * window.kernel_h * window.kernel_w;
  const std::int64_t params = weights + (bias ? out_channels : 0);
  Op op{name, OpKind::conv2d, {input}, 0, x.dtype, {}};
  op.cost.macs = y.elements() * (c / groups) * window.kernel_h * window.kernel_w;
  op.cost.flops = 2 * op.cost.macs + (bias ? y.elements() : 0);
  op.cost.params = params;
  op.cost.param_bytes = params * dtype_bytes(x.dtype);
  op.cost.bytes_read = x.bytes() + op.cost.param_bytes;
  op.cost.bytes_written = y.bytes();
  return graph.add_op(std::move(op), std::move(y));
}

TensorId linear(Graph& graph, std::string name, TensorId input, std::int64_t out_features, bool bias) {
  const Tensor& x = graph.tensor(input);
  if (x.shape.empty()) throw std::invalid_argument(name + ": linear expects at least one dimension");
  const auto k = x.shape.back();
  Shape out_shape = x.shape;
  out_shape.back() = out_features;
  Tensor y{name + ":out", out_shape, x.dtype};
  const std::int64_t rows = x.elements() / k;
  const std::int64_t params = k * out_features + (bias ? out_features : 0);
  Op op{name, OpKind::matmul, {input}, 0, x.dtype, {}};
  op.cost.macs = rows * k * out_features;
  op.cost.flops = 2 * op.cost.macs + (bias ? y.elements() : 0);
  op.cost.params = params;
  op.cost.param_bytes = params * dtype_bytes(x.dtype);
  op.cost.bytes_read = x.bytes() + op.cost.param_bytes;
  op.cost.bytes_written = y.bytes();
  return graph.add_op(std::move(op), std::move(y));
}

}  // namespace dse::ops
