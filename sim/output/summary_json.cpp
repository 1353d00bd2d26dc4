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
                            {"device", {{result.device_kind, result.device},
                                        {"timing_model", result.timing_model},
                                        {"calibration", result.calibration}}},
                            {"schedule", result.schedule},
                            {"models", models},
                            {"latency_ms", result.latency_ms()},
                            {"throughput_per_s", result.throughput_per_s()}};
  if (result.energy_j) summary["energy_j"] = *result.energy_j;
  if (const auto& a = result.accelerator) {
    const auto optional = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    summary["accelerator"] = {{"fusion", a->fusion},
                              {"padding", a->padding},
                              {"fusion_groups", a->fusion_groups},
                              {"area_mm2", a->area_mm2},
                              {"tdp_w", a->tdp_w},
                              {"static_w", a->static_w},
                              {"dram_bytes", a->dram_bytes},
                              {"inferences_per_s", a->inferences_per_s},
                              {"perf_per_tdp", a->perf_per_tdp},
                              {"perf_per_mm2", a->perf_per_mm2},
                              {"energy_per_inference_j", a->energy_per_inference_j},
                              {"vs_tpu_v3",
                               {{"inferences_per_s", optional(a->inferences_per_s_vs_tpu_v3)},
                                {"perf_per_tdp", optional(a->perf_per_tdp_vs_tpu_v3)},
                                {"perf_per_tdp_geomean", optional(a->perf_per_tdp_vs_tpu_v3_geomean)},
                                {"perf_per_mm2", optional(a->perf_per_mm2_vs_tpu_v3)},
                                {"energy_per_inference", optional(a->energy_per_inference_vs_tpu_v3)}}}};
  }
  summary["output"] = experiment.output_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(experiment.output_path);
  return summary;
}

}  // namespace dse
