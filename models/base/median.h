// The median of a sample: the middle value, or the mean of the two middle ones for an even count.
#pragma once

#include <algorithm>
#include <vector>

namespace dse {

// `values` must not be empty.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace dse
