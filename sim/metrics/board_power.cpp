#include "sim/metrics/board_power.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <utility>

namespace dse {

void BoardPower::set(TimePs now, double power_w, double clock_mhz) {
  if (!series_.empty() && now < series_.back().time_ps)
    throw std::logic_error("BoardPower::set: a change before the last one");
  if (!series_.empty() && series_.back().time_ps == now) {
    series_.back().power_w = power_w;
    series_.back().clock_mhz = clock_mhz;
    const std::size_t n = series_.size();
    if (n >= 2 && series_[n - 2].power_w == power_w && series_[n - 2].clock_mhz == clock_mhz) {
      series_.pop_back();
      energy_at_j_.pop_back();
    }
    return;
  }
  if (!series_.empty() && series_.back().power_w == power_w && series_.back().clock_mhz == clock_mhz) return;
  energy_at_j_.push_back(energy_j(now));
  series_.push_back({now, power_w, clock_mhz});
}

double BoardPower::energy_j(TimePs now) const {
  if (series_.empty()) return 0;
  if (now < series_.back().time_ps) throw std::logic_error("BoardPower::energy_j: a time before the last change");
  return energy_at_j_.back() + series_.back().power_w * static_cast<double>(now - series_.back().time_ps) * 1e-12;
}

PowerSample BoardPower::read_sensor(TimePs now) {
  const double energy = energy_j(now);
  const TimePs span = now - reading_ps_;
  const double mean_w = span > 0 ? (energy - energy_at_reading_j_) / (static_cast<double>(span) * 1e-12) : power_w();
  reading_ps_ = now;
  energy_at_reading_j_ = energy;
  return {now, mean_w, clock_mhz()};
}

PowerSample BoardPower::read_sensor(TimePs now, TimePs window_ps) {
  if (window_ps < 0) throw std::logic_error("BoardPower::read_sensor: a negative window");
  const double mean = mean_w(std::max<TimePs>(0, now - window_ps), now);
  energy_at_reading_j_ = energy_until_j(now);
  reading_ps_ = now;
  return {now, mean, clock_mhz()};
}

double BoardPower::energy_until_j(TimePs t) const {
  // The last sample at or before t holds there.
  const auto it = std::upper_bound(series_.begin(), series_.end(), t,
                                   [](TimePs time, const PowerSample& sample) { return time < sample.time_ps; });
  if (it == series_.begin()) return 0;
  const auto i = static_cast<std::size_t>(it - series_.begin()) - 1;
  return energy_at_j_[i] + series_[i].power_w * static_cast<double>(t - series_[i].time_ps) * 1e-12;
}

double BoardPower::mean_w(TimePs from_ps, TimePs to_ps) const {
  if (to_ps < from_ps) throw std::logic_error("BoardPower::mean_w: a span that ends before it starts");
  if (to_ps == from_ps) {
    const auto it = std::upper_bound(series_.begin(), series_.end(), from_ps,
                                     [](TimePs time, const PowerSample& sample) { return time < sample.time_ps; });
    return it == series_.begin() ? 0.0 : std::prev(it)->power_w;
  }
  return (energy_until_j(to_ps) - energy_until_j(from_ps)) / (static_cast<double>(to_ps - from_ps) * 1e-12);
}

std::vector<PowerSample> BoardPower::take_series(TimePs end_ps) {
  while (series_.size() > 1 && series_.back().time_ps >= end_ps) series_.pop_back();
  energy_at_j_.clear();
  return std::exchange(series_, {});
}

}  // namespace dse
