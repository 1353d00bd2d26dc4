// How a GEMM's main loop fares with the SMs' L1 TLBs (GpuSpec::l1_tlb). In each k step a block
// reads one short segment of each of its A rows (and of its B rows when B is read transposed);
// rows far apart lie in different pages. When the pages the blocks on the SMs sharing a TLB read
// in one step outnumber its entries, a share of the reads misses (1 - entries / pages, as for
// pages reused in a cycle longer than the TLB) and each missing row read waits for its translation.
// The missing reads are translated one row at a time: each costs its SM tlb_miss_cycles_per_row
// (KernelCalibration), whatever its page, so the stall grows with the rows a step reads, not with
// their pages (NeuSight's P100 linear rows of reduction 30,522 and 50,272 run at the same
// 2.1 TFLOPS, docs/validation.md). The SM's loop takes the longer of its arithmetic and its
// translations.
#pragma once

#include <cstdint>

#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/kernel.h"

namespace dse {

struct TlbPressure {
  double pages = 0;             // distinct pages the TLB's resident blocks read in one k step
  double miss_share = 0;        // of their row reads, the share that misses
  double row_reads_per_sm = 0;  // row reads per k step on one SM (its resident blocks')
};

// The first `sharing` SMs' resident blocks of a wave: SM s holds blocks s, s + sm_count, ...
// (`blocks_per_sm` of them, fewer where the grid ends).
TlbPressure tlb_pressure(const Kernel& kernel, const L1Tlb& tlb, int sm_count, std::int64_t blocks_per_sm);

}  // namespace dse
