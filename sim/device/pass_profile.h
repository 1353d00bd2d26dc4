// What serving asks of a device (sim/serving/batch_cost_table.h), the same for every device kind:
// the operating points a governor may set it to, and what one pass of a workload costs alone on it
// at one of them, with its power split as a board draws it (idle, leakage at the clock, switching).
#pragma once

namespace dse {

// One setting of a device's clock knob: a GPU's SM application clock (an entry of its driver's
// table); an accelerator's clock/voltage level (its V-f table, sim/accel/accel_power_area.h).
struct OperatingPoint {
  double clock_mhz = 0;
  double supply_v = 0;  // the logic supply the device's power model gives that clock, V
};

// One pass alone on the device at one operating point.
struct PassProfile {
  double latency_s = 0;
  double idle_w = 0;        // the device powered and idle at its lowest supply, W
  double static_w = 0;      // leakage the pass's clock adds over idle_w (held between passes at that clock), W
  double dynamic_w = 0;     // the pass's switching and memory power, time-averaged over latency_s, W
  double device_share = 1;  // the share of the device the pass fills alone (1: it saturates it)
  double dram_bytes = 0;    // DRAM bytes the pass moves
  double clock_mhz = 0;     // the clock it ran at (a power limit may hold a GPU below the point's)

  double power_w() const { return idle_w + static_w + dynamic_w; }
  double energy_j() const { return power_w() * latency_s; }
};

}  // namespace dse
