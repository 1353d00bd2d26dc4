#include "sim/gpu/gpu_timing_model.h"

namespace dse {

OpTiming GpuTimingModel::time(const Graph& graph, const Op& op, std::optional<double> clock_mhz) const {
  OpTiming timing{0, "none"};
  std::int64_t longest = -1;
  for (const auto& kernel : kernels(graph, op, clock_mhz.value_or(power().spec().boost_clock_mhz))) {
    timing.duration_ps += kernel.duration_ps;
    if (kernel.duration_ps > longest) {
      longest = kernel.duration_ps;
      timing.bound = kernel.bound;
    }
  }
  if (timing.duration_ps == 0) timing.duration_ps = 1;
  return timing;
}

}  // namespace dse
