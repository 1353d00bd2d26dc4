// Fusion as an integer linear program (FAST's formulation, solved by GLPK): which intermediate
// tensors stay on chip, for which readers, without the groups of the other plans having to be
// contiguous. No batch or row slicing. The variables, constraints and objective:
// docs/accelerator.md#fusion ("The `ilp` plan").
//
// GLPK is not thread-safe: calls are serialised. Solves stop after `time_limit_s` with the best
// solution found (`proven_optimal` false).
#pragma once

#include "sim/accel/fusion_plan.h"

namespace dse {

struct IlpFusionResult {
  FusionResult plan;
  bool proven_optimal = false;
  int variables = 0, constraints = 0;
  double solve_s = 0;
};

IlpFusionResult plan_fusion_ilp(const AccelWorkload& workload, const std::vector<OpMapping>& mappings,
                                const std::vector<double>& layout, const AcceleratorSpec& spec,
                                double time_limit_s = 20);

}  // namespace dse
