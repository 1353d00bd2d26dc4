// Runs an experiment's models on a GPU through the discrete-event engine.
//
// Today's execution model: one CUDA stream; the models run one after another, each op of a model in
// topological order, each op taking what the timing model says. Streams, concurrency and
// kernel-level lowering come with the GPU execution model (docs/design notes in sim/gpu).
#pragma once

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

RunResult run_experiment(const Experiment& experiment);

}  // namespace dse
