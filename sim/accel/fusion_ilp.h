// Fusion as an integer linear program (FAST's formulation, solved by GLPK): which intermediate
// tensors stay on chip, for which readers, without the groups of the other plans having to be
// contiguous.
//
// Variables, over the fixed execution order: for every read of an intermediate tensor t by op c,
// e(t,c) = 1 when c reads t on chip; w(t) = 1 when t is written to DRAM (forced when a graph output
// or when any reader reads it from DRAM); o(t,i) = 1 while t occupies the on-chip buffer at op i
// (from its producer up to its last on-chip reader, o(t,i) >= o(t,i+1), o(t,c) >= e(t,c)); z(i) >= the
// op's time; u(i) = 1 when the op moves any DRAM byte (it then pays its first tiles). Constraints:
// at every op the occupying tensors fit in half the on-chip memory (the other plans' capacity);
// z(i) >= compute (or network) time and z(i) >= its DRAM bytes / bandwidth, the bytes linear in e and
// w. Objective: the sum of z + u x first tiles / bandwidth, which bounds the other plans' op time from
// above (they pay min(bytes, first tiles)); the solution is then timed exactly. No batch or row slicing.
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
