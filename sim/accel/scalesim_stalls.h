// SCALE-Sim v2's InterfaceBandwidth: USER mode, reimplemented: a layer's total and stall cycles as
// SCALE-Sim reports them (COMPUTE_REPORT.csv), from its config (IfmapSramSzkB, FilterSramSzkB,
// OfmapSramSzkB, Bandwidth in one-byte words per cycle). Each demand line (a compute cycle) reads
// its ifmap and filter words through the double-buffered read buffers and writes its ofmap words
// through the write buffer (sim/accel/scalesim_buffers.h); the line stalls for the longest of the
// three waits. Agreement with SCALE-Sim's own runs, to the cycle: tests/sim/test_scalesim_user.cpp;
// the algorithm and where it is not physical: docs/accelerator.md ("SCALE-Sim's bandwidth mode").
#pragma once

#include <cstdint>

#include "sim/accel/scalesim_config.h"
#include "sim/accel/scalesim_operands.h"

namespace dse {

struct ScaleSimCycles {
  std::int64_t total = 0;   // SCALE-Sim's "Total Cycles": the cycle its last ofmap write is served
  std::int64_t stalls = 0;  // "Stall Cycles"
};

// With InterfaceBandwidth: CALC, SCALE-Sim's compute cycles and no stalls. UserError on a layer or
// config SCALE-Sim cannot run (config.user_sram_words, bandwidth below 1 word per cycle).
ScaleSimCycles scalesim_layer_cycles(const ScaleSimLayer& layer, const ScaleSimConfig& config);

}  // namespace dse
