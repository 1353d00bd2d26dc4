// One operator of a DNN graph: what it computes, on which tensors, and what that costs.
//
// Cost conventions (every device model relies on them; docs/models.md lists them per op):
// - macs: multiply-accumulates of matrix ops (conv, matmul, attention); 0 for others;
// - flops: 2 per MAC, plus per output element the op's elementwise arithmetic (op_flops_per_element:
//   relu 1, sigmoid 4, gelu 8, layernorm 8, softmax 5, ...);
// - bytes_read: every input tensor plus every constant (weights, bias, norm statistics) once, and
//   for a gather only the rows it reads; bytes_written: the output once. No reuse across ops: that
//   is what fusion transforms and device caches change;
// - params: trainable parameters as torchvision/Hugging Face count them (batch-norm running
//   statistics are buffers, not parameters); param_bytes: bytes of all constants the op reads.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "models/tensor.h"

namespace dse {

// clang-format off: the kinds grouped by what they are, a group a line
enum class OpKind {
  // matrix ops (tensor cores / systolic arrays)
  conv2d,
  conv_transpose2d,
  matmul,
  attention,
  // normalisation and softmax
  batchnorm,
  layernorm,
  groupnorm,
  softmax,
  // elementwise unary
  relu,
  leaky_relu,
  clip,
  gelu,
  silu,
  hardswish,
  hardsigmoid,
  sigmoid,
  tanh,
  exp,
  sqrt,
  erf,
  neg,
  reciprocal,
  cast,
  // elementwise binary (numpy broadcasting)
  add,
  sub,
  mul,
  div,
  pow,
  maximum,
  minimum,
  // elementwise ternary: where(condition, x, y)
  where,
  // any other elementwise function (comparisons, logic, abs, log, trigonometry, ...), named by its
  // "function" attribute, with its "flops_per_element"
  elementwise,
  // pooling and reductions
  maxpool,
  avgpool,
  global_avgpool,
  global_maxpool,
  reduce_mean,
  reduce_sum,
  reduce_max,
  // several ops run as one kernel (made by fusion transforms; costs recorded as attributes)
  fused,
  // data movement
  concat,
  slice,
  transpose,
  pad,
  gather,
  expand,
  resize,
  kv_cache_append,
  // views: no data moves
  reshape,
  flatten,
};
// clang-format on

// Where an op's work runs: matrix units, vector units, pure data movement, or nowhere (a view).
enum class OpCategory { matrix, vector, data_movement, view };

std::string_view op_kind_name(OpKind kind);
std::optional<OpKind> parse_op_kind(std::string_view name);
std::vector<std::string> op_kind_names();
OpCategory op_category(OpKind kind);
struct Op;
// An op's category: a fused op is matrix work when it contains any (it has GEMM views).
OpCategory op_category(const Op& op);
std::string_view op_category_name(OpCategory category);
bool is_matrix_op(OpKind kind);
// Elementwise: each output element from the same-position elements of its inputs (activations,
// arithmetic, casts, batch norm with folded statistics); not pools, reductions, normalisations over
// a row or group, softmax, or fused ops.
bool is_elementwise(OpKind kind);
// Arithmetic per output element of vector ops (0 for matrix ops, data movement and views).
int op_flops_per_element(OpKind kind);

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

// Window attributes of convolutions and pooling (H then W).
struct Window {
  std::int64_t kernel_h = 1, kernel_w = 1;
  std::int64_t stride_h = 1, stride_w = 1;
  std::int64_t pad_h = 0, pad_w = 0;
  std::int64_t dilation_h = 1, dilation_w = 1;
  // How the output size rounds: floor (the usual), ceil as PyTorch's ceil_mode (the last window must
  // start inside the input or its left padding), or ceil unclamped (SCALE-Sim's ceil((H - FH + S) / S)).
  enum class Rounding : int { floor = 0, ceil = 1, ceil_unclamped = 2 };
  Rounding rounding = Rounding::floor;
};

// A matrix op as GEMMs: `batch` independent C[m x n] += A[m x k] * B[k x n]. A convolution is its
// im2col view (m = output pixels of the batch, n = output channels per group, k = input channels
// per group x window, batch = groups); attention has two (Q K^T and P V).
struct GemmView {
  std::int64_t batch = 1, m = 0, n = 0, k = 0;
  std::int64_t macs() const;  // CountOverflow past 64 bits
  bool operator==(const GemmView&) const = default;
};

// Everything needed to rebuild an op from its kind and inputs (YAML graphs, transforms).
using AttributeValue = std::variant<std::int64_t, double, std::string, std::vector<std::int64_t>>;
using Attributes = std::map<std::string, AttributeValue, std::less<>>;

struct Op {
  std::string name;
  OpKind kind = OpKind::relu;
  std::vector<TensorId> inputs;
  TensorId output = 0;
  DType dtype = DType::fp32;  // compute type
  Attributes attributes;
  std::vector<GemmView> gemms;  // matrix ops only
  OpCost cost;
};

// A matmul that reads its B operand transposed: nn.Linear (weights stored out_features x
// in_features) or matmul with transpose_b (attention's Q K^T).
bool reads_b_transposed(const Op& op);

}  // namespace dse
