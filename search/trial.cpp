#include "search/trial.h"

#include "sim/config/overrides.h"
#include "sim/run/experiment.h"
#include "sim/run/gpu_simulation.h"

namespace dse {

TrialMetrics run_trial(const ConfigNode& base, const std::string& config_file,
                       const std::vector<std::string>& overrides) {
  ConfigNode config = base;
  apply_overrides(config, overrides);
  const Experiment experiment = read_experiment(config, config_file);
  const RunResult result = run_experiment(experiment);
  TrialMetrics metrics{{"latency_ms", result.latency_ms()}, {"throughput_per_s", result.throughput_per_s()}};
  if (result.energy_j) metrics["energy_j"] = *result.energy_j;
  return metrics;
}

}  // namespace dse
