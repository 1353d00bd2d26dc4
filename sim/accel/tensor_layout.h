// How activation tensors lie in DRAM, and the DRAM bytes it takes to move them.
//
// On chip a tensor's rows (its innermost dimension: channels, features) start at line boundaries,
// a line being one array edge of elements (array.cols x element bytes), since the arrays and the
// vector units read whole lines. DRAM moves aligned access units (dram.access_bytes: 32 B for
// HBM2 and LPDDR4). Moving a tensor between the two costs, per byte of the tensor:
//   - rows that fill whole lines: the tensor is one contiguous run either way; 1.
//   - `none` (packed rows in DRAM): the DMA moves each row on its own; row i starts at byte
//     (i x row bytes) mod access unit, so it touches ceil((offset + row bytes) / unit) units. The
//     factor is the mean over a period of offsets, times the unit, over the row bytes: 6-byte rows
//     (3 bf16 channels) cost 6x, 48-byte rows 1.33x, 2,000-byte rows 1.008x.
//   - `array` (rows padded to whole lines, as XLA lays out TPU tensors): one contiguous run of the
//     padded tensor; ceil(row / line) x line / row: 48-byte rows on a 256-byte line cost 5.33x.
//   - `auto`: per tensor, whichever moves fewer bytes (what a compiler choosing padding does).
// Constants are laid out offline in the order the arrays read them and are not affected; compute
// is not either (arrays and vector units process whole lines with or without padding).
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
