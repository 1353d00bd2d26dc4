// Runs an experiment's models on an accelerator design through the discrete-event engine.
//
// Each model is prepared once (sim/accel/accel_workload.h), mapped onto the design and fused
// (sim/accel/accel_evaluator.h); its ops then run in the engine on the accelerator's two shared
// resources, the cores and the DMA path (sim/runtime/accel_executor.h), each alone taking the time
// the mapping and fusion plan give it. `single_stream` runs the models one after another;
// `stream_per_model` gives each model its own queue, so one model's memory-bound ops overlap
// another's compute-bound ones.
#pragma once

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

RunResult run_accelerator_experiment(const Experiment& experiment, WallDeadline deadline = std::nullopt);

}  // namespace dse
