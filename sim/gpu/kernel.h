// A GPU kernel launch as the hardware sees it: a grid of thread blocks with per-block resources,
// and the work and DRAM traffic of the whole launch. Ops lower to kernels (gpu_lowering.h); the
// kernel timing model turns kernels into time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "models/base/ceil_div.h"

namespace dse {

struct Kernel {
  std::string name;         // e.g. "sgemm_128x64_splitk3", "elementwise", "layernorm"
  std::int64_t blocks = 1;  // grid size (x * y * z)
  int threads_per_block = 128;
  int registers_per_thread = 32;
  int shared_bytes_per_block = 0;
  double flops = 0;         // arithmetic of the whole launch
  double dram_bytes = 0;    // DRAM traffic of the whole launch
  double l2_hit_bytes = 0;  // further reads the L2 serves (re-reads that miss L1 but hit L2)
  std::string compute_type = "fp32";
  bool matrix = false;  // runs on tensor cores when the type has them
  // Of dram_bytes, what a GEMM's blocks write after their main loops (C tiles, split-K partials).
  double store_bytes = 0;
  // Where a GEMM's main loop reads, for the TLB and DRAM-row models (sim/gpu/translation_model.h,
  // dram_activation_model.h; k 0 for other kernels).
  // Block b of the grid computes output tile (b % tiles_n(), b / tiles_n() % tiles_m()) of matrix
  // (or split-K slice) b / (tiles_n() tiles_m()); in each k step of 8 it reads a tile's rows of A
  // (m x k, row-major) and of B: read transposed (n x k), a tile's rows, else the same 8 rows of
  // its k x n matrix as every block.
  struct GemmFootprint {
    std::int64_t matrices = 1, m = 0, n = 0, k = 0;  // the GEMM (batch x m x n x k)
    std::int64_t tile_m = 0, tile_n = 0, split = 1;  // the block's output tile, K split this many ways
    double element_bytes = 4;
    bool b_transposed = false;
    bool b_batched = false;  // one B per matrix (bmm), else one for all
    std::int64_t tiles_m() const { return ceil_div(m, tile_m); }
    std::int64_t tiles_n() const { return ceil_div(n, tile_n); }
    std::int64_t a_rows() const { return std::min(tile_m, m); }  // rows one block reads per k step
    std::int64_t b_rows() const { return b_transposed ? std::min(tile_n, n) : std::min<std::int64_t>(8, k); }
    double a_row_bytes() const { return static_cast<double>(k) * element_bytes; }  // from one row to the next
    double b_row_bytes() const { return static_cast<double>(b_transposed ? k : n) * element_bytes; }
    double steps() const { return k > 0 ? static_cast<double>(ceil_div(ceil_div(k, split), 8)) : 0.0; }
  };
  GemmFootprint gemm_footprint;
};

// How many blocks of `kernel` fit on one SM at once, and by what limit.
struct Occupancy {
  int blocks_per_sm = 0;
  std::string limited_by;  // "threads", "blocks", "registers", "shared_memory"
};

struct SmLimits;
Occupancy occupancy(const Kernel& kernel, const SmLimits& sm);

// Full waves and the blocks in the last (tail) wave, for `blocks_per_sm` x `sm_count` slots.
struct Waves {
  std::int64_t count = 0;        // including a partial tail wave
  std::int64_t tail_blocks = 0;  // blocks in the last wave (= a full wave when it divides)
};
Waves waves(std::int64_t blocks, int blocks_per_sm, int sm_count);

// Blocks of `kernel` that run at once on `sm_count` SMs (one wave; at least one per SM).
std::int64_t blocks_per_wave(const Kernel& kernel, const SmLimits& sm, int sm_count);

}  // namespace dse
