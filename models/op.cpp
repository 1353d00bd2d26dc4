#include "models/op.h"

namespace dse {

std::string_view op_kind_name(OpKind kind) {
  switch (kind) {
    case OpKind::conv2d: return "conv2d";
    case OpKind::matmul: return "matmul";
    case OpKind::batchnorm: return "batchnorm";
    case OpKind::relu: return "relu";
    case OpKind::add: return "add";
    case OpKind::maxpool: return "maxpool";
    case OpKind::avgpool: return "avgpool";
    case OpKind::global_avgpool: return "global_avgpool";
    case OpKind::flatten: return "flatten";
  }
  return "unknown";
}

bool is_matrix_op(OpKind kind) { return kind == OpKind::conv2d || kind == OpKind::matmul; }

double OpCost::arithmetic_intensity() const {
  const auto bytes = bytes_read + bytes_written;
  return bytes == 0 ? 0.0 : static_cast<double>(flops) / static_cast<double>(bytes);
}

OpCost& OpCost::operator+=(const OpCost& other) {
  macs += other.macs;
  flops += other.flops;
  bytes_read += other.bytes_read;
  bytes_written += other.bytes_written;
  params += other.params;
  param_bytes += other.param_bytes;
  return *this;
}

}  // namespace dse
