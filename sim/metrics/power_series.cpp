#include "sim/metrics/power_series.h"

#include <algorithm>

namespace dse {
StepIntegral::StepIntegral(const std::vector<PowerSample>& series, TimePs end_ps, double PowerSample::*field)
    : series_(series), field_(field), end_ps_(end_ps) {
  double sum = 0;
  for (std::size_t i = 0; i < series.size(); ++i) {
    at_start_.push_back(sum);
    const TimePs next = i + 1 < series.size() ? series[i + 1].time_ps : end_ps;
    sum += series[i].*field_ * static_cast<double>(std::max<TimePs>(0, next - series[i].time_ps)) * 1e-12;
  }
}

double StepIntegral::until(TimePs t) const {
  t = std::clamp<TimePs>(t, 0, end_ps_);
  const auto it =
      std::upper_bound(series_.begin(), series_.end(), t, [](TimePs v, const PowerSample& s) { return v < s.time_ps; });
  if (it == series_.begin()) return 0;
  const std::size_t i = static_cast<std::size_t>(it - series_.begin()) - 1;
  return at_start_[i] + series_[i].*field_ * static_cast<double>(t - series_[i].time_ps) * 1e-12;
}

double series_energy_j(const std::vector<PowerSample>& series, TimePs end_ps) {
  return StepIntegral(series, end_ps).until(end_ps);
}

double series_mean_clock_mhz(const std::vector<PowerSample>& series, TimePs end_ps) {
  if (series.empty()) return 0;
  if (end_ps <= 0) return series.front().clock_mhz;
  return StepIntegral(series, end_ps, &PowerSample::clock_mhz).until(end_ps) / (static_cast<double>(end_ps) * 1e-12);
}

double series_peak_w(const std::vector<PowerSample>& series, TimePs end_ps, TimePs window_ps) {
  if (series.empty() || end_ps <= 0) return 0;
  const StepIntegral energy(series, end_ps);
  if (end_ps <= window_ps) return energy.until(end_ps) / (static_cast<double>(end_ps) * 1e-12);
  // The mean over a sliding window of a step function peaks with one window edge on a step.
  double peak = 0;
  const double seconds = static_cast<double>(window_ps) * 1e-12;
  for (const auto& sample : series) {
    for (const TimePs start : {sample.time_ps, sample.time_ps - window_ps}) {
      const TimePs from = std::clamp<TimePs>(start, 0, end_ps - window_ps);
      peak = std::max(peak, (energy.until(from + window_ps) - energy.until(from)) / seconds);
    }
  }
  return peak;
}

}  // namespace dse
