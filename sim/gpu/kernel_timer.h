// How long a kernel takes on a GPU: launch overhead plus waves of blocks, each wave as long as the
// slower of its arithmetic (at the clock the GPU sustains, times an efficiency) and its DRAM traffic
// (at the bandwidth a streaming kernel reaches on this GPU, times an efficiency). The efficiencies and the overhead are
// what a calibration sets; the defaults are fitted to the NeuSight measurements (docs/validation.md).
#pragma once

#include <string>
#include <vector>

#include "sim/gpu/gpu_power.h"
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
  double gemm_efficiency = 0.961;
  double vector_efficiency = 0.60;  // the same for elementwise / reduction kernels
  // Fraction of the GPU's stream bandwidth (GpuSpec::stream_bandwidth_bytes_per_s: the datasheet
  // figure times the share a streaming kernel was measured to reach) that the kernels' DRAM traffic
  // gets. 1 in the defaults, not fitted: the spec's measurement is what a streaming kernel reaches
  // (fitted to the NeuSight rows it came to 0.94 and left every elementwise row 7-9 % slow). A
  // calibration session fits it to its own GPU. Before the specs carried measured stream shares
  // this was `memory_efficiency`, a share of the datasheet bandwidth (0.737 fitted for every GPU);
  // files with that key are refused.
  double stream_efficiency = 1.0;
  // Bytes per SM per clock that re-reads missing L1 but hitting L2 arrive at (the L2's slices
  // and the SMs' outstanding requests both scale with SMs x clock). Fitted: NVIDIA gives the L2's
  // peak for two of the GPUs only (A100 whitepaper: 5,120 B/clk on the A100, 2,048 on the V100,
  // 47 and 26 per SM), and a row kernel's dependent passes reach a fraction of it.
  double l2_reread_bytes_per_clock = 5.09;
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
  double timing_floor_us = 27.7;
  // Resident warps per warp scheduler that keep its lanes busy. A warp issues on one of the SM's
  // schedulers (GpuSpec::sm.warp_schedulers, each with its share of the lanes), so an SM with
  // fewer warps than schedulers leaves lanes idle: a 64-thread GEMM block alone on a Volta SM
  // reaches half its rate. Fitted (at least 1).
  double saturating_warps_per_scheduler = 1.24;
  double gemm_block_overhead_cycles = 943;  // per GEMM thread block: prologue, epilogue, C write
  // The power model's parameters (sim/gpu/gpu_power.h) that no datasheet gives. The energy of one
  // FP32 FLOP on CUDA cores over one FP16 FLOP on tensor cores is fitted: it sets the clock of a
  // power-limited SGEMM (on the T4, L4 and A100 PCIe between base and boost; the clocks each GPU
  // gets are in docs/validation.md, `dse validate kernels` prints them). The share of full activity
  // an SM holding blocks draws whatever it computes is not: AccelWattch's Quadro GV100 fit
  // (configs/tested-cfgs/SM7_QV100/accelwattch_sass_sim.xml, idle_core_power 0.283 W per SM, 80
  // SMs: 22.6 W) is 0.106 of that GPU's activity-1 power in this model (docs/power.md). Fitted with
  // the ratio it wandered (0.01-0.42 held out) and put the held-out A100's bmm at 28.7 % (4.9 % under the clock law).
  double simt_tensor_energy_ratio = 4.79;
  double active_sm_power_share = 0.106;
  // Fraction of their FP32 rate that lanes shared with INT32 (GA10x, Ada) deliver in GEMM loops.
  // Fitted: of the NeuSight GPUs only the L4's rows depend on it (0.43).
  double shared_fp32_lane_efficiency = 0.43;
  // What a fit without such a GPU (leave-one-out holding out the L4) starts from and keeps: the
  // rate at which the fit's loss is least on an RTX A6000's published cuBLAS SGEMM loops of 0.1 ms
  // or more (N = 1,024-4,096; siboehm/SGEMM_CUDA, tests/data/public/rtx_a6000_cublas_sgemm.csv),
  // with every other parameter at its default (scripts/fit_shared_lane_prior.sh; 0.41 with the five
  // other GPUs' fit too). The A40's and L4's PyTorch 2.9-2.11 matmuls, a later cuBLAS, are predicted
  // 10-25 % slow at N >= 2,048 and are not used (docs/power.md). It was 0.25, an
  // estimate (one integer instruction per four FMAs on those lanes), before.
  static constexpr double kSharedFp32LaneEfficiencyPrior = 0.41;
  // Cycles an SM spends per row read of a GEMM's k step that misses its L1 TLB
  // (sim/gpu/translation_model.h); only GPUs with a measured TLB (the P100) depend on it. Not
  // fitted with the others: the best on NeuSight's P100 training linear rows
  // (tests/data/neusight/train_linear_p100.csv, which no other fit reads; scripts/fit_tlb_miss.sh),
  // so the P100's test rows score it out of sample. 15 per SM is 7.5 per L1 TLB (two SMs share
  // one): as if the TLB looked up its misses one at a time, each as long as the step a lone
  // pointer chase takes when it leaves the L1 TLB, 4-8 cycles (Karnagel et al.'s P100 results,
  // configs/hardware/gpu/p100_pcie.yaml).
  double tlb_miss_cycles_per_row = 15;
  static constexpr double kTlbMissCyclesPerRowPrior = 15;
};

struct KernelTime {
  double seconds = 0;
  double clock_mhz = 0;  // the SM clock it ran at
  std::int64_t waves = 0;
  int blocks_per_sm = 0;
  std::string bound;  // "compute", "memory", "latency" (overhead dominates)
};

// The clock a GPU is allowed (the device block's sm_clock_mhz and power_limit_w): kernels run at
// the highest table clock at or below the cap whose power fits the limit.
struct GpuOperatingPoint {
  double clock_cap_mhz = 0;  // a locked clock, or the boost clock
  double power_limit_w = 0;  // the firmware's limit (default: the TDP)
  static GpuOperatingPoint defaults(const GpuSpec& spec) { return {spec.boost_clock_mhz, spec.tdp_w}; }
};

class KernelTimer {
 public:
  KernelTimer(GpuSpec spec, KernelCalibration calibration);

  const GpuSpec& spec() const { return spec_; }
  const KernelCalibration& calibration() const { return calibration_; }
  const GpuPowerModel& power() const { return power_; }
  // The clock a large GEMM in `compute_type` on tensor cores where the GPU has them (CUDA cores for
  // fp32) sustains on its own at the default operating point; sustained_clock_mhz() is an SGEMM's.
  double gemm_clock_mhz(const std::string& compute_type) const;
  double sustained_clock_mhz() const { return gemm_clock_mhz("fp32"); }
  // FP32 FLOPs per SM per clock an SGEMM main loop gets: every FP32 lane, those shared with INT32
  // (GA10x, Ada) at shared_fp32_lane_efficiency.
  double sgemm_flops_per_clock() const;
  // FLOPs per SM per clock of a kernel's math: `compute_type` on tensor cores if `matrix` and the
  // GPU has them for it, else on CUDA cores (FP32 as an SGEMM gets it).
  double flops_per_clock(const std::string& compute_type, bool matrix) const;
  bool on_tensor_cores(const Kernel& kernel) const;
  // Bytes per second the kernels' DRAM traffic moves at: the spec's stream bandwidth times
  // stream_efficiency.
  double dram_bytes_per_s() const { return spec_.stream_bandwidth_bytes_per_s() * calibration_.stream_efficiency; }
  // The kernel alone at the clock the firmware grants it at `point` (default: boost, TDP), as a
  // loop of it runs: the highest table clock whose power fits.
  KernelTime time(const Kernel& kernel) const;
  KernelTime time(const Kernel& kernel, const GpuOperatingPoint& point) const;
  // The kernels one after another, each at the clock time() grants it.
  double seconds(const std::vector<Kernel>& kernels) const;
  // The kernel alone at `clock_mhz`.
  KernelTime time_at(const Kernel& kernel, double clock_mhz) const;
  // What the power model needs of the kernel run at `t`'s clock.
  KernelLoad load(const Kernel& kernel, const KernelTime& t) const;
  // Board power while the kernel runs alone at `t`'s clock.
  double board_w(const Kernel& kernel, const KernelTime& t) const;
  // How long an SM of a GEMM's wave spends translating its blocks' row reads that miss its L1
  // TLB (sim/gpu/translation_model.h; 0 without GpuSpec::l1_tlb): the main loops take the longer
  // of that and their arithmetic.
  double translation_s(const Kernel& kernel, std::int64_t blocks_per_sm, double clock_mhz) const;
  // How long the GPU's DRAM devices take to open the rows a GEMM reads (sim/gpu/
  // dram_activation_model.h; 0 without GpuSpec::dram_activation): its traffic takes at least that.
  double dram_activation_s(const Kernel& kernel) const;

 private:
  GpuSpec spec_;
  KernelCalibration calibration_;
  GpuPowerModel power_;
  std::vector<double> clock_table_mhz_;
};

}  // namespace dse
