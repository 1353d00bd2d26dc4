// One op mapped onto an accelerator design: how the work is split across cores, how it is tiled
// into the L1s (and the global buffer), how many cycles the arrays or vector units take, and how
// many bytes each memory level moves. docs/accelerator.md gives the equations.
//
// Matrix ops (a GEMM, or a convolution's im2col GEMM): independent GEMMs of a batch (groups,
// heads) go to different cores first; the rest of the cores split the output rows M (each core
// then reads all of B) or columns N (each reads all of A), whichever split gives the fewest
// array cycles, then the least traffic. A core's share runs on its array with SCALE-Sim's cycle
// count for the dataflow (fill and drain included: sim/accel/systolic_array.h). Tiling keeps one
// operand's full-K strip resident in half of the buffer (the other half double-buffers the
// streamed operand) and re-reads the other operand once per strip; when a strip of one array width
// does not fit, K is split and partial sums go out and back in.
// A depthwise convolution (one output channel per group) or an outer product (K = 1) runs on the
// vector units instead (a MAC as two lane operations) when that takes fewer cycles.
// Vector ops run on all cores' lanes; data-movement ops are DMA copies; both stream their tensors.
// Tiling gets half of each buffer; the other half holds what fusion keeps on chip.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/accel/accel_spec.h"
#include "sim/accel/accel_workload.h"

namespace dse {

struct OpMapping {
  std::int64_t compute_cycles = 0;  // arrays (matrix ops) or vector units
  double compute_s = 0;
  int active_cores = 1;
  bool on_vector_units = false;  // a matrix op the vector units run faster than the arrays
  // DRAM traffic per byte of each tensor, when the tensor lives in DRAM (re-reads included):
  double first_input_factor = 1;  // the op's first activation input (A)
  double other_input_factor = 1;  // the others (B of an activation x activation product)
  double output_factor = 1;       // writes, plus K-split partial sums out and back
  double weight_dram_bytes = 0;   // constants
  double noc_bytes = 0;           // global buffer <-> L1 refills (0 without a global buffer)
  double l1_bytes = 0;            // bytes through the cores' L1s and array edges (energy)
  double startup_bytes = 0;       // the first tiles, which compute cannot overlap
};

OpMapping map_op(const AccelWorkload& workload, const AccelOp& op, const AcceleratorSpec& spec);
// Every op of the workload, in its order.
std::vector<OpMapping> map_ops(const AccelWorkload& workload, const AcceleratorSpec& spec);

// DRAM-side re-read factors of one GEMM (m x k times k x n, `elem` bytes per element) tiled into
// `capacity` bytes (half of it for the resident strip, half to stream through), strips rounded to
// unit_m rows / unit_n columns. Exposed for tests.
struct TileFactors {
  double a = 1, b = 1, c = 1;
};
TileFactors tile_factors(std::int64_t m, std::int64_t n, std::int64_t k, int elem, double capacity, std::int64_t unit_m,
                         std::int64_t unit_n);

}  // namespace dse
