// Counts of elements, MACs, bytes and cycles as 64-bit integers that refuse to wrap: a product or
// sum past INT64_MAX (about 9.2e18) throws CountOverflow (a UserError: the input asked for more
// than dse can count) instead of turning negative. vit_b16 at resolution 8,192 and batch 65,536,
// a huge ONNX --input-shape or a SCALE-Sim layer of 10^6 x 10^6 reached it.
#pragma once

#include <cstdint>
#include <string>

#include "models/base/errors.h"

namespace dse {

class CountOverflow : public UserError {
 public:
  explicit CountOverflow(const std::string& what)
      : UserError(what + " exceeds what a 64-bit count holds (9.2e18); use a smaller shape or batch") {}
};

// a * b and a + b, or CountOverflow naming `what` ("the MACs of op 'fc'").
inline std::int64_t checked_mul(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) throw CountOverflow(what);
  return out;
}
inline std::int64_t checked_add(std::int64_t a, std::int64_t b, const char* what) {
  std::int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) throw CountOverflow(what);
  return out;
}

// The product of every factor, checked at each step.
template <typename... Factors>
std::int64_t checked_product(const char* what, std::int64_t first, Factors... rest) {
  std::int64_t out = first;
  ((out = checked_mul(out, static_cast<std::int64_t>(rest), what)), ...);
  return out;
}

// total += value, checked.
inline void checked_accumulate(std::int64_t& total, std::int64_t value, const char* what) {
  total = checked_add(total, value, what);
}

}  // namespace dse
