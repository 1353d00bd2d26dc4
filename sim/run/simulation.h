// Runs an experiment on its device: a GPU (sim/run/gpu_simulation.h) or an accelerator
// (sim/run/accel_simulation.h).
#pragma once

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

// With a deadline, throws SimulationTimeout (sim/engine/engine.h) once the wall clock passes it.
RunResult run_experiment(const Experiment& experiment, WallDeadline deadline = std::nullopt);

}  // namespace dse
