#include "sim/run/simulation.h"

#include <stdexcept>

namespace dse {

RunResult run_experiment(const Experiment& experiment, WallDeadline deadline) {
  if (!experiment.device) throw std::logic_error("experiment '" + experiment.name + "' has no device");
  return experiment.device->run(experiment, deadline);
}

}  // namespace dse
