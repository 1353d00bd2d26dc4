#include "models/tensor.h"

#include <array>
#include <utility>

#include "models/base/checked_count.h"

namespace dse {
namespace {
struct DTypeInfo {
  DType dtype;
  std::string_view name;
  int bytes;
};
constexpr std::array<DTypeInfo, 9> kDTypes{{
    {DType::fp32, "fp32", 4},
    {DType::tf32, "tf32", 4},
    {DType::fp16, "fp16", 2},
    {DType::bf16, "bf16", 2},
    {DType::fp8, "fp8", 1},
    {DType::int8, "int8", 1},
    {DType::int32, "int32", 4},
    {DType::int64, "int64", 8},
    {DType::boolean, "bool", 1},
}};
const DTypeInfo& info(DType dtype) { return kDTypes[static_cast<std::size_t>(dtype)]; }
}  // namespace

int dtype_bytes(DType dtype) { return info(dtype).bytes; }
std::string_view dtype_name(DType dtype) { return info(dtype).name; }

std::optional<DType> parse_dtype(std::string_view name) {
  for (const auto& entry : kDTypes) {
    if (entry.name == name) return entry.dtype;
  }
  return std::nullopt;
}

std::vector<std::string> dtype_names() {
  std::vector<std::string> out;
  for (const auto& entry : kDTypes) out.emplace_back(entry.name);
  return out;
}

std::vector<std::string> compute_dtype_names() {
  std::vector<std::string> out = dtype_names();
  out.resize(6);  // fp32 ... int8
  return out;
}

Layout default_layout(std::size_t rank) { return rank == 4 ? Layout::nchw : Layout::plain; }

std::int64_t element_count(const Shape& shape) {
  std::int64_t count = 1;
  for (const auto dim : shape) {
    std::int64_t next = 0;
    if (__builtin_mul_overflow(count, dim, &next))
      throw CountOverflow("the elements of a tensor of shape " + shape_string(shape));
    count = next;
  }
  return count;
}

std::int64_t Tensor::bytes() const {
  std::int64_t out = 0;
  if (__builtin_mul_overflow(elements(), std::int64_t{dtype_bytes(dtype)}, &out))
    throw CountOverflow("the bytes of tensor '" + name + "' (" + shape_string(shape) + ")");
  return out;
}

std::string shape_string(const Shape& shape) {
  std::string out;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(shape[i]);
  }
  return out.empty() ? "scalar" : out;
}

}  // namespace dse
