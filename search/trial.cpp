#include "search/trial.h"

#include "sim/config/overrides.h"
#include "sim/run/experiment.h"
#include "sim/run/simulation.h"

namespace dse {

TrialMetrics run_trial(const ConfigNode& base, const std::string& config_file,
                       const std::vector<std::string>& overrides) {
  ConfigNode config = base;
  apply_overrides(config, overrides);
  const Experiment experiment = read_experiment(config, config_file);
  const RunResult result = run_experiment(experiment);
  TrialMetrics metrics{{"latency_ms", result.latency_ms()}, {"throughput_per_s", result.throughput_per_s()}};
  if (result.energy_j) metrics["energy_j"] = *result.energy_j;
  if (const auto& a = result.accelerator) {
    metrics["area_mm2"] = a->area_mm2;
    metrics["tdp_w"] = a->tdp_w;
    metrics["inferences_per_s"] = a->inferences_per_s;
    metrics["perf_per_tdp"] = a->perf_per_tdp;
    metrics["perf_per_mm2"] = a->perf_per_mm2;
    metrics["energy_per_inference_j"] = a->energy_per_inference_j;
    if (a->perf_per_tdp_vs_tpu_v3) metrics["perf_per_tdp_vs_tpu_v3"] = *a->perf_per_tdp_vs_tpu_v3;
    if (a->inferences_per_s_vs_tpu_v3) metrics["inferences_per_s_vs_tpu_v3"] = *a->inferences_per_s_vs_tpu_v3;
  }
  return metrics;
}

}  // namespace dse
