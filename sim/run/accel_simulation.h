// Runs an experiment's models on an accelerator design through the discrete-event engine.
//
// Each model is prepared once (sim/accel/accel_workload.h), mapped onto the design and fused
// (sim/accel/accel_evaluator.h); its ops then run on the accelerator's op queue, one at a time on
// all cores, for the time the mapping and fusion plan give them. `single_stream` runs the models one
// after another; `stream_per_model` interleaves their ops round-robin.
#pragma once

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

RunResult run_accelerator_experiment(const Experiment& experiment, WallDeadline deadline = std::nullopt);

}  // namespace dse
