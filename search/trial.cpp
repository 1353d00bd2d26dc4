#include "search/trial.h"

#include "sim/accel/accel_power_area.h"
#include "sim/config/overrides.h"
#include "sim/run/experiment.h"
#include "sim/run/simulation.h"

namespace dse {
namespace {

TrialMetrics cheap_metrics(const Experiment& experiment) {
  if (experiment.accelerator) {
    const AcceleratorPowerArea pa = accelerator_power_area(*experiment.accelerator);
    return {{"area_mm2", pa.area_mm2}, {"tdp_w", pa.tdp_w}};
  }
  return {{"tdp_w", experiment.gpu.tdp_w}};
}

}  // namespace

TrialRun run_trial(const ConfigNode& base, const std::string& config_file, const std::vector<std::string>& overrides,
                   const TrialPreCheck& precheck, WallDeadline deadline) {
  ConfigNode config = base;
  apply_overrides(config, overrides);
  const Experiment experiment = read_experiment(config, config_file);
  TrialRun run;
  run.metrics = cheap_metrics(experiment);
  if (precheck && !precheck(run.metrics)) {
    run.simulated = false;
    return run;
  }
  const RunResult result = run_experiment(experiment, deadline);
  run.metrics["latency_ms"] = result.latency_ms();
  run.metrics["throughput_per_s"] = result.throughput_per_s();
  run.metrics["perf_per_tdp"] = result.throughput_per_s() / run.metrics.at("tdp_w");
  if (result.energy_j) run.metrics["energy_j"] = *result.energy_j;
  if (result.models.size() > 1) {  // per model of a mix, for constraints like a rate per model
    for (std::size_t m = 0; m < result.models.size(); ++m) {
      run.metrics["latency_ms_model" + std::to_string(m)] = result.models[m].latency_ms();
      run.metrics["throughput_per_s_model" + std::to_string(m)] = result.models[m].throughput_per_s();
    }
  }
  if (const auto& a = result.accelerator) {
    run.metrics["inferences_per_s"] = a->inferences_per_s;
    run.metrics["perf_per_mm2"] = a->perf_per_mm2;
    run.metrics["energy_per_inference_j"] = a->energy_per_inference_j;
    if (a->perf_per_tdp_vs_tpu_v3) run.metrics["perf_per_tdp_vs_tpu_v3"] = *a->perf_per_tdp_vs_tpu_v3;
    if (a->perf_per_tdp_vs_tpu_v3_geomean)
      run.metrics["perf_per_tdp_vs_tpu_v3_geomean"] = *a->perf_per_tdp_vs_tpu_v3_geomean;
    if (a->inferences_per_s_vs_tpu_v3) run.metrics["inferences_per_s_vs_tpu_v3"] = *a->inferences_per_s_vs_tpu_v3;
    if (a->energy_per_inference_vs_tpu_v3)
      run.metrics["energy_per_inference_vs_tpu_v3"] = *a->energy_per_inference_vs_tpu_v3;
  }
  return run;
}

}  // namespace dse
