// What one batch costs on the device: for a tenant's model at batch size b and SM clock level c,
// the time one pass takes alone on the GPU and the power it draws, from the device's own
// simulation (Device::run_at_clock, so the GPU kernel, power and clock models of sim/gpu). Filled
// lazily: a serving run asks only for the (b, c) it dispatches, each simulated once.
//
// The serving simulation overlaps batches of several instances or tenants by their GPU share
// (sim/serving/serving_sim.h), so a cost keeps power split as the GPU model does: idle, leakage
// while busy, and the batch's own dynamic power.
//
// Contract: one table per serving run (one thread); at() never fails on a validated spec.
#pragma once

#include <map>
#include <tuple>

#include "sim/run/experiment.h"
#include "sim/serving/serving_spec.h"

namespace dse {

struct BatchCost {
  double latency_s = 0;  // the pass alone on the device
  double idle_w = 0;     // board idle power
  double static_w = 0;   // leakage added while it runs, at its clock
  double dynamic_w = 0;  // its time-averaged dynamic power
  double gpu_share = 1;  // the share of the GPU its kernels fill (1: it saturates the GPU)
  double clock_mhz = 0;  // the SM clock it ran at (0 for devices without one)
  double energy_j() const { return (idle_w + static_w + dynamic_w) * latency_s; }
  double power_w() const { return idle_w + static_w + dynamic_w; }
};

class BatchCostTable {
 public:
  BatchCostTable(const Experiment& experiment, const ServingSpec& spec, WallDeadline deadline)
      : experiment_(experiment), spec_(spec), deadline_(deadline) {}
  // `clock_level` indexes spec.clock_levels_mhz; -1 runs at the device's own clock (no governor).
  const BatchCost& at(std::size_t tenant, int batch, int clock_level);
  // The device's idle power (from any cost; the first tenant at batch 1 if none is known yet).
  double idle_w();
  std::size_t passes_simulated() const { return costs_.size(); }

 private:
  const Experiment& experiment_;
  const ServingSpec& spec_;
  WallDeadline deadline_;
  std::map<std::tuple<std::size_t, int, int>, BatchCost> costs_;
};

}  // namespace dse
