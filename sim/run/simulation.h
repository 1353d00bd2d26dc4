// Runs an experiment on its device (sim/device/device.h).
#pragma once

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

// With a deadline, throws SimulationTimeout (sim/engine/engine.h) once the wall clock passes it.
RunResult run_experiment(const Experiment& experiment, WallDeadline deadline = std::nullopt);

}  // namespace dse
