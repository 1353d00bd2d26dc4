#include "sim/device/device.h"

#include "models/base/did_you_mean.h"

namespace dse {

void Device::check_models(const std::vector<ModelRequest>&, const ConfigNode&) const {}

std::optional<std::vector<std::string>> Device::supported_values(std::string_view) const { return std::nullopt; }

void Device::check_schedule(const ResolvedSchedule&, const ConfigNode*) const {}

std::shared_ptr<const Device> read_device(const ConfigNode& device, const std::string& config_file, RunCache& cache) {
  const auto kinds = DeviceRegistry::instance().names();
  std::vector<std::string> present;
  for (const auto& kind : kinds)
    if (device.peek(kind)) present.push_back(kind);
  if (present.empty())
    device.fail("expected the key of a device kind (" + join_names(kinds) +
                "), e.g. {gpu: h200} or {accelerator: tpu_v3_like}, found none");
  if (present.size() > 1)
    device.find(present[1])->fail("expected one device kind in device, found " + join_names(present));
  return DeviceRegistry::instance().find(present.front())->factory(device, config_file, cache);
}

std::vector<std::string> workload_metric_names(std::size_t model_count) {
  std::vector<std::string> names = {"latency_ms", "throughput_per_s", "tdp_w", "perf_per_tdp"};
  if (model_count > 1) {
    for (std::size_t m = 0; m < model_count; ++m) {
      names.push_back(per_model_metric("latency_ms_model<I>", m));
      names.push_back(per_model_metric("throughput_per_s_model<I>", m));
      names.push_back(per_model_metric("completion_ms_model<I>", m));
    }
  }
  return names;
}

void add_workload_metrics(RunResult& result, double tdp_w) {
  result.metrics.set("latency_ms", result.latency_ms());
  result.metrics.set("throughput_per_s", result.throughput_per_s());
  result.metrics.set("tdp_w", tdp_w);
  result.metrics.set("perf_per_tdp", result.throughput_per_s() / tdp_w);
  if (result.models.size() > 1) {  // per model of a mix, for constraints like a rate per model
    for (std::size_t m = 0; m < result.models.size(); ++m) {
      result.metrics.set(per_model_metric("latency_ms_model<I>", m), result.models[m].latency_ms());
      result.metrics.set(per_model_metric("throughput_per_s_model<I>", m), result.models[m].throughput_per_s());
      result.metrics.set(per_model_metric("completion_ms_model<I>", m), ps_to_ms(result.models[m].end_ps));
    }
  }
}

}  // namespace dse
