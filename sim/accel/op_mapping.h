// One op mapped onto an accelerator design: how the work is split across cores, how it is tiled
// into the L1s (and the global buffer), how many cycles the arrays or vector units take, and how
// many bytes each memory level moves. Tiling gets half of each buffer; the other half holds what
// fusion keeps on chip. docs/accelerator.md ("Per-op mapping") gives the rules and equations.
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
