// Were some measured rows timed at the boost clock and others at the clock the power limit holds?
// A harness that times one op at a time (NeuSight's) records no clock, and on a power-limited GPU
// the firmware may grant a row the boost clock (its window still has room) or hold it. dse predicts
// the held clock, as a loop runs. Each row dse holds below boost is offered a second prediction,
// its kernels at the boost clock, and the nearer of the two is kept: an oracle on the unrecorded
// state. Any second choice lowers an oracle's error, so a control offers a state as much slower
// instead (each kernel at clock^2 / boost): only a gap between the two says the data hold a fast
// state. Rows of one per-item shape (batch_scaling_floor.h) that fall in both states show it is
// not the shape.
#pragma once

#include <map>
#include <string>

#include "hwcal/kernel_measurements.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

struct ClockStateSummary {
  std::size_t held_rows = 0;         // rows whose kernels dse holds below the boost clock
  std::size_t nearer_boost = 0;      // of those, the rows nearer their time at the boost clock
  double model_mape_pct = 0;         // dse's MAPE over the held rows
  double either_state_mape_pct = 0;  // each row at the nearer of dse's time and its time at boost
  double control_mape_pct = 0;       // each row at the nearer of dse's time and a state as much slower
  std::size_t shapes = 0;            // per-item shapes with three or more held rows
  std::size_t shapes_in_both = 0;    // of those, the shapes with rows nearer each state
};

// device -> op -> summary, over the rows dse holds below boost (devices and ops with none are left out).
using ClockStateTable = std::map<std::string, std::map<std::string, ClockStateSummary>>;
ClockStateTable evaluate_clock_states(const std::map<std::string, DeviceRows>& devices,
                                      const KernelCalibration& calibration);

}  // namespace dse
