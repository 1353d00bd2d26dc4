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
  double ifmap_sram_kib = 0, filter_sram_kib = 0, ofmap_sram_kib = 0;
  double bandwidth_words_per_cycle = 0;  // used when interface_bandwidth is USER
  bool user_bandwidth = false;           // InterfaceBandwidth: USER (CALC: no stalls)
};

// UserError "FILE:LINE: [section] key: expected ..., found ..." on bad input.
ScaleSimConfig read_scalesim_config(const std::string& path);

}  // namespace dse
