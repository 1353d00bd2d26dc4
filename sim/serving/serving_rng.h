// The random numbers of a serving run: std::mt19937_64 (its output is fixed by the C++ standard)
// turned into uniforms and exponentials here rather than by <random>'s distributions, whose
// algorithms each standard library chooses, so a run at a seed is the same on every platform.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace dse {

class ServingRng {
 public:
  explicit ServingRng(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [0, 1): the top 53 bits of one draw.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Exponential with the given mean (inverse transform; 1 - u is in (0, 1]).
  double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace dse
