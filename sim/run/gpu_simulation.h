// Runs an experiment's models on a GPU through the discrete-event engine.
//
// Each op becomes the kernels the timing model lowers it to; kernels go to CUDA-like streams
// (sim/runtime) by the experiment's schedule: `single_stream` runs the models one after another,
// `stream_per_model` gives each model its own stream so their kernels overlap and share the GPU.
#pragma once

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

RunResult run_gpu_experiment(const Experiment& experiment, WallDeadline deadline = std::nullopt);

}  // namespace dse
