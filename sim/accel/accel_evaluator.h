// One accelerator design evaluated on one workload: per-op mapping, the fusion plan, latency,
// traffic, energy, and the design's area and power. What `dse run`, the search and the benches call.
#pragma once

#include <vector>

#include "sim/accel/accel_power_area.h"
#include "sim/accel/fusion_plan.h"
#include "sim/accel/tensor_layout.h"

namespace dse {

struct AccelEvaluation {
  std::vector<OpMapping> mappings;  // per AccelWorkload op
  FusionResult fusion;
  double latency_s = 0;  // one pass over the workload (one batch)
  double dram_bytes = 0;
  double energy_j = 0;  // dynamic energy of every event plus static power over the latency
  double dynamic_energy_j = 0;
  std::vector<double> op_dynamic_energy_j;  // per AccelWorkload op: its events and its DRAM bytes
  AcceleratorPowerArea power_area;
};

AccelEvaluation evaluate_accelerator(const AccelWorkload& workload, const AcceleratorSpec& spec, FusionMode fusion,
                                     PaddingMode padding);

}  // namespace dse
