#include "sim/gpu/kernel_timer.h"

#include <algorithm>
#include <cmath>

#include "models/base/ceil_div.h"
#include "sim/gpu/dram_activation_model.h"
#include "sim/gpu/translation_model.h"

namespace dse {

KernelTimer::KernelTimer(GpuSpec spec, KernelCalibration calibration)
    : spec_(std::move(spec)),
      calibration_(calibration),
      power_(spec_, {calibration_.simt_tensor_energy_ratio, calibration_.active_sm_power_share}),
      clock_table_mhz_(spec_.clock_table_mhz()) {}

double KernelTimer::sgemm_flops_per_clock() const {
  // 2 flops per lane per clock; the shared lanes deliver only part of theirs.
  return spec_.cuda_core_flops_per_clock.at("fp32") -
         2.0 * spec_.fp32_lanes_shared_with_int32 * (1.0 - calibration_.shared_fp32_lane_efficiency);
}

double KernelTimer::gemm_clock_mhz(const std::string& compute_type) const {
  // An 8,192-cube GEMM on 128 x 128 tiles of 256 threads: compute-bound on every GPU here.
  constexpr double kSide = 8192;
  Kernel gemm;
  gemm.name = "reference_gemm";
  gemm.blocks = static_cast<std::int64_t>((kSide / 128) * (kSide / 128));
  gemm.threads_per_block = 256;
  gemm.registers_per_thread = 128;
  gemm.shared_bytes_per_block = 2 * (128 + 128) * 8 * 4;
  gemm.flops = 2 * kSide * kSide * kSide;
  gemm.dram_bytes = 3 * kSide * kSide * 4;
  gemm.compute_type = compute_type;
  gemm.matrix = true;
  return time(gemm).clock_mhz;
}

double KernelTimer::flops_per_clock(const std::string& compute_type, bool matrix) const {
  const bool on_cuda_cores =
      !(matrix && compute_type != "fp32" && spec_.tensor_core_flops_per_clock.contains(compute_type));
  return on_cuda_cores && compute_type == "fp32"
             ? sgemm_flops_per_clock()
             : spec_.flops_per_clock_per_sm(compute_type, matrix).value_or(spec_.cuda_core_flops_per_clock.at("fp32"));
}

bool KernelTimer::on_tensor_cores(const Kernel& kernel) const {
  return kernel.matrix && kernel.compute_type != "fp32" &&
         spec_.tensor_core_flops_per_clock.contains(kernel.compute_type);
}

KernelTime KernelTimer::time(const Kernel& kernel) const { return time(kernel, GpuOperatingPoint::defaults(spec_)); }

double KernelTimer::seconds(const std::vector<Kernel>& kernels) const {
  double sum = 0;
  for (const Kernel& kernel : kernels) sum += time(kernel).seconds;
  return sum;
}

KernelTime KernelTimer::time(const Kernel& kernel, const GpuOperatingPoint& point) const {
  const double low = clock_table_mhz_.back();
  const double cap = std::max(low, std::min(point.clock_cap_mhz, spec_.boost_clock_mhz));
  const auto excess_w = [&](double mhz) { return board_w(kernel, time_at(kernel, mhz)) - point.power_limit_w; };
  return time_at(kernel, firmware_clock(excess_w, low, cap).mhz);
}

KernelLoad KernelTimer::load(const Kernel& kernel, const KernelTime& t) const {
  KernelLoad load;
  load.seconds = t.seconds;
  load.flops = kernel.flops;
  load.compute_type = kernel.compute_type;
  load.tensor_cores = on_tensor_cores(kernel);
  load.dram_bytes = kernel.dram_bytes;
  load.sm_share = std::min(1.0, static_cast<double>(kernel.blocks) / spec_.sm_count);
  return load;
}

double KernelTimer::board_w(const Kernel& kernel, const KernelTime& t) const {
  return power_.board_w(load(kernel, t), t.clock_mhz);
}

double KernelTimer::translation_s(const Kernel& kernel, std::int64_t blocks_per_sm, double clock_mhz) const {
  const double steps = kernel.gemm_footprint.steps();
  if (!spec_.l1_tlb || steps <= 0) return 0;
  const TlbPressure p = tlb_pressure(kernel, *spec_.l1_tlb, spec_.sm_count, blocks_per_sm);
  return steps * p.miss_share * p.row_reads_per_sm * calibration_.tlb_miss_cycles_per_row / (clock_mhz * 1e6);
}

double KernelTimer::dram_activation_s(const Kernel& kernel) const {
  if (!spec_.dram_activation) return 0;
  return dram_activations(kernel, *spec_.dram_activation) / spec_.dram_activation->activations_per_s();
}

KernelTime KernelTimer::time_at(const Kernel& kernel, double clock_mhz) const {
  KernelTime result;
  result.clock_mhz = clock_mhz;
  const Occupancy fit = occupancy(kernel, spec_.sm);
  const int blocks_per_sm = std::max(1, fit.blocks_per_sm);
  const Waves w = waves(kernel.blocks, blocks_per_sm, spec_.sm_count);
  result.waves = w.count;
  result.blocks_per_sm = blocks_per_sm;

  const double per_clock = flops_per_clock(kernel.compute_type, kernel.matrix);
  // A SIMT GEMM on an architecture with its own published efficiency (GpuSpec::simt_gemm_efficiency).
  const double simt_gemm = kernel.matrix && !on_tensor_cores(kernel) ? spec_.simt_gemm_efficiency.value_or(1.0) : 1.0;
  const double efficiency = kernel.matrix ? calibration_.gemm_efficiency * simt_gemm : calibration_.vector_efficiency;
  const double sm_rate = per_clock * clock_mhz * 1e6 * efficiency;  // FLOP/s of one busy SM
  const double bandwidth = dram_bytes_per_s();
  const double block_count = static_cast<double>(std::max<std::int64_t>(1, kernel.blocks));
  const double block_flops = kernel.flops / block_count;
  const double block_bytes = kernel.dram_bytes / block_count;
  // A SIMT GEMM on an architecture whose blocks store their C tile after their main loop with
  // nothing else running (GpuSpec::simt_gemm_exposed_store_share): that share of the store adds to
  // the wave's compute time, at the DRAM's stream rate.
  const double block_exposed_store_bytes =
      kernel.matrix && !on_tensor_cores(kernel)
          ? spec_.simt_gemm_exposed_store_share.value_or(0.0) * kernel.store_bytes / block_count
          : 0.0;
  // A GEMM's DRAM traffic moves no faster than its devices open the rows it reads
  // (sim/gpu/dram_activation_model.h; 0 without GpuSpec::dram_activation).
  const double block_activation_s = dram_activation_s(kernel) / block_count;
  const double l2_bandwidth = calibration_.l2_reread_bytes_per_clock * spec_.sm_count * clock_mhz * 1e6;
  const double block_l2_seconds = kernel.l2_hit_bytes / l2_bandwidth / block_count;
  const int warps_per_block = (kernel.threads_per_block + 31) / 32;

  // One wave with `blocks` blocks spread over the SMs.
  double compute_total = 0, memory_total = 0;
  const auto wave_time = [&](std::int64_t blocks) {
    const std::int64_t per_sm = ceil_div(blocks, spec_.sm_count);  // on the busiest SM
    const double warps = static_cast<double>(per_sm * warps_per_block);
    const double latency_hiding =
        std::min(1.0, warps / (spec_.sm.warp_schedulers * calibration_.saturating_warps_per_scheduler));
    const double block_overhead_s = kernel.matrix ? calibration_.gemm_block_overhead_cycles / (clock_mhz * 1e6) : 0.0;
    // The SM's blocks share its lanes; their row reads that miss the TLB are translated meanwhile.
    const double block_loop_s = block_flops / (sm_rate * latency_hiding);
    const double loops = std::max(static_cast<double>(per_sm) * block_loop_s, translation_s(kernel, per_sm, clock_mhz));
    const double compute = loops + static_cast<double>(per_sm) * block_overhead_s +
                           static_cast<double>(blocks) * block_exposed_store_bytes / bandwidth;
    const double memory =
        static_cast<double>(blocks) * (std::max(block_bytes / bandwidth, block_activation_s) + block_l2_seconds);
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
