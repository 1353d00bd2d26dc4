// How activation tensors lie in DRAM, and the DRAM bytes it takes to move them between DRAM's
// aligned access units (dram.access_bytes) and on-chip lines of one array edge (array.cols
// elements), per padding mode (device.padding): rows packed (`none`), padded to whole lines
// (`array`, as XLA lays out TPU tensors) or whichever moves fewer bytes per tensor (`auto`).
// Constants and compute are not affected. The factors, with examples: docs/accelerator.md#padding.
#pragma once

#include <cstdint>
#include <vector>

#include "models/base/enum_table.h"
#include "sim/accel/accel_spec.h"
#include "sim/accel/accel_workload.h"

namespace dse {

enum class PaddingMode { none, array, automatic };
inline constexpr EnumTable<PaddingMode, 3> kPaddingModeNames{{{
    {PaddingMode::none, "none"},
    {PaddingMode::array, "array"},
    {PaddingMode::automatic, "auto"},
}}};

// DRAM bytes moved per byte of a tensor with `row_bytes`-byte rows.
double layout_dram_factor(std::int64_t row_bytes, std::int64_t line_bytes, std::int64_t access_bytes, PaddingMode mode);

// The factor for every tensor of the workload on this design (line = array.cols elements of the
// tensor's type).
std::vector<double> tensor_dram_factors(const AccelWorkload& workload, const AcceleratorSpec& spec, PaddingMode mode);

}  // namespace dse
