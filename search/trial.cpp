#include "search/trial.h"

#include "sim/config/overrides.h"
#include "sim/run/experiment.h"
#include "sim/run/simulation.h"

namespace dse {
namespace {

void add_metrics(TrialMetrics& out, const MetricTable& metrics) {
  for (const auto& entry : metrics.entries()) out[entry.name] = entry.value;
}

}  // namespace

TrialRun run_trial(const ConfigNode& base, const std::string& config_file, const std::vector<std::string>& overrides,
                   const TrialPreCheck& precheck, WallDeadline deadline, std::shared_ptr<RunCache> cache) {
  ConfigNode config = base;
  apply_overrides(config, overrides);
  const Experiment experiment = read_experiment(config, config_file, std::move(cache));
  TrialRun run;
  add_metrics(run.metrics, experiment.device->cheap_metrics());
  if (precheck && !precheck(run.metrics)) {
    run.simulated = false;
    return run;
  }
  add_metrics(run.metrics, run_experiment(experiment, deadline).metrics);
  return run;
}

}  // namespace dse
