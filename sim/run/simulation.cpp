#include "sim/run/simulation.h"

#include "sim/run/accel_simulation.h"
#include "sim/run/gpu_simulation.h"

namespace dse {

RunResult run_experiment(const Experiment& experiment, WallDeadline deadline) {
  return experiment.accelerator ? run_accelerator_experiment(experiment, deadline) : run_gpu_experiment(experiment, deadline);
}

}  // namespace dse
