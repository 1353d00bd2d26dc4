#include "sim/accel/tensor_layout.h"

#include <algorithm>
#include <numeric>

#include "models/base/ceil_div.h"

namespace dse {

double layout_dram_factor(std::int64_t row_bytes, std::int64_t line_bytes, std::int64_t access_bytes,
                          PaddingMode mode) {
  if (row_bytes <= 0 || row_bytes % line_bytes == 0) return 1.0;
  const auto row = static_cast<double>(row_bytes);
  const double padded = static_cast<double>(ceil_div(row_bytes, line_bytes) * line_bytes) / row;
  if (mode == PaddingMode::array) return padded;
  // Row starts repeat with period unit / gcd(row, unit).
  const std::int64_t period = access_bytes / std::gcd(row_bytes, access_bytes);
  std::int64_t units = 0;
  for (std::int64_t i = 0; i < period; ++i) units += ceil_div((i * row_bytes) % access_bytes + row_bytes, access_bytes);
  const double packed = static_cast<double>(units * access_bytes) / (static_cast<double>(period) * row);
  return mode == PaddingMode::none ? packed : std::min(packed, padded);
}

std::vector<double> tensor_dram_factors(const AccelWorkload& workload, const AcceleratorSpec& spec, PaddingMode mode) {
  std::vector<double> out;
  out.reserve(workload.tensors.size());
  for (const AccelTensor& t : workload.tensors)
    out.push_back(layout_dram_factor(t.row_bytes, spec.array.cols * t.element_bytes, spec.dram_access_bytes, mode));
  return out;
}

}  // namespace dse
