#include "sim/output/summary_json.h"

namespace dse {

nlohmann::json metrics_json(const MetricTable& metrics) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& entry : metrics.entries()) out[entry.name] = entry.value;
  return out;
}

nlohmann::json summary_json(const Experiment& experiment, const RunResult& result) {
  nlohmann::json models = nlohmann::json::array();
  for (const auto& model : result.models) {
    models.push_back({{"name", model.name},
                      {"batch", model.params.batch},
                      {"dtype", std::string(dtype_name(model.params.dtype))},
                      {"ops", model.op_count},
                      {"params", model.total.params},
                      {"macs", model.total.macs},
                      {"flops", model.total.flops},
                      {"latency_ms", model.latency_ms()},
                      {"throughput_per_s", model.throughput_per_s()}});
  }
  nlohmann::json device = {{"kind", result.device_kind},
                           {"name", result.device},
                           {"timing_model", result.timing_model},
                           {"calibration", result.calibration}};
  for (const auto& [key, value] : result.device_settings) device[key] = value;
  return {
      {"experiment", result.experiment},
      {"device", device},
      {"schedule", result.schedule},
      {"schedule_summary", result.schedule_summary},
      {"models", models},
      {"metrics", metrics_json(result.metrics)},
      {"output", experiment.output_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(experiment.output_path)}};
}

}  // namespace dse
