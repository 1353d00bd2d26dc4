// SCALE-Sim's array configuration files (INI, read with Debian's inih): [general] run_name;
// [architecture_presets] ArrayHeight, ArrayWidth, IfmapSramSzkB, FilterSramSzkB, OfmapSramSzkB,
// IfmapOffset, FilterOffset, OfmapOffset, Dataflow (os | ws | is), Bandwidth, MemoryBanks;
// [run_presets] InterfaceBandwidth (CALC | USER).
#pragma once

#include <string>

#include "sim/accel/systolic_array.h"

namespace dse {

struct ScaleSimConfig {
  std::string run_name;
  SystolicArray array;
  double ifmap_sram_kib = 0, filter_sram_kib = 0, ofmap_sram_kib = 0;  // whole KiB >= 1 with USER
  double bandwidth_words_per_cycle = 0;  // Bandwidth's first value; a whole number >= 1 with USER
  bool user_bandwidth = false;           // InterfaceBandwidth: USER (CALC: no stalls)
};

// UserError "FILE:LINE: [section] key: expected ..., found ..." on bad input. MemoryBanks and the
// offsets are read by neither SCALE-Sim v2's timing nor dse.
ScaleSimConfig read_scalesim_config(const std::string& path);

}  // namespace dse
