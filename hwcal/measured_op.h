// The op a measured kernel row ran (hwcal/kernel_measurements.h), rebuilt as a one-op dse graph,
// and the kernels dse lowers it to: on the GEMM tile dse picks, or on the one the row's kernel name
// says it ran.
#pragma once

#include <optional>
#include <vector>

#include "hwcal/kernel_measurements.h"
#include "models/graph.h"
#include "sim/gpu/gpu_lowering.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

// The one-op graph a row measured (for the calibration backends, which run or simulate it).
Graph measured_op_graph(const KernelMeasurement& row);
// The kernels dse launches for one measured row's op; UserError for an op it cannot rebuild.
std::vector<Kernel> predict_kernels(const KernelMeasurement& row, const KernelTimer& timer);
// The GEMM tile a measured linear or bmm row's kernel ran, read from its name (cuBLAS's and
// CUTLASS's "..._sgemm_PxQ_...": P columns and Q rows of the row-major output; xmma's
// "...tilesizePxQx8...": P rows and Q columns) and, for linear rows, its K split (the grid's blocks over the output
// tiles; a bmm is never split); none for other rows or names.
std::optional<GemmTileRequest> measured_gemm_tile(const KernelMeasurement& row);
// dse's kernels for the row on the tile it was measured on (measured_gemm_tile); empty when the
// name gives none or dse's tile table has no tile of that size.
std::vector<Kernel> predict_kernels_on_measured_tile(const KernelMeasurement& row, const KernelTimer& timer);

}  // namespace dse
