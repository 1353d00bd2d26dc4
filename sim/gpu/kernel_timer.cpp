#include "sim/gpu/kernel_timer.h"

#include <algorithm>
#include <cmath>

#include "models/base/ceil_div.h"

namespace dse {

namespace {

// The densest FP16 math the GPU has, FLOPs per SM per clock: tensor cores, or packed FP16 on CUDA
// cores (the P100's), or FP32 where FP16 is slower still (the P4's).
double densest_fp16_flops_per_clock(const GpuSpec& spec) {
  return std::max({spec.cuda_core_flops_per_clock.at("fp32"), spec.flops_per_clock_per_sm("fp16", true).value_or(0),
                   spec.flops_per_clock_per_sm("fp16", false).value_or(0)});
}

// The densest-FP16 / kernel rate ratio at which the headroom is base_clock_headroom: an SGEMM on
// the T4 or V100.
constexpr double kReferenceRateRatio = 8.0;

}  // namespace

KernelTimer::KernelTimer(GpuSpec spec, KernelCalibration calibration)
    : spec_(std::move(spec)),
      calibration_(calibration),
      densest_fp16_flops_per_clock_(densest_fp16_flops_per_clock(spec_)),
      clock_mhz_(clock_for_rate_mhz(sgemm_flops_per_clock())) {}

double KernelTimer::clock_for_rate_mhz(double flops_per_clock) const {
  const double rate_ratio = densest_fp16_flops_per_clock_ / flops_per_clock;
  const double headroom = calibration_.base_clock_headroom *
                          std::pow(rate_ratio / kReferenceRateRatio, calibration_.headroom_rate_exponent);
  return std::clamp(spec_.base_clock_mhz * headroom, spec_.base_clock_mhz, spec_.boost_clock_mhz);
}

double KernelTimer::sgemm_flops_per_clock() const {
  // 2 flops per lane per clock; the shared lanes deliver only part of theirs.
  return spec_.cuda_core_flops_per_clock.at("fp32") -
         2.0 * spec_.fp32_lanes_shared_with_int32 * (1.0 - calibration_.shared_fp32_lane_efficiency);
}

double KernelTimer::gemm_clock_mhz(const std::string& compute_type) const {
  return clock_for_rate_mhz(flops_per_clock(compute_type, true));
}

double KernelTimer::flops_per_clock(const std::string& compute_type, bool matrix) const {
  const bool on_cuda_cores =
      !(matrix && compute_type != "fp32" && spec_.tensor_core_flops_per_clock.contains(compute_type));
  return on_cuda_cores && compute_type == "fp32"
             ? sgemm_flops_per_clock()
             : spec_.flops_per_clock_per_sm(compute_type, matrix).value_or(spec_.cuda_core_flops_per_clock.at("fp32"));
}

KernelTime KernelTimer::time(const Kernel& kernel) const {
  KernelTime result;
  const Occupancy fit = occupancy(kernel, spec_.sm);
  const int blocks_per_sm = std::max(1, fit.blocks_per_sm);
  const Waves w = waves(kernel.blocks, blocks_per_sm, spec_.sm_count);
  result.waves = w.count;
  result.blocks_per_sm = blocks_per_sm;

  const double per_clock = flops_per_clock(kernel.compute_type, kernel.matrix);
  const double efficiency = kernel.matrix ? calibration_.gemm_efficiency : calibration_.vector_efficiency;
  // A GEMM's math sets its clock (an FP16 tensor-core GEMM is the heaviest load: the base clock);
  // everything else runs at the SGEMM's.
  const double clock_mhz = kernel.matrix ? clock_for_rate_mhz(per_clock) : clock_mhz_;
  const double sm_rate = per_clock * clock_mhz * 1e6 * efficiency;  // FLOP/s of one busy SM
  const double bandwidth = spec_.dram_bandwidth_gbps * 1e9 * calibration_.memory_efficiency;
  const double block_flops = kernel.flops / static_cast<double>(std::max<std::int64_t>(1, kernel.blocks));
  const double block_bytes = kernel.dram_bytes / static_cast<double>(std::max<std::int64_t>(1, kernel.blocks));
  const double l2_bandwidth = calibration_.l2_reread_bytes_per_clock * spec_.sm_count * clock_mhz * 1e6;
  const double block_l2_seconds =
      kernel.l2_hit_bytes / l2_bandwidth / static_cast<double>(std::max<std::int64_t>(1, kernel.blocks));
  const int warps_per_block = (kernel.threads_per_block + 31) / 32;

  // One wave with `blocks` blocks spread over the SMs.
  double compute_total = 0, memory_total = 0;
  const auto wave_time = [&](std::int64_t blocks) {
    const std::int64_t per_sm = ceil_div(blocks, spec_.sm_count);  // on the busiest SM
    const double warps = static_cast<double>(per_sm * warps_per_block);
    const double latency_hiding =
        std::min(1.0, warps / (spec_.sm.warp_schedulers * calibration_.saturating_warps_per_scheduler));
    const double block_overhead_s = kernel.matrix ? calibration_.gemm_block_overhead_cycles / (clock_mhz * 1e6) : 0.0;
    const double compute = static_cast<double>(per_sm) * (block_flops / (sm_rate * latency_hiding) + block_overhead_s);
    const double memory = static_cast<double>(blocks) * (block_bytes / bandwidth + block_l2_seconds);
    compute_total += compute;
    memory_total += memory;
    return std::max(compute, memory);
  };
  const std::int64_t full = static_cast<std::int64_t>(blocks_per_sm) * spec_.sm_count;
  double seconds = 0;
  if (w.count > 1) seconds += static_cast<double>(w.count - 1) * wave_time(full);
  if (w.count > 1) {
    compute_total *= static_cast<double>(w.count - 1);
    memory_total *= static_cast<double>(w.count - 1);
  }
  seconds += wave_time(w.tail_blocks);
  const double overhead = calibration_.launch_overhead_us * 1e-6;
  result.seconds = overhead + seconds;
  result.bound = overhead > seconds ? "latency" : compute_total >= memory_total ? "compute" : "memory";
  return result;
}

}  // namespace dse
