#include "hwcal/measure/measurement.h"

#include <algorithm>
#include <cmath>

namespace dse {

int launches_per_repeat(double latency_ms, const MeasureSettings& settings) {
  if (!(latency_ms > 0)) return 1;
  return std::max(1, static_cast<int>(std::ceil(settings.min_repeat_ms / latency_ms)));
}

double timed_runs_s(double latency_ms, const MeasureSettings& settings) {
  const int number = launches_per_repeat(latency_ms, settings);
  return (settings.warmup + static_cast<double>(number) * settings.repeat) * latency_ms * 1e-3;
}

}  // namespace dse
