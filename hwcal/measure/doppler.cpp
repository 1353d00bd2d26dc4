#include "hwcal/measure/doppler.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "models/base/median.h"

namespace dse {

DopController::DopController(const ParallelSettings& settings)
    : settings_(settings), dop_(1), w_max_(settings.ceiling) {}

void DopController::update(double error, double failure_share) {
  if (error > settings_.error_threshold || failure_share > settings_.failure_threshold) {
    w_max_ = dop_ < w_max_ ? dop_ * (2 - settings_.beta) / 2 : dop_;
    // At least one fewer: floor(dop (1 - beta)) alone stays at 4 and below for beta = 0.2.
    dop_ = std::max(1, std::min(dop_ - 1, static_cast<int>(std::floor(dop_ * (1 - settings_.beta)))));
    return;
  }
  const double step = dop_ < w_max_ ? (w_max_ - dop_) / 2 : dop_ - w_max_;
  const int increment =
      std::clamp(static_cast<int>(std::lround(step)), settings_.increment_min, settings_.increment_max);
  dop_ = std::min(settings_.ceiling, dop_ + increment);
}

void DopController::restore(int dop, double w_max) {
  dop_ = dop;
  w_max_ = w_max;
}

double timeout_at_dop(double base_s, int dop) {
  static constexpr std::array<std::pair<double, double>, 4> kPoints{{{1, 4}, {16, 9}, {32, 17}, {64, 20}}};
  const double d = std::max(1, dop);
  double seconds = kPoints.back().second;
  for (std::size_t i = 1; i < kPoints.size(); ++i) {
    const auto [d0, t0] = kPoints[i - 1];
    const auto [d1, t1] = kPoints[i];
    if (d <= d1) {
      seconds = t0 + (t1 - t0) * (d - d0) / (d1 - d0);
      break;
    }
  }
  return seconds * base_s / 4;
}

std::vector<std::size_t> double_mad_outliers(const std::vector<double>& values, double threshold) {
  std::vector<std::size_t> out;
  if (values.size() < 3) return out;
  const double m = median(values);
  // The spread of each side: its MAD, or where half or more of the side sits on the median the
  // MAD a normal sample with that mean absolute deviation has (0.6745 / 0.7979 = 0.8453 of it), so
  // that z is |x - median| / (1.2533 x mean absolute deviation) there (Iglewicz and Hoaglin).
  const auto spread = [&](bool upper) {
    std::vector<double> deviations;
    for (const double x : values)
      if (upper ? x >= m : x <= m) deviations.push_back(std::abs(x - m));
    if (deviations.empty()) return 0.0;
    const double mad = median(deviations);
    if (mad > 0) return mad;
    double sum = 0;
    for (const double d : deviations) sum += d;
    return 0.8453 * sum / static_cast<double>(deviations.size());
  };
  const double lower = spread(false), upper = spread(true);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double side = values[i] >= m ? upper : lower;
    if (side > 0 && 0.6745 * std::abs(values[i] - m) / side > threshold) out.push_back(i);
  }
  return out;
}

}  // namespace dse
