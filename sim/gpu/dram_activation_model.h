// How many DRAM rows a GEMM opens (GpuSpec::dram_activation). A DRAM device opens (activates) a
// row before it reads from it, one at most every tRRD and four in its four-activate window tFAW
// (JEDEC's GDDR5 standard, JESD212), however few bytes each one serves. A GEMM's main loop
// reads one 32-byte sector of each of its A rows per k step of 8 (and of its B rows when B is read
// transposed), and reads the next sector of the same row a whole k step later, after the device
// has opened other rows: rows a row span (GpuSpec::dram_activation) or more apart cost one
// activation per sector, shorter rows share one per span a block's step touches. The kernel's DRAM traffic then moves
// no faster than channels / max(tRRD, tFAW / 4) activations a second allow (sim/gpu/kernel_timer.cpp); the rest of its
// traffic (B read row by row, C written) streams a row span per activation.
#pragma once

#include <cstdint>

#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/kernel.h"

namespace dse {

// What one activation serves at most: the L2's sector, the unit a GPU's L2 fetches from DRAM (CUDA
// C++ Best Practices Guide, "Coalesced Access to Global Memory": 32-byte segments), which is also
// one GDDR5 burst (8 transfers of a 32-bit device, JESD212).
inline constexpr double kDramSectorBytes = 32;

// The most rows a GEMM has that cuBLAS runs on its small-N kernel, which streams its operands.
inline constexpr std::int64_t kSmallNRows = 16;

// The activations `kernel` (a GEMM with a footprint; 0 for other kernels) costs its DRAM.
double dram_activations(const Kernel& kernel, const DramActivationWindow& dram);

}  // namespace dse
