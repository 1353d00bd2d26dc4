// A device's board power over a run, kept by one observer of what changes it. Whatever runs the
// device (the GPU and accelerator passes, a serving run) sets the power the board draws and its
// clock whenever the running work, its speed or the clock changes; BoardPower keeps the
// piecewise-constant series (RunResult::power), integrates its energy and gives what a power sensor
// reads: the mean power over the period since its previous reading.
#pragma once

#include <vector>

#include "sim/metrics/power_sample.h"

namespace dse {

class BoardPower {
 public:
  // From `now` on (never before the last change) the board draws `power_w` at `clock_mhz`. Changes
  // at one instant leave one sample, and none when they end where the series stood before.
  void set(TimePs now, double power_w, double clock_mhz);
  // The energy drawn from 0 to `now` (not before the last change), J.
  double energy_j(TimePs now) const;
  // The board now: 0 W at 0 MHz before the first set.
  double power_w() const { return series_.empty() ? 0.0 : series_.back().power_w; }
  double clock_mhz() const { return series_.empty() ? 0.0 : series_.back().clock_mhz; }
  // The sensor's reading at `now`: the mean power since its previous reading (since 0 for the
  // first), at the clock of now.
  PowerSample read_sensor(TimePs now);
  // The series over [0, end_ps]: the samples from end_ps on go (but the first).
  std::vector<PowerSample> take_series(TimePs end_ps);

 private:
  std::vector<PowerSample> series_;
  std::vector<double> energy_at_j_;  // the integral up to each sample's time
  TimePs reading_ps_ = 0;            // the sensor's previous reading
  double energy_at_reading_j_ = 0;
};

}  // namespace dse
