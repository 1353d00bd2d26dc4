// Operation fusion on the accelerator: which consecutive ops (in execution order) run as one group
// whose intermediate tensors stay on chip instead of going to DRAM and back.
//
// A group [first, last] keeps on chip every tensor it produces that no op after `last` reads (and
// that is not a graph output); tensors that leave the group are still written once. A group is
// feasible while the tensors it has produced and still needs fit in half the on-chip memory (the
// global buffer, or all L1s together without one; the other half holds the ops' tiles); when they
// do not, the group runs in the fewest slices for which they do (each slice reading all of the
// group's weights, which a GEMM tiled along its rows already streams once per block of rows):
// slices of its batch, infeasible when one sample's tensors do not fit, or, when
// every op in it works row by row (AccelOp::row_slices), slices of its rows (tokens). Each op
// then takes max(compute, its DRAM bytes / bandwidth, network bytes / bandwidth) plus the time to
// fetch its first tiles, and the ops of a group run one after another.
//
// Plans: `none` (every op alone); `epilogue` (each matrix op with the vector and data-movement ops
// after it, up to the next matrix op: what XLA-style producer-consumer fusion does, and the
// baseline tpu_v3_like is measured with); `greedy` (grow each group until the next op would not
// fit); `exact`: the partition of the execution order into feasible groups with the least total
// time, by dynamic programming over group boundaries (the order is a chain, so this is exact for
// it, with groups of at most kMaxGroupOps ops). `ilp` (sim/accel/fusion_ilp.h) drops contiguity: an
// integer program chooses which reads of which tensors stay on chip.
#pragma once

#include <vector>

#include "models/base/enum_table.h"
#include "sim/accel/op_mapping.h"

namespace dse {

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
