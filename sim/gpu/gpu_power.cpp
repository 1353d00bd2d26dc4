#include "sim/gpu/gpu_power.h"

#include "sim/device/voltage_curve.h"

#include <algorithm>
#include <cmath>

namespace dse {

// Sources:
//   [AW]  V. Kandiah et al., "AccelWattch: A Power Modeling Framework for Modern GPUs", MICRO 2021,
//         and its code (accel-sim-framework; gpgpu-sim src/accelwattch/gpgpu_sim_wrapper.cc: static
//         power scaled by V / V_ref, dynamic by (V / V_ref)^2; configs/tested-cfgs/SM7_QV100/
//         accelwattch_sass_sim.xml: constant_power 32.3 W for the 250 W Quadro GV100).
//   [OC]  M. O'Connor et al., "Fine-Grained DRAM: Energy-Efficient DRAM for Extreme Bandwidth
//         Systems", MICRO 2017, Fig. 1 and Table 3: HBM2 3.97 pJ/bit, GDDR5 14 pJ/bit.
//   [MU]  Micron, "Ultra-bandwidth solutions" (micron.com/products/ultra-bandwidth-solutions),
//         average device energy: GDDR6 7.5, GDDR6X 7.25, HBM2E 6.0 pJ/bit.
//   [NV]  NVIDIA GPU Boost: the base clock is the clock a GPU holds at its TDP under its heaviest
//         load (docs/power.md quotes it; every spec's clocks_mhz.base).

const GpuVoltageCurve& gpu_voltage_curve() {
  // The shape of a published 16 nm chip's operating points (sim/device/voltage_curve.h: 0.70 V at
  // 38 % of its top clock to 1.10 V at the top), with the boost clock at the top: NVIDIA publishes
  // no voltage/frequency curve for these GPUs (NVML's voltage readings of recent boards lie between
  // about 0.7 and 1.1 V). What a power-limited clock depends on is the curve's shape and the ratio
  // of its ends, not the volts. Leakage: [AW]'s constant power of the Quadro GV100, 32.3 W of its
  // 250 W TDP (13 %), which also holds what does not leak; dse scales it with V, as [AW] does, and
  // charges a busy GPU what it adds above the idle voltage (the measured idle draw holds the rest).
  // Temperature is not modelled: the leakage is that of a GPU at its operating temperature.
  static const GpuVoltageCurve curve{kCurveMinVolts, kCurveMaxVolts, 0.13};
  return curve;
}

double dram_energy_j_per_byte(DramType type) {
  const auto pj_per_bit = [type] {
    switch (type) {
      case DramType::gddr5: return 14.0;   // [OC]
      case DramType::gddr5x: return 14.0;  // no figure found: GDDR5's, its predecessor [OC]
      case DramType::gddr6: return 7.5;    // [MU]
      case DramType::gddr6x: return 7.25;  // [MU]
      case DramType::hbm2: return 3.97;    // [OC]
      case DramType::hbm2e:
        return 6.0;  // [MU]
      // No primary figure found for HBM3 or HBM3e: HBM2E's [MU], an upper bound (each generation
      // has lowered the energy per bit).
      case DramType::hbm3:
      case DramType::hbm3e: return 6.0;
    }
    return 6.0;
  }();
  return pj_per_bit * 8 * 1e-12;
}

double estimated_idle_w(const GpuSpec& spec) {
  // The median idle / TDP of the eight specs with a measured idle draw (a10 0.105, a100_sxm4_80gb
  // 0.213, h100_sxm 0.099, h200 0.119, l4 0.229, p100_pcie 0.105, t4 0.383, v100_sxm2 0.148). The
  // readings added after the default calibration was fitted with this estimate for the GPUs without
  // one (rtx_a6000 0.077, a40 0.082, v100_pcie 0.092, a100_pcie_40gb 0.128) would make it 0.112; it
  // stays 0.134 so that fit holds.
  constexpr double kMedianIdleOfTdp = 0.134;
  return kMedianIdleOfTdp * spec.tdp_w;
}

namespace {

// The densest FP16 math of a GPU per SM and clock, and whether it is on tensor cores: tensor cores,
// or packed FP16 on CUDA cores (the P100's), or FP32 where FP16 is slower still (the P4's).
std::pair<double, bool> densest_fp16(const GpuSpec& spec) {
  const double fp32 = spec.cuda_core_flops_per_clock.at("fp32");
  const double tensor =
      spec.tensor_core_flops_per_clock.contains("fp16") ? spec.tensor_core_flops_per_clock.at("fp16") : 0.0;
  const double packed = spec.cuda_core_flops_per_clock.contains("fp16") ? spec.cuda_core_flops_per_clock.at("fp16") : 0;
  if (tensor >= std::max(fp32, packed)) return {tensor, true};
  return {std::max(fp32, packed), false};
}

}  // namespace

GpuPowerModel::GpuPowerModel(const GpuSpec& spec, GpuPowerFit fit) : spec_(spec), fit_(fit) {
  idle_w_ = spec.idle_w.value_or(estimated_idle_w(spec));
  std::tie(densest_flops_per_clock_, densest_on_tensor_cores_) = densest_fp16(spec);
  fp32_flops_per_clock_ = spec.cuda_core_flops_per_clock.at("fp32");
  // [NV]: at the base clock, activity 1 and no DRAM traffic the board draws its TDP. A spec whose
  // idle and leakage leave nothing of the TDP still gets a dynamic term (5 % of the TDP).
  const double v_base = voltage_v(spec.base_clock_mhz) / gpu_voltage_curve().max_v;
  const double dynamic_at_base = std::max(0.05 * spec.tdp_w, spec.tdp_w - idle_w_ - busy_static_w(spec.base_clock_mhz));
  full_activity_w_ = dynamic_at_base / (v_base * v_base * spec.base_clock_mhz / spec.boost_clock_mhz);
}

double GpuPowerModel::voltage_v(double clock_mhz) const {
  return voltage_at_clock_share(clock_mhz / spec_.boost_clock_mhz);
}

double GpuPowerModel::busy_static_w(double clock_mhz) const {
  // Leakage goes with V ([AW]); the idle draw already holds it at the idle voltage (V_min), so a busy
  // GPU adds what the higher voltage adds.
  const GpuVoltageCurve& curve = gpu_voltage_curve();
  return curve.leakage_of_tdp * spec_.tdp_w * (voltage_v(clock_mhz) - curve.min_v) / curve.max_v;
}

double GpuPowerModel::activity(const KernelLoad& load, double clock_mhz) const {
  if (load.seconds <= 0) return 0;
  // Energy of one of the kernel's FLOPs relative to one densest FLOP. Every unit at full rate draws
  // alike whatever its type (a tensor core at TF32 does half the FP16 FLOPs for the same energy;
  // packed FP16 on a CUDA core does two FMAs per instruction), so the energy per FLOP goes with
  // the inverse of the unit's rate. CUDA cores at full rate draw what the densest math does on
  // GPUs whose densest math is on CUDA cores, and simt_tensor_energy_ratio x their FP32 rate /
  // the tensor-core rate of it on GPUs with tensor cores (the spec's own ratio where it cites a
  // measurement, the calibration's otherwise).
  // A tensor-core FLOP costs the spec's tensor_energy_scale times what the TDP anchor gives it (1
  // unless a measured tensor-core GEMM says otherwise); simt_tensor_energy_ratio is relative to it.
  double relative_energy = 1;
  const auto rate = spec_.flops_per_clock_per_sm(load.compute_type, load.tensor_cores);
  const double unit_rate = rate.value_or(fp32_flops_per_clock_);
  const double tensor_scale = densest_on_tensor_cores_ ? spec_.tensor_energy_scale : 1.0;
  if (load.tensor_cores) {
    relative_energy = tensor_scale * densest_flops_per_clock_ / unit_rate;
  } else {
    const double fp32 = fp32_flops_per_clock_;
    const double ratio = spec_.simt_tensor_energy_ratio.value_or(fit_.simt_tensor_energy_ratio);
    const double full_rate_power =
        densest_on_tensor_cores_ ? tensor_scale * ratio * fp32 / densest_flops_per_clock_ : 1.0;
    relative_energy = full_rate_power * densest_flops_per_clock_ / unit_rate;
  }
  const double densest_rate = densest_flops_per_clock_ * spec_.sm_count * clock_mhz * 1e6;  // FLOP/s
  const double math = load.flops / load.seconds * relative_energy / densest_rate;
  const double share = std::clamp(fit_.active_sm_share, 0.0, 1.0);
  return share * std::clamp(load.sm_share, 0.0, 1.0) + (1 - share) * math;
}

double GpuPowerModel::kernel_dynamic_w(const KernelLoad& load, double clock_mhz) const {
  if (load.seconds <= 0) return 0;
  const double v = voltage_v(clock_mhz) / gpu_voltage_curve().max_v;
  const double sm_w = full_activity_w_ * v * v * clock_mhz / spec_.boost_clock_mhz * activity(load, clock_mhz);
  const double dram_w = dram_energy_j_per_byte(spec_.memory_type) * load.dram_bytes / load.seconds;
  return sm_w + dram_w;
}

double GpuPowerModel::board_w(const KernelLoad& load, double clock_mhz) const {
  return held_idle_w(clock_mhz) + kernel_dynamic_w(load, clock_mhz);
}

}  // namespace dse
