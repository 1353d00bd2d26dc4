// One reading of a device's board power and clock, the one sample type of every power record. In a
// run's power series (RunResult::power) it holds from time_ps until the next sample; as a sensor
// reading (a serving run's sensor, a calibration session's board samples) it is the mean over the
// sensor's period ending at time_ps, as nvidia-smi's power.draw is.
#pragma once

#include "sim/engine/engine.h"

namespace dse {

struct PowerSample {
  TimePs time_ps = 0;
  double power_w = 0;
  double clock_mhz = 0;  // a GPU's SM clock, an accelerator's clock level; 0 for a device without one
  double time_s() const { return static_cast<double>(time_ps) * 1e-12; }
};

}  // namespace dse
