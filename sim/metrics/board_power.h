// A device's board power over a run, kept by one observer of what changes it. Whatever runs the
// device (the GPU and accelerator passes, a serving run) sets the power the board draws and its
// clock whenever the running work, its speed or the clock changes; BoardPower keeps the
// piecewise-constant series (RunResult::power), integrates its energy and gives what a power sensor
// reads: the mean power since its previous reading, or over a window of its own before the reading
// (a nearly instantaneous sensor read every period, as the P40's power.draw is).
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
  // The sensor's reading at `now` as the mean over [now - window_ps, now] (from 0 at the start);
  // window 0 gives the power drawn at `now`.
  PowerSample read_sensor(TimePs now, TimePs window_ps);
  // The mean power over [from_ps, to_ps] (0 W before the first set; to_ps not before from_ps): the
  // series' energy between them, found by binary search over the samples, over the span; the power
  // drawn at from_ps when the span is empty.
  double mean_w(TimePs from_ps, TimePs to_ps) const;
  // The series over [0, end_ps]: the samples from end_ps on go (but the first).
  std::vector<PowerSample> take_series(TimePs end_ps);

 private:
  // The energy drawn from 0 to `t` (any time, before or after the last change), J.
  double energy_until_j(TimePs t) const;

  std::vector<PowerSample> series_;
  std::vector<double> energy_at_j_;  // the integral up to each sample's time
  TimePs reading_ps_ = 0;            // the sensor's previous reading
  double energy_at_reading_j_ = 0;
};

}  // namespace dse
