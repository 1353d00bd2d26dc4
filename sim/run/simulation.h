// Runs an experiment on its device (sim/device/device.h).
#pragma once

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

// With a deadline, throws SimulationTimeout (sim/engine/engine.h) once the wall clock passes it.
// A serving experiment (workload.serving) runs the serving simulation (sim/serving/serving_sim.h).
RunResult run_experiment(const Experiment& experiment, WallDeadline deadline = std::nullopt);

// The metrics run_experiment reports for this experiment, in order.
std::vector<std::string> experiment_metric_names(const Experiment& experiment);

}  // namespace dse
