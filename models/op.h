// One operator of a DNN graph: what it computes, on which tensors, and what that costs.
//
// Cost conventions (used by every device model, documented in docs/models.md when it exists):
// - macs: multiply-accumulates of conv/matmul-like ops (0 for others);
// - flops: 2 per MAC plus one per elementwise arithmetic step (a ReLU is 1 flop per element);
// - bytes_read: every input tensor plus every constant (weights, bias, norm statistics) once;
// - bytes_written: the output tensor once — i.e. no reuse across ops (no fusion, no cache);
// - params: trainable parameters (as torchvision counts them: batch-norm running statistics are
//   buffers, not parameters); param_bytes: bytes of all constants the op reads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/tensor.h"

namespace dse {

enum class OpKind {
  conv2d,
  matmul,        // [.., K] x [K, N] (+ bias): fully connected / linear / gemm
  batchnorm,     // inference batch-norm: per-channel scale and shift
  relu,
  add,           // elementwise binary add (same shapes)
  maxpool,
  avgpool,
  global_avgpool,
  flatten,       // a view: no data moves on a GPU
};

std::string_view op_kind_name(OpKind kind);
// True for ops whose work runs on matrix units (tensor cores, systolic arrays).
bool is_matrix_op(OpKind kind);

using TensorId = std::size_t;
using OpId = std::size_t;

struct OpCost {
  std::int64_t macs = 0;
  std::int64_t flops = 0;
  std::int64_t bytes_read = 0;
  std::int64_t bytes_written = 0;
  std::int64_t params = 0;
  std::int64_t param_bytes = 0;

  // flops per byte of DRAM traffic (0 for an op that moves no bytes)
  double arithmetic_intensity() const;
  OpCost& operator+=(const OpCost& other);
};

// Window attributes of convolutions and pooling, in NCHW order (H then W).
struct Window {
  std::int64_t kernel_h = 1, kernel_w = 1;
  std::int64_t stride_h = 1, stride_w = 1;
  std::int64_t pad_h = 0, pad_w = 0;
  std::int64_t dilation_h = 1, dilation_w = 1;
};

struct Op {
  std::string name;
  OpKind kind = OpKind::relu;
  std::vector<TensorId> inputs;
  TensorId output = 0;
  DType dtype = DType::fp32;  // compute type
  OpCost cost;
};

}  // namespace dse
