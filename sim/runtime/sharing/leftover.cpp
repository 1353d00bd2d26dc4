// Leftover by priority, the GPU block scheduler's order: works in priority order (then start
// order) take the slots they fill alone while any are free; a later work runs on what is left, at
// the fraction of its slots it got; then DRAM bandwidth scales every speed alike. Two works of
// share 0.6 run at 1 and 0.67 (the second gets 0.4 of its 0.6). Kernel-level concurrency on NVIDIA
// GPUs dispatches an earlier kernel's blocks first and a concurrent kernel fills the SMs left
// (the "left-over" policy Pai et al. describe for NVIDIA hardware, "Improving GPGPU concurrency with
// elastic kernels", ASPLOS 2013).
#include "sim/runtime/sharing_rule.h"

#include <algorithm>

namespace dse {
namespace {

class Leftover final : public SharingRule {
 public:
  double grant(std::span<const ShareDemand> running, double dram_bytes_per_s,
               std::vector<double>& speeds) const override {
    speeds.assign(running.size(), 0.0);
    double free_slots = 1.0;
    for (std::size_t i = 0; i < running.size(); ++i) {
      const double share = std::clamp(running[i].share, 1e-9, 1.0);
      const double granted = std::min(share, free_slots);
      free_slots -= granted;
      speeds[i] = granted / share;
    }
    fit_to_dram_bandwidth(running, dram_bytes_per_s, speeds);
    return 1.0 - free_slots;
  }
};

}  // namespace

DSE_REGISTER(SharingRule, Leftover, "leftover",
             "Priority then start order take the slots they fill alone; later work runs on what is left; DRAM "
             "bandwidth scales all")

}  // namespace dse
