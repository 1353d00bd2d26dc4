// Operation fusion on the accelerator: which consecutive ops (in execution order) run as one group
// whose intermediate tensors stay on chip instead of going to DRAM and back, and each op's time
// under the plan. What a group keeps on chip, when it fits, how it runs in slices when it does not,
// and the plans: docs/accelerator.md#fusion.
#pragma once

#include <vector>

#include "models/base/enum_table.h"
#include "sim/accel/op_mapping.h"

namespace dse {

// The plans (device.fusion): none, epilogue (XLA-style; tpu_v3_like's baseline), greedy, exact (a
// dynamic program over group boundaries, groups of at most kMaxGroupOps ops) and ilp (fusion_ilp.h).
enum class FusionMode { none, epilogue, greedy, exact, ilp };
inline constexpr EnumTable<FusionMode, 5> kFusionModeNames{{{
    {FusionMode::none, "none"},
    {FusionMode::epilogue, "epilogue"},
    {FusionMode::greedy, "greedy"},
    {FusionMode::exact, "exact"},
    {FusionMode::ilp, "ilp"},
}}};

inline constexpr int kMaxGroupOps = 32;

// time_s = max(core_s, dram_bytes / DRAM bandwidth) + first_tiles_s.
struct FusedOpTiming {
  double time_s = 0;
  double compute_s = 0;      // arrays or vector units
  double core_s = 0;         // max(compute, on-chip network)
  double first_tiles_s = 0;  // min(DRAM bytes, first-tile bytes) / DRAM bandwidth: not overlapped
  double dram_bytes = 0;
  int group = 0;
};

struct FusionResult {
  std::vector<FusedOpTiming> ops;  // per AccelWorkload op
  int groups = 0;
  bool feasible = true;  // every group fits on chip
  double latency_s = 0;
  double dram_bytes = 0;
};

// Every plan; `ilp` goes to plan_fusion_ilp (sim/accel/fusion_ilp.h). `layout` holds each
// tensor's DRAM bytes moved per byte (tensor_dram_factors, sim/accel/tensor_layout.h).
FusionResult plan_fusion(const AccelWorkload& workload, const std::vector<OpMapping>& mappings,
                         const std::vector<double>& layout, const AcceleratorSpec& spec, FusionMode mode);

// The ops timed under a given partition: `starts` holds the first op of each group, ascending,
// starting at 0. `feasible` says whether every group fits (an infeasible plan is still timed).
FusionResult evaluate_partition(const AccelWorkload& workload, const std::vector<OpMapping>& mappings,
                                const std::vector<double>& layout, const AcceleratorSpec& spec,
                                const std::vector<int>& starts);

}  // namespace dse
