// Integer division rounding up, for non-negative a and positive b: folds, waves, tiles, blocks.
#pragma once

#include <cstdint>

namespace dse {

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace dse
