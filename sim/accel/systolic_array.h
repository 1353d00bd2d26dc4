// A systolic array running one GEMM (or a convolution's im2col GEMM), cycle-exact to SCALE-Sim v2
// where SCALE-Sim is exact: compute cycles without memory stalls. A GEMM is Sr output rows x Sc
// output columns over a reduction T, as SCALE-Sim sees a layer; the folds and cycles per fold of
// each dataflow, and the checks against SCALE-Sim's outputs (tests/sim/test_systolic_array.cpp):
// docs/accelerator.md ("Systolic-array cycles").
#pragma once

#include <cstdint>

#include "models/base/enum_table.h"
#include "models/op.h"

namespace dse {

enum class Dataflow { output_stationary, weight_stationary, input_stationary };
inline constexpr EnumTable<Dataflow, 3> kDataflowNames{{{
    {Dataflow::output_stationary, "os"},
    {Dataflow::weight_stationary, "ws"},
    {Dataflow::input_stationary, "is"},
}}};

struct SystolicArray {
  std::int64_t rows = 0;  // H
  std::int64_t cols = 0;  // W
  Dataflow dataflow = Dataflow::output_stationary;
};

struct SystolicRun {
  std::int64_t cycles = 0;
  std::int64_t folds = 0;
  double mapping_efficiency = 0;  // share of the array's PEs holding useful work, over the folds
  double utilization = 0;         // MACs / (cycles x H x W)
};

// One GEMM of `gemm.batch` independent products Sr = m, Sc = n, T = k, run one after another.
SystolicRun run_gemm(const GemmView& gemm, const SystolicArray& array);

}  // namespace dse
