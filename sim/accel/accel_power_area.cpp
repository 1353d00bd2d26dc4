#include "sim/accel/accel_power_area.h"

#include "sim/device/voltage_curve.h"

#include <algorithm>
#include <cmath>

namespace dse {
namespace {

// ---- 45 nm component figures --------------------------------------------------------------------
// [H14] M. Horowitz, "Computing's energy problem (and what we can do about it)", ISSCC 2014, the
//       45 nm energy and area table: 8b mult 0.2 pJ / 282 um^2; 32b int add 0.1 pJ / 137 um^2;
//       16b FP mult 1.1 pJ / 1640 um^2; 32b FP add 0.9 pJ / 4184 um^2; 32b FP mult 3.7 pJ /
//       7700 um^2; SRAM read of 64 bits: 8 KB 10 pJ, 32 KB 20 pJ, 1 MB 100 pJ.
// [M07] K. Mistry et al., "A 45nm logic technology with high-k + metal gate transistors ...",
//       IEDM 2007: 6T SRAM cell 0.346 um^2.
struct MacFigure {
  double energy_pj;
  double area_um2;
};

// A MAC multiplies in the native type and accumulates in 32 bits [H14].
MacFigure mac_figure(DType dtype) {
  switch (dtype) {
    case DType::int8: return {0.2 + 0.1, 282 + 137};    // 8b mult + 32b int add
    case DType::fp32: return {3.7 + 0.9, 7700 + 4184};  // 32b FP mult + 32b FP add
    default:
      return {1.1 + 0.9, 1640 + 4184};  // 16b FP mult + 32b FP add (bf16 and fp16;
                                        // bf16's 8-bit mantissa makes this an upper bound)
  }
}

// A vector lane is a 32-bit FP multiply-add unit [H14]; one operation is priced as one FMA.
constexpr MacFigure kVectorLane{3.7 + 0.9, 7700 + 4184};

// SRAM area per KiB: [M07] cell x 8192 bits x 1.5 for decoders, sense amplifiers and wiring (the
// 1.5 is an assumption: no public periphery figure at hand; the area factor below absorbs the rest).
constexpr double kSramUm2PerKib = 0.346 * 8192 * 1.5;

// SRAM access energy per byte: [H14]'s three points (1.25, 2.5, 12.5 pJ/B at 8 KB, 32 KB, 1 MB)
// follow 1.25 x sqrt(size / 8 KB) within 13 %. Large memories are built from banks; a bank is taken
// as at most 1 MiB (assumption), so a larger buffer costs what 1 MiB does per access.
double sram_pj_per_byte(std::int64_t bytes) {
  const double bank = std::clamp<double>(static_cast<double>(bytes), 8.0 * 1024, 1024.0 * 1024);
  return 1.25 * std::sqrt(bank / (8.0 * 1024));
}

// ---- Supply voltage against clock ---------------------------------------------------------------
// The shape of a published 16 nm chip's operating points (sim/device/voltage_curve.h), placed with
// TPU-v3's 940 MHz at the curve's 0.80 V point (an assumption: TPU-v3's voltage is not published;
// 0.8 V is the 16 nm node's nominal supply): a clock f runs at the voltage the curve gives the same
// ratio to 940 MHz, flat at 0.70 V below it. Dynamic energy per event scales with (V / 0.80 V)^2,
// static power with V / 0.80 V (the scaling AccelWattch applies to GPUs); the TPU-v3 anchors stay
// as they are, at 940 MHz and 0.80 V.
constexpr double kAnchorClockMhz = 940;         // TPU-v3 [J21]
constexpr double kAnchorShare = 1421.0 / 2362;  // the curve's 0.80 V point, as a share of its top
constexpr double kAnchorVolts = 0.80;

}  // namespace

double accelerator_max_clock_mhz() { return kAnchorClockMhz / kAnchorShare; }

double accelerator_min_voltage_clock_mhz() { return kCurveMinVoltsClockShare * kAnchorClockMhz / kAnchorShare; }

double accelerator_voltage_v(double clock_mhz) {
  return voltage_at_clock_share(clock_mhz / kAnchorClockMhz * kAnchorShare);
}

namespace {

// ---- TPU-v3, the anchor -------------------------------------------------------------------------
// [J21] N. Jouppi et al., "Ten Lessons From Three Generations Shaped Google's TPUv4i", ISCA 2021,
//       Table 1: TPUv3 16 nm, 940 MHz, die < 700 mm^2 (the upper bound is used), TDP 450 W.
// [GC]  Google Cloud, "TPU v3" (cloud.google.com/tpu/docs/v3): per chip 123 TFLOPS bf16, 32 GiB HBM2
//       at 900 GBps, measured min/mean/max power 123/220/262 W.
constexpr TpuV3Reference kTpuV3{700.0, 123.0, 262.0, 450.0};

// TPU-v3 as the template sees it (configs/hardware/accel/tpu_v3_like.yaml says why each value).
AcceleratorSpec tpu_v3_spec() {
  AcceleratorSpec spec;
  spec.name = "tpu_v3";
  spec.clock_mhz = 940;
  spec.dtype = DType::bf16;
  spec.cores_x = 2;
  spec.cores_y = 2;
  spec.array = {128, 128, Dataflow::weight_stationary};
  spec.vector_lanes = 512;
  spec.l1_bytes = std::int64_t{8} << 20;
  spec.global_buffer_bytes = 0;
  spec.dram_bandwidth_gbps = 900;
  spec.dram_capacity_gib = 32;
  spec.dram_energy_pj_per_bit = 3.9;
  return spec;
}

struct Uncalibrated {
  double mac_mm2, vector_mm2, sram_mm2;
  AcceleratorEnergy energy_45nm;  // on-chip events at 45 nm; DRAM as the spec says
  double peak_onchip_w;           // 45 nm on-chip dynamic power at full activity
  double peak_dram_w;
};

Uncalibrated count_components(const AcceleratorSpec& spec) {
  Uncalibrated u{};
  const double cores = spec.cores();
  const double pes = cores * static_cast<double>(spec.array.rows * spec.array.cols);
  const double lanes = cores * static_cast<double>(spec.vector_lanes);
  const MacFigure mac = mac_figure(spec.dtype);
  u.mac_mm2 = pes * mac.area_um2 * 1e-6;
  u.vector_mm2 = lanes * kVectorLane.area_um2 * 1e-6;
  const double sram_kib =
      (cores * static_cast<double>(spec.l1_bytes) + static_cast<double>(spec.global_buffer_bytes)) / 1024;
  u.sram_mm2 = sram_kib * kSramUm2PerKib * 1e-6;

  u.energy_45nm.mac_j = mac.energy_pj * 1e-12;
  u.energy_45nm.vector_op_j = kVectorLane.energy_pj * 1e-12;
  u.energy_45nm.l1_byte_j = sram_pj_per_byte(spec.l1_bytes) * 1e-12;
  u.energy_45nm.global_byte_j = spec.global_buffer_bytes > 0 ? sram_pj_per_byte(spec.global_buffer_bytes) * 1e-12 : 0;
  u.energy_45nm.dram_byte_j = spec.dram_energy_pj_per_bit * 8 * 1e-12;

  // Full activity: every PE does a MAC each cycle while the array's edges move one operand element
  // per row and per column and one 32-bit partial sum per column through L1; every lane operates;
  // the global buffer moves what the network carries; DRAM streams at its bandwidth.
  const double hz = spec.clock_hz();
  const double l1_bytes_per_cycle =
      cores *
      (static_cast<double>(spec.array.rows + spec.array.cols) * dtype_bytes(spec.dtype) + 4.0 * spec.array.cols);
  u.peak_onchip_w = hz * (pes * u.energy_45nm.mac_j + lanes * u.energy_45nm.vector_op_j +
                          l1_bytes_per_cycle * u.energy_45nm.l1_byte_j) +
                    spec.noc_bytes_per_s() * u.energy_45nm.global_byte_j;
  u.peak_dram_w = spec.dram_bytes_per_s() * u.energy_45nm.dram_byte_j;
  return u;
}

struct Factors {
  double area;  // die mm^2 per mm^2 of 45 nm components
  double static_w_per_mm2;
  double dynamic;       // 16 nm on-chip energy per 45 nm component energy, overheads included
  double tdp_per_peak;  // TDP per modelled peak power
};

Factors calibrate() {
  const Uncalibrated u = count_components(tpu_v3_spec());
  Factors f{};
  f.area = kTpuV3.die_area_mm2 / (u.mac_mm2 + u.vector_mm2 + u.sram_mm2);
  f.static_w_per_mm2 = kTpuV3.idle_power_w / kTpuV3.die_area_mm2;
  f.dynamic = (kTpuV3.max_power_w - kTpuV3.idle_power_w - u.peak_dram_w) / u.peak_onchip_w;
  f.tdp_per_peak = kTpuV3.tdp_w / kTpuV3.max_power_w;
  return f;
}

const Factors& factors() {
  static const Factors f = calibrate();
  return f;
}

}  // namespace

TpuV3Reference tpu_v3_reference() { return kTpuV3; }

AcceleratorPowerArea accelerator_power_area(const AcceleratorSpec& spec) {
  const Factors& f = factors();
  const Uncalibrated u = count_components(spec);
  AcceleratorPowerArea out;
  out.voltage_v = accelerator_voltage_v(spec.clock_mhz);
  const double v = out.voltage_v / kAnchorVolts;  // the supply relative to TPU-v3's
  out.mac_area_mm2 = f.area * u.mac_mm2;
  out.vector_area_mm2 = f.area * u.vector_mm2;
  out.sram_area_mm2 = f.area * u.sram_mm2;
  out.area_mm2 = out.mac_area_mm2 + out.vector_area_mm2 + out.sram_area_mm2;
  out.static_w = f.static_w_per_mm2 * out.area_mm2 * v;
  out.peak_dynamic_w = f.dynamic * v * v * u.peak_onchip_w + u.peak_dram_w;
  out.tdp_w = f.tdp_per_peak * (out.static_w + out.peak_dynamic_w);
  const double on_chip = f.dynamic * v * v;  // DRAM's energy is the DRAM's, not the logic supply's
  out.energy = {on_chip * u.energy_45nm.mac_j, on_chip * u.energy_45nm.vector_op_j, on_chip * u.energy_45nm.l1_byte_j,
                on_chip * u.energy_45nm.global_byte_j, u.energy_45nm.dram_byte_j};
  return out;
}

}  // namespace dse
