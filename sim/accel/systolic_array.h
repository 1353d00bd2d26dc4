// A systolic array running one GEMM (or a convolution's im2col GEMM), cycle-exact to SCALE-Sim v2
// where SCALE-Sim is exact: compute cycles without memory stalls.
//
// A GEMM is seen as SCALE-Sim sees a layer: Sr output rows (pixels) x Sc output columns (filters)
// over a reduction of T (the window). A dataflow keeps one operand in the H x W array and folds the
// others over it:
//   output stationary: folds = ceil(Sr / H) x ceil(Sc / W); each fold streams T, plus H + W - 2 of
//                      fill and drain;
//   weight stationary: folds = ceil(T / H) x ceil(Sc / W); each fold loads the weights (H cycles)
//                      and streams Sr, plus H + W - 2;
//   input stationary:  folds = ceil(T / H) x ceil(Sr / W); as weight stationary with Sc streamed.
//   cycles = folds x per-fold cycles - 1 (the last fold's final cycle overlaps nothing after it).
// Checked against SCALE-Sim's own outputs (tests/sim/test_systolic_array.cpp): every layer of the
// AlexNet (WS 256x256), ResNet-18 (OS 32x32) and GPT-2 GEMM (WS 256x256) runs, and all 54,132
// rows of LLMCompass's SCALE-Sim tables (OS 16x16 and 32x32). Input stationary follows by symmetry
// and has no reference run to check against.
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
