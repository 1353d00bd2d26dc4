// What one batch costs on the device: for a tenant's model at batch size b and clock level c, the
// device's profile of one pass alone at that operating point (Device::profile: latency, idle,
// leakage and dynamic power, its share of the device, the clock it ran at), from the device's own
// simulation, whatever its kind. Filled lazily: a serving run asks only for the (b, c) it
// dispatches, each simulated once.
//
// Contract: one table per serving run (one thread); at() fails (ConfigError at the tenant's model)
// only for a batch that takes no time (models with no timed op are refused when read).
#pragma once

#include <map>
#include <tuple>

#include "sim/device/pass_profile.h"
#include "sim/run/experiment.h"
#include "sim/serving/serving_spec.h"

namespace dse {

class BatchCostTable {
 public:
  BatchCostTable(const Experiment& experiment, const ServingSpec& spec, WallDeadline deadline)
      : experiment_(experiment), spec_(spec), deadline_(deadline) {}
  // `clock_level` indexes spec.clock_levels_mhz; -1 runs at the device's own clock (no governor).
  const PassProfile& at(std::size_t tenant, int batch, int clock_level);
  // A known cost (the first tenant at batch 1 at the starting level if none is known yet): the
  // device's idle power and, before the first batch, its clock.
  const PassProfile& any();
  std::size_t passes_simulated() const { return costs_.size(); }

 private:
  const Experiment& experiment_;
  const ServingSpec& spec_;
  WallDeadline deadline_;
  std::map<std::tuple<std::size_t, int, int>, PassProfile> costs_;
};

}  // namespace dse
