// Energy, peak power and mean clock of a piecewise-constant power series (RunResult::power).
#pragma once

#include <vector>

#include "sim/metrics/power_sample.h"

namespace dse {

// The integral from 0 of one field of a series that ends at end_ps (watts: joules), built once and
// read at any time (clamped to [0, end_ps]) in log time.
class StepIntegral {
 public:
  StepIntegral(const std::vector<PowerSample>& series, TimePs end_ps,
               double PowerSample::*field = &PowerSample::power_w);
  double until(TimePs t) const;  // field x seconds
  double between(TimePs from, TimePs to) const { return until(to) - until(from); }

 private:
  const std::vector<PowerSample>& series_;
  double PowerSample::*field_;
  TimePs end_ps_;
  std::vector<double> at_start_;  // the integral at each sample's start
};

// The integral of the series over [0, end_ps], joules.
double series_energy_j(const std::vector<PowerSample>& series, TimePs end_ps);
// The clock averaged over [0, end_ps] (the first sample's when the series has no length).
double series_mean_clock_mhz(const std::vector<PowerSample>& series, TimePs end_ps);
// The highest mean power over any window of `window_ps` within [0, end_ps]; the mean over the
// whole run when it is shorter than the window.
double series_peak_w(const std::vector<PowerSample>& series, TimePs end_ps, TimePs window_ps);

}  // namespace dse
