// Memory stall cycles of one layer on a SCALE-Sim array whose config sets InterfaceBandwidth: USER.
// The inputs are SCALE-Sim v2's (IfmapSramSzkB, FilterSramSzkB, Bandwidth in one-byte words per
// cycle); the model is dse's, not SCALE-Sim's cycle-by-cycle simulation of its prefetch buffers,
// and has not been compared with SCALE-Sim's USER-mode results (docs/accelerator.md):
//   words   = batch x (M.K x ifmap passes + K.N x filter passes + M.N)   (ifmap, filter, ofmap)
//   ifmap passes  = 1 if M.K words fit the ifmap SRAM, else ceil(N / array cols);
//   filter passes = 1 if K.N words fit the filter SRAM, else ceil(M / array rows);
//   stalls  = max(0, ceil(words / Bandwidth) - compute cycles)   (double buffering hides the rest).
#pragma once

#include <cstdint>

#include "models/op.h"
#include "sim/accel/scalesim_config.h"
#include "sim/accel/systolic_array.h"

namespace dse {

// Stall cycles `gemm` adds to its compute cycles (`run`, run_gemm's); 0 with InterfaceBandwidth:
// CALC. CountOverflow when the interface cycles pass 64 bits.
std::int64_t scalesim_stall_cycles(const GemmView& gemm, const SystolicRun& run, const ScaleSimConfig& config);

}  // namespace dse
