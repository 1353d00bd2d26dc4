// Area, power and energy of an accelerator design (sim/accel/accel_spec.h): components counted from
// the spec, priced with 45 nm figures from the literature (each named in accel_power_area.cpp), and
// anchored by three factors to one real chip, TPU-v3 at 16 nm (die area, measured idle and maximum
// power, TDP), as FAST calibrated its models; the factors also carry what the component list leaves
// out (control, clock tree, wires, I/O, PHYs). The supply voltage follows the clock on a 16 nm V-f
// curve. The equations and their derivation: docs/accelerator.md ("Area, power and energy").
#pragma once

#include "sim/accel/accel_spec.h"

namespace dse {

// Dynamic energy of one event, joules, after calibration.
struct AcceleratorEnergy {
  double mac_j = 0;          // one multiply-accumulate of the native dtype
  double vector_op_j = 0;    // one fp32 vector-lane operation
  double l1_byte_j = 0;      // one byte read or written in a core's L1
  double global_byte_j = 0;  // one byte read or written in the global buffer
  double dram_byte_j = 0;    // one byte to or from DRAM (the spec's energy_pj_per_bit)
};

// The supply voltage of the template's logic at `clock_mhz` (sources in accel_power_area.cpp), and
// the highest clock the curve reaches (at 1.10 V).
double accelerator_voltage_v(double clock_mhz);
double accelerator_max_clock_mhz();
// The clock below which the curve's supply stops falling (its lowest voltage, 0.70 V): slower
// levels save power only in proportion to the clock.
double accelerator_min_voltage_clock_mhz();

struct AcceleratorPowerArea {
  double voltage_v = 0;        // the logic supply at the spec's clock
  double mac_area_mm2 = 0;     // all arrays
  double vector_area_mm2 = 0;  // all vector units
  double sram_area_mm2 = 0;    // all L1s and the global buffer
  double area_mm2 = 0;         // the die
  double static_w = 0;
  double peak_dynamic_w = 0;  // every array, vector lane, SRAM port and the DRAM at full rate
  double tdp_w = 0;
  AcceleratorEnergy energy;
};

AcceleratorPowerArea accelerator_power_area(const AcceleratorSpec& spec);

// The published TPU-v3 figures the model is anchored to (sources in accel_power_area.cpp).
struct TpuV3Reference {
  double die_area_mm2;
  double idle_power_w;
  double max_power_w;
  double tdp_w;
};
TpuV3Reference tpu_v3_reference();

}  // namespace dse
