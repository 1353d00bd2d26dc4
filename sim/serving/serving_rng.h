// The random numbers of a serving run: std::mt19937_64 (its output is fixed by the C++ standard)
// turned into uniforms, exponentials, normals and gammas here rather than by <random>'s distributions, whose
// algorithms each standard library chooses, so a run at a seed is the same on every platform.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace dse {

class ServingRng {
 public:
  explicit ServingRng(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [0, 1): the top 53 bits of one draw.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Exponential with the given mean (inverse transform; 1 - u is in (0, 1]).
  double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }
  // Standard normal (Box-Muller, the cosine half: two uniforms a draw).
  double normal() {
    const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform()));
    return radius * std::cos(2.0 * std::numbers::pi * uniform());
  }
  // Gamma with shape >= 1 and the given scale (Marsaglia and Tsang, ACM TOMS 2000): for a whole
  // shape n, the sum of n exponentials of mean `scale`.
  double gamma(double shape, double scale) {
    const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
      double x = 0, v = 0;
      do {
        x = normal();
        v = 1.0 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const double u = uniform();
      if (u < 1.0 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
        return d * v * scale;
    }
  }
  // Beta(a, b) for a, b >= 1: the first of two gammas' share of their sum.
  double beta(double a, double b) {
    const double x = gamma(a, 1.0);
    return x / (x + gamma(b, 1.0));
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace dse
