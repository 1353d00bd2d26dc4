#include "sim/run/simulation.h"

#include <stdexcept>

#include "sim/serving/serving_metrics.h"
#include "sim/serving/serving_sim.h"

namespace dse {

RunResult run_experiment(const Experiment& experiment, WallDeadline deadline) {
  if (!experiment.device) throw std::logic_error("experiment '" + experiment.name + "' has no device");
  if (experiment.serving) return run_serving(experiment, deadline);
  return experiment.device->run(experiment, deadline);
}

std::vector<std::string> experiment_metric_names(const Experiment& experiment) {
  return experiment.serving ? serving_metric_names(experiment)
                            : experiment.device->metric_names(experiment.models.size());
}

}  // namespace dse
