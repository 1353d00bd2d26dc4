// How long a kernel takes on a GPU: launch overhead plus waves of blocks, each wave as long as the
// slower of its arithmetic (at the clock the GPU sustains, times an efficiency) and its DRAM traffic
// (at the datasheet bandwidth times an efficiency). The efficiencies and the overhead are what a
// calibration sets; the defaults are fitted to the NeuSight measurements (docs/validation.md).
#pragma once

#include <string>

#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/kernel.h"

namespace dse {

// The parameters a calibration carries (`dse validate kernels --fit --save-calibration` writes
// them; `device: {calibration: FILE}` loads them, see kernel_calibration_io.h).
// Defaults: the fit to all NeuSight rows (linear, bmm, layer norm, softmax on P4, P100, V100, T4,
// A100 PCIe 40GB, L4), reproduced by `scripts/update_validation_doc.sh` (docs/validation.md).
// vector_efficiency is not identifiable from those rows (their vector kernels are memory-bound)
// and keeps its starting value.
struct KernelCalibration {
  // Fraction of the SM's peak FLOP rate a GEMM main loop reaches, beyond the SIMT per-thread
  // tile's issue cost (sim/gpu/gpu_lowering.h).
  double gemm_efficiency = 0.946;
  double vector_efficiency = 0.60;   // the same for elementwise / reduction kernels
  double memory_efficiency = 0.737;  // fraction of DRAM bandwidth a streaming kernel reaches
  // Bytes per SM per clock that re-reads missing L1 but hitting L2 arrive at (the L2's slices
  // and the SMs' outstanding requests both scale with SMs x clock). Fitted: NVIDIA gives the L2's
  // peak for two of the GPUs only (A100 whitepaper: 5,120 B/clk on the A100, 2,048 on the V100,
  // 47 and 26 per SM), and a row kernel's dependent passes reach a fraction of it.
  double l2_reread_bytes_per_clock = 6.50;
  // Per kernel queued behind others on a stream: launch, ramp-up, drain. Not fitted: the
  // measurements time each op on its own, so their floor (below) hides it. CUDA.jl's documentation
  // (cuda.juliagpu.org, "Graphs") measures 80 small broadcast kernels launched one by one at 260 us,
  // 3.25 us each including their own work; 3 us here.
  double launch_overhead_us = 3.0;
  // What timing one op on its own adds in the measurement harness (PyTorch dispatch, events,
  // synchronisation): no NeuSight row is shorter than 34 us; the fit splits a short GEMM's time
  // between this floor and its blocks' fixed cost (below). Added once per measured row by
  // `dse validate kernels` and `dse validate gemm`, never in simulation, where kernels run back to
  // back.
  double timing_floor_us = 21.7;
  // Resident warps per warp scheduler that keep its lanes busy. A warp issues on one of the SM's
  // schedulers (GpuSpec::sm.warp_schedulers, each with its share of the lanes), so an SM with
  // fewer warps than schedulers leaves lanes idle: a 64-thread GEMM block alone on a Volta SM
  // reaches half its rate. Fitted (at least 1).
  double saturating_warps_per_scheduler = 1.10;
  double gemm_block_overhead_cycles = 804;  // per GEMM thread block: prologue, epilogue, C write
  // Sustained clock: NVIDIA rates a GPU's base clock as the clock it holds at its TDP under its
  // heaviest load, its densest FP16 math (tensor cores; packed FP16 on the P100). Lighter math
  // draws less, by more the further that FP16 rate outruns it, so a GEMM runs at base x headroom,
  // between the base and the boost clock, where
  //   headroom = base_clock_headroom x (FP16 rate / the GEMM's rate / 8) ^ headroom_rate_exponent
  // (rates per SM and clock; 8 is an SGEMM's ratio on the T4 and V100), clamped to [base, boost];
  // an FP16 tensor-core GEMM runs at the base clock, vector kernels at the SGEMM's clock. The clock
  // each GPU gets under the current defaults is in docs/validation.md (`dse validate kernels`
  // prints it), not here: the fitted values below change at every refit.
  double base_clock_headroom = 1.354;
  double headroom_rate_exponent = 0.278;
  // Fraction of their FP32 rate that lanes shared with INT32 (GA10x, Ada) deliver. Not fitted: the
  // NeuSight GPUs include one such GPU (L4), so a fit could not be checked on a held-out one; 0.25
  // reflects GEMM loops issuing about one integer instruction per four FMAs on those lanes.
  double shared_fp32_lane_efficiency = 0.25;
};

struct KernelTime {
  double seconds = 0;
  std::int64_t waves = 0;
  int blocks_per_sm = 0;
  std::string bound;  // "compute", "memory", "latency" (overhead dominates)
};

class KernelTimer {
 public:
  KernelTimer(GpuSpec spec, KernelCalibration calibration);

  const GpuSpec& spec() const { return spec_; }
  const KernelCalibration& calibration() const { return calibration_; }
  // The clock an SGEMM sustains (see base_clock_headroom).
  double sustained_clock_mhz() const { return clock_mhz_; }
  // The clock sustained by math running at `flops_per_clock` per SM: the heavier (denser) the
  // math, the closer to the base clock.
  double clock_for_rate_mhz(double flops_per_clock) const;
  // The clock a GEMM in `compute_type` runs at (its math's rate, as time() takes it).
  double gemm_clock_mhz(const std::string& compute_type) const;
  // FP32 FLOPs per SM per clock an SGEMM main loop gets: every FP32 lane, those shared with INT32
  // (GA10x, Ada) at shared_fp32_lane_efficiency.
  double sgemm_flops_per_clock() const;
  // FLOPs per SM per clock of a kernel's math: `compute_type` on tensor cores if `matrix` and the
  // GPU has them for it, else on CUDA cores (FP32 as an SGEMM gets it).
  double flops_per_clock(const std::string& compute_type, bool matrix) const;
  KernelTime time(const Kernel& kernel) const;

 private:
  GpuSpec spec_;
  KernelCalibration calibration_;
  double densest_fp16_flops_per_clock_;  // the heaviest load's math, per SM and clock
  double clock_mhz_;                     // an SGEMM's
};

}  // namespace dse
