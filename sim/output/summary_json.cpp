#include "sim/output/summary_json.h"

namespace dse {

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
  nlohmann::json summary = {{"experiment", result.experiment},
                            {"device", {{"gpu", result.gpu},
                                        {"timing_model", result.timing_model},
                                        {"calibration", result.calibration}}},
                            {"schedule", result.schedule},
                            {"models", models},
                            {"latency_ms", result.latency_ms()},
                            {"throughput_per_s", result.throughput_per_s()}};
  if (result.energy_j) summary["energy_j"] = *result.energy_j;
  summary["output"] = experiment.output_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(experiment.output_path);
  return summary;
}

}  // namespace dse
