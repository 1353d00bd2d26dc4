// Proportional sharing by priority level: the highest level's works take the device first and
// split it in proportion to their shares, each at speed min(1, left / their total share); lower
// levels share what is left the same way. Two works of share 0.6 run at 0.83 each. Processor
// sharing among equals, the time-averaged outcome of two streams' kernels interleaving over a whole
// pass (each stream's kernels in turn take the slots first). `proportional_dram` then scales every
// speed alike until the works' DRAM traffic fits the bandwidth.
#include "sim/runtime/sharing_rule.h"

#include <algorithm>

namespace dse {
namespace {

double proportional_speeds(std::span<const ShareDemand> running, std::vector<double>& speeds) {
  speeds.assign(running.size(), 1.0);
  double left = 1.0;
  // `running` is in priority order: each level is a run of equal priorities.
  for (std::size_t first = 0; first < running.size();) {
    std::size_t end = first;
    double share = 0;
    while (end < running.size() && running[end].priority == running[first].priority) share += running[end++].share;
    const double speed = share > 0 ? std::min(1.0, left / share) : 1.0;
    for (std::size_t i = first; i < end; ++i) speeds[i] = speed;
    left = std::max(0.0, left - share * speed);
    first = end;
  }
  return 1.0 - left;
}

class Proportional final : public SharingRule {
 public:
  double grant(std::span<const ShareDemand> running, double, std::vector<double>& speeds) const override {
    return proportional_speeds(running, speeds);
  }
};

class ProportionalDram final : public SharingRule {
 public:
  double grant(std::span<const ShareDemand> running, double dram_bytes_per_s,
               std::vector<double>& speeds) const override {
    const double occupancy = proportional_speeds(running, speeds);
    fit_to_dram_bandwidth(running, dram_bytes_per_s, speeds);
    return occupancy;
  }
};

}  // namespace

DSE_REGISTER(SharingRule, Proportional, "proportional",
             "Each priority level splits what higher levels leave in proportion to its works' shares; no DRAM term")
DSE_REGISTER(SharingRule, ProportionalDram, "proportional_dram",
             "proportional, then DRAM bandwidth scales all, as leftover does")

}  // namespace dse
