// Energy and peak power of a piecewise-constant power series (RunResult::power).
#pragma once

#include <vector>

#include "sim/run/run_result.h"

namespace dse {

// The integral of the series over [0, end_ps], joules.
double series_energy_j(const std::vector<PowerSample>& series, TimePs end_ps);
// The integral over [from_ps, to_ps] of the series that ends at end_ps, joules.
double series_energy_j(const std::vector<PowerSample>& series, TimePs from_ps, TimePs to_ps, TimePs end_ps);
// The highest mean power over any window of `window_ps` within [0, end_ps]; the mean over the
// whole run when it is shorter than the window.
double series_peak_w(const std::vector<PowerSample>& series, TimePs end_ps, TimePs window_ps);

}  // namespace dse
