#include "models/op.h"

#include "models/base/checked_count.h"

namespace dse {
namespace {

struct KindInfo {
  OpKind kind;
  std::string_view name;
  OpCategory category;
  int flops_per_element;  // see the convention in op.h; docs/models.md explains each
};

constexpr auto M = OpCategory::matrix, V = OpCategory::vector, D = OpCategory::data_movement, W = OpCategory::view;

// Flops per element: an approximation of the arithmetic a kernel does, counting exp, erf, tanh,
// sqrt and division as one operation each (as fvcore/ptflops-style counters do where they count
// activations at all). gelu uses the tanh form: x * 0.5 * (1 + tanh(0.79788 * (x + 0.044715 x^3))).
constexpr KindInfo kKinds[] = {
    {OpKind::conv2d, "conv2d", M, 0},
    {OpKind::conv_transpose2d, "conv_transpose2d", M, 0},
    {OpKind::matmul, "matmul", M, 0},
    {OpKind::attention, "attention", M, 0},
    {OpKind::batchnorm, "batchnorm", V, 2},  // x * scale + shift (statistics folded)
    {OpKind::layernorm, "layernorm", V, 8},  // mean, centre, square, mean, rsqrt, scale, mul, add
    {OpKind::groupnorm, "groupnorm", V, 8},
    {OpKind::softmax, "softmax", V, 5},  // max, subtract, exp, sum, divide
    {OpKind::relu, "relu", V, 1},
    {OpKind::leaky_relu, "leaky_relu", V, 2},  // x > 0 ? x : alpha * x
    {OpKind::clip, "clip", V, 2},              // relu6 = min(max(x, 0), 6)
    {OpKind::gelu, "gelu", V, 8},
    {OpKind::silu, "silu", V, 4},            // x / (1 + exp(-x))
    {OpKind::hardswish, "hardswish", V, 4},  // x * min(max(x + 3, 0), 6) / 6
    {OpKind::hardsigmoid, "hardsigmoid", V, 3},
    {OpKind::sigmoid, "sigmoid", V, 3},  // 1 / (1 + exp(-x))
    {OpKind::tanh, "tanh", V, 1},
    {OpKind::exp, "exp", V, 1},
    {OpKind::sqrt, "sqrt", V, 1},
    {OpKind::erf, "erf", V, 1},
    {OpKind::neg, "neg", V, 1},
    {OpKind::reciprocal, "reciprocal", V, 1},
    {OpKind::cast, "cast", V, 0},
    {OpKind::add, "add", V, 1},
    {OpKind::sub, "sub", V, 1},
    {OpKind::mul, "mul", V, 1},
    {OpKind::div, "div", V, 1},
    {OpKind::pow, "pow", V, 1},
    {OpKind::maximum, "maximum", V, 1},
    {OpKind::minimum, "minimum", V, 1},
    {OpKind::where, "where", V, 1},
    {OpKind::elementwise, "elementwise", V, 0},  // flops per element: the op's attribute
    {OpKind::maxpool, "maxpool", V, 0},          // flops = window size per output, set by the op
    {OpKind::avgpool, "avgpool", V, 0},
    {OpKind::global_avgpool, "global_avgpool", V, 0},
    {OpKind::global_maxpool, "global_maxpool", V, 0},
    {OpKind::reduce_mean, "reduce_mean", V, 0},  // flops = input elements, set by the op
    {OpKind::reduce_sum, "reduce_sum", V, 0},
    {OpKind::reduce_max, "reduce_max", V, 0},
    {OpKind::fused, "fused", V, 0},  // category refined per op: see op_category(const Op&)
    {OpKind::concat, "concat", D, 0},
    {OpKind::slice, "slice", D, 0},
    {OpKind::transpose, "transpose", D, 0},
    {OpKind::pad, "pad", D, 0},
    {OpKind::gather, "gather", D, 0},
    {OpKind::expand, "expand", D, 0},
    {OpKind::resize, "resize", D, 0},  // nearest: a copy; linear adds 7 flops per output
    {OpKind::kv_cache_append, "kv_cache_append", D, 0},
    {OpKind::reshape, "reshape", W, 0},
    {OpKind::flatten, "flatten", W, 0},
};

const KindInfo& info(OpKind kind) {
  for (const auto& entry : kKinds)
    if (entry.kind == kind) return entry;
  return kKinds[0];  // unreachable: every kind is listed
}

}  // namespace

std::string_view op_kind_name(OpKind kind) { return info(kind).name; }

std::optional<OpKind> parse_op_kind(std::string_view name) {
  for (const auto& entry : kKinds)
    if (entry.name == name) return entry.kind;
  return std::nullopt;
}

std::vector<std::string> op_kind_names() {
  std::vector<std::string> out;
  for (const auto& entry : kKinds) out.emplace_back(entry.name);
  return out;
}

OpCategory op_category(OpKind kind) { return info(kind).category; }

std::string_view op_category_name(OpCategory category) {
  switch (category) {
    case OpCategory::matrix: return "matrix";
    case OpCategory::vector: return "vector";
    case OpCategory::data_movement: return "data_movement";
    case OpCategory::view: return "view";
  }
  return "unknown";
}

OpCategory op_category(const Op& op) {
  if (op.kind == OpKind::fused) return op.gemms.empty() ? OpCategory::vector : OpCategory::matrix;
  return op_category(op.kind);
}

bool is_matrix_op(OpKind kind) { return op_category(kind) == OpCategory::matrix; }

bool is_elementwise(OpKind kind) {
  if (op_category(kind) != OpCategory::vector) return false;
  switch (kind) {
    case OpKind::maxpool:
    case OpKind::avgpool:
    case OpKind::global_avgpool:
    case OpKind::global_maxpool:
    case OpKind::reduce_mean:
    case OpKind::reduce_sum:
    case OpKind::reduce_max:
    case OpKind::softmax:
    case OpKind::layernorm:
    case OpKind::groupnorm:
    case OpKind::fused: return false;
    default: return true;
  }
}
int op_flops_per_element(OpKind kind) { return info(kind).flops_per_element; }

double OpCost::arithmetic_intensity() const {
  const auto bytes = bytes_read + bytes_written;
  return bytes == 0 ? 0.0 : static_cast<double>(flops) / static_cast<double>(bytes);
}

std::int64_t GemmView::macs() const {
  const char* what = "the MACs of a GEMM";
  return checked_mul(checked_mul(checked_mul(batch, m, what), n, what), k, what);
}

OpCost& OpCost::operator+=(const OpCost& other) {
  macs = checked_add(macs, other.macs, "a sum of MACs");
  flops = checked_add(flops, other.flops, "a sum of FLOPs");
  bytes_read = checked_add(bytes_read, other.bytes_read, "a sum of bytes read");
  bytes_written = checked_add(bytes_written, other.bytes_written, "a sum of bytes written");
  params = checked_add(params, other.params, "a sum of parameters");
  param_bytes = checked_add(param_bytes, other.param_bytes, "a sum of parameter bytes");
  return *this;
}

bool reads_b_transposed(const Op& op) {
  if (op.kind != OpKind::matmul) return false;
  if (op.attributes.contains("out_features")) return true;
  const auto it = op.attributes.find("transpose_b");
  return it != op.attributes.end() && std::holds_alternative<std::int64_t>(it->second) &&
         std::get<std::int64_t>(it->second) != 0;
}

}  // namespace dse
