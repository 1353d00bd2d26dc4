// Board power of a GPU while kernels run (watts), from what they do and the SM clock f they run at,
// and the clock the firmware's power limit holds them to:
//
//   P = P_idle + busy x P_leak x (V(f) - V_min) / V_max
//         + sum over running kernels of  kappa x (V(f) / V_max)^2 x (f / f_boost) x A
//                                      + E_dram x (DRAM bytes per second)
//
// docs/power.md ("The GPU power model") explains each term; gpu_power.cpp names each coefficient's
// source.
#pragma once

#include <string>
#include <vector>

#include "sim/gpu/gpu_spec.h"

namespace dse {

// Voltage/frequency curve and leakage, the same for every architecture (no per-GPU curve is
// published; sources and caveats in gpu_power.cpp).
struct GpuVoltageCurve {
  double min_v = 0;           // core voltage at low clocks
  double max_v = 0;           // at the boost clock
  double leakage_of_tdp = 0;  // leakage at V_max, as a share of TDP
};
const GpuVoltageCurve& gpu_voltage_curve();

// Energy of one DRAM byte moved, joules (sourced per technology in gpu_power.cpp).
double dram_energy_j_per_byte(DramType type);

// Idle power when the spec has no measured idle draw: 0.134 x TDP, the median idle/TDP of the eight
// specs that had a measured draw when the default calibration was fitted (gpu_power.cpp lists them).
double estimated_idle_w(const GpuSpec& spec);

// What one kernel does over its time at one clock, as the power model needs it.
struct KernelLoad {
  double seconds = 0;  // its duration at that clock
  double flops = 0;
  std::string compute_type = "fp32";
  bool tensor_cores = false;  // its math runs on tensor cores
  double dram_bytes = 0;
  double sm_share = 1;  // share of the SMs that hold its blocks
};

// The two power parameters no datasheet gives (KernelCalibration carries them: the ratio fitted,
// the share from AccelWattch).
struct GpuPowerFit {
  // Energy of one FP32 FLOP on the CUDA cores over one FP16 FLOP on the tensor cores.
  double simt_tensor_energy_ratio = 0;
  // Share of activity 1 that an SM holding blocks draws whatever it computes.
  double active_sm_share = 0;
};

class GpuPowerModel {
 public:
  GpuPowerModel(const GpuSpec& spec, GpuPowerFit fit);

  const GpuSpec& spec() const { return spec_; }
  // V(f): the shape of a published 16 nm chip's operating points (sim/device/voltage_curve.h) with
  // the boost clock at its top.
  double voltage_v(double clock_mhz) const;
  double idle_w() const { return idle_w_; }
  bool idle_measured() const { return spec_.idle_w.has_value(); }
  // Leakage a GPU held at `clock_mhz` adds over its idle draw (while kernels run, and between them).
  // The idle draw holds the leakage at V_min; leakage scales with V (AccelWattch's scaling).
  double busy_static_w(double clock_mhz) const;
  // A GPU that a process holds in P0 at `clock_mhz` with nothing running: the idle draw and that
  // clock's leakage (an H200 drew 124 W there against 80 W with no process, docs/power.md).
  double held_idle_w(double clock_mhz) const { return idle_w_ + busy_static_w(clock_mhz); }
  // What one kernel adds while it runs alone: its SMs' dynamic power and its DRAM traffic.
  double kernel_dynamic_w(const KernelLoad& load, double clock_mhz) const;
  // The board while `load` runs alone: idle + busy static + the kernel's dynamic power.
  double board_w(const KernelLoad& load, double clock_mhz) const;
  // kappa: dynamic power of activity 1 at V_max and the boost clock, what the spec's TDP leaves at
  // the base clock (the TDP anchor, docs/power.md).
  double full_activity_w() const { return full_activity_w_; }
  // A kernel's activity A: 1 for the GPU's densest FP16 math at full rate on every SM; a share
  // (active_sm_share) per SM that holds blocks (clock tree, schedulers, register file and L1
  // traffic) plus its FLOPs per second weighted by their energy relative to the densest FLOP.
  double activity(const KernelLoad& load, double clock_mhz) const;

 private:
  GpuSpec spec_;
  GpuPowerFit fit_;
  double idle_w_ = 0;
  double densest_flops_per_clock_ = 0;  // per SM
  double fp32_flops_per_clock_ = 0;     // per SM, CUDA cores
  bool densest_on_tensor_cores_ = false;
  double full_activity_w_ = 0;
};

// The clock at which a power that rises with the clock meets the limit: the root of excess_w
// (board power - limit) between `low` (excess < 0) and `high` (excess > 0), by the Illinois
// method to `tolerance` of the clock, so that the clock moves smoothly with the model's parameters
// (the fit differentiates through it). The last clock evaluated is the one returned. The firmware
// alternates between the table entries around it; over its averaging window the clock averages to this.
template <typename Excess>
double power_limited_clock_mhz(const Excess& excess_w, double low, double at_low, double high, double at_high,
                               double tolerance) {
  int side = 0;
  double mid = low;
  for (int i = 0; i < 100 && high - low > tolerance * high; ++i) {
    mid = (low * at_high - high * at_low) / (at_high - at_low);
    const double at_mid = excess_w(mid);
    if (at_mid == 0) return mid;
    if ((at_mid > 0) == (at_high > 0)) {
      high = mid;
      at_high = at_mid;
      if (side == 1) at_low /= 2;
      side = 1;
    } else {
      low = mid;
      at_low = at_mid;
      if (side == -1) at_high /= 2;
      side = -1;
    }
  }
  return mid;
}

// The firmware's power limit: over its averaging window the SM clock is the highest the limit
// allows, at or below the cap (the locked or boost clock) and at or above the driver table's lowest
// entry (GpuSpec::clock_table_mhz). So: the cap if its power fits the limit; else the table's lowest
// clock if even that does not fit; else where the power meets the limit. `excess_w(clock)` is power
// minus limit at that clock. dse applies it to a kernel measured on its own (a loop of one kernel)
// and to a run's pass, or each window of a longer pass (gpu_device.h).
enum class ClockHeld { fits_at_cap, over_at_floor, by_limit };
struct FirmwareClock {
  double mhz = 0;
  ClockHeld held = ClockHeld::fits_at_cap;
  double excess_at_cap_w = 0;
  double excess_at_floor_w = 0;  // evaluated only when the cap does not fit
};
template <typename Excess>
FirmwareClock firmware_clock(const Excess& excess_w, double floor_mhz, double cap_mhz, double tolerance = 1e-9) {
  FirmwareClock out;
  out.excess_at_cap_w = excess_w(cap_mhz);
  if (out.excess_at_cap_w <= 0) {
    out.mhz = cap_mhz;
    return out;
  }
  out.excess_at_floor_w = excess_w(floor_mhz);
  if (out.excess_at_floor_w >= 0) {
    out.mhz = floor_mhz;
    out.held = ClockHeld::over_at_floor;
    return out;
  }
  out.mhz =
      power_limited_clock_mhz(excess_w, floor_mhz, out.excess_at_floor_w, cap_mhz, out.excess_at_cap_w, tolerance);
  out.held = ClockHeld::by_limit;
  return out;
}

}  // namespace dse
