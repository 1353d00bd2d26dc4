// Tensors of a DNN graph: element types and shapes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/base/enum_table.h"

namespace dse {

// Element types. The first six are compute types a model can run in (tf32 is stored in 4 bytes: it
// is fp32 in memory, only the tensor-core multiply drops mantissa bits); int32, int64 and boolean
// hold indices, token ids and masks.
enum class DType { fp32, tf32, fp16, bf16, fp8, int8, int32, int64, boolean };

int dtype_bytes(DType dtype);
std::string_view dtype_name(DType dtype);
std::optional<DType> parse_dtype(std::string_view name);
// Every dtype name, and the compute types a model may be configured with.
std::vector<std::string> dtype_names();
std::vector<std::string> compute_dtype_names();

using Shape = std::vector<std::int64_t>;

// Memory order of a tensor's elements. Rank-4 activations default to NCHW (the convention of every
// op here and of ONNX); NHWC marks channels-last data (what tensor-core convolution kernels prefer);
// everything else is plain row-major.
enum class Layout { plain, nchw, nhwc };
inline constexpr EnumTable<Layout, 3> kLayoutNames{{{
    {Layout::plain, "plain"},
    {Layout::nchw, "nchw"},
    {Layout::nhwc, "nhwc"},
}}};
// The default layout of a tensor of this rank.
Layout default_layout(std::size_t rank);

std::int64_t element_count(const Shape& shape);
// "8x64x56x56"
std::string shape_string(const Shape& shape);

struct Tensor {
  std::string name;
  Shape shape;
  DType dtype = DType::fp32;
  bool constant = false;   // an initializer (weights, a literal): its bytes count as parameter bytes
  bool parameter = false;  // a learnt constant: its elements count as parameters (a literal's do not)
  Layout layout = Layout::plain;

  // Both throw CountOverflow (models/base/checked_count.h) past 64 bits.
  std::int64_t elements() const { return element_count(shape); }
  std::int64_t bytes() const;
};

}  // namespace dse
