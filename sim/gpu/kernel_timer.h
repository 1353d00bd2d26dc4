// How long a kernel takes on a GPU: launch overhead plus waves of blocks, each wave as long as the
// slower of its arithmetic (at the clock the GPU sustains, times an efficiency) and its DRAM traffic
// (at the datasheet bandwidth times an efficiency). The efficiencies and the overhead are what a
// calibration sets; the defaults are fitted to the NeuSight measurements (docs/validation.md).
#pragma once

#include <string>

#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/kernel.h"

namespace dse {

// The parameters a calibration carries (hwcal writes them; `device.calibration` will load them).
struct KernelCalibration {
  double gemm_efficiency = 0.80;       // fraction of the SM's peak FLOP rate a GEMM main loop reaches
  double vector_efficiency = 0.60;     // the same for elementwise / reduction kernels
  double memory_efficiency = 0.80;     // fraction of DRAM bandwidth a streaming kernel reaches
  double launch_overhead_us = 5.0;     // launch, ramp-up and drain of one kernel
  double saturating_warps = 8;         // resident warps per SM needed to hide latency
  // Sustained clock: the full-load power of an SM at `f` is watts_per_sm_ghz x (node / 7 nm) x f
  // (GHz); the clock is the highest in [base, boost] that keeps all SMs within the TDP.
  double watts_per_sm_ghz = 1.0;
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
  double sustained_clock_mhz() const { return clock_mhz_; }
  KernelTime time(const Kernel& kernel) const;

 private:
  GpuSpec spec_;
  KernelCalibration calibration_;
  double clock_mhz_;
};

}  // namespace dse
