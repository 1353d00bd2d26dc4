#include "sim/gpu/gpu_device.h"

#include <algorithm>
#include <stdexcept>

#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/run/experiment.h"
#include "sim/runtime/streams.h"

namespace dse {

GpuDevice::GpuDevice(GpuSpec spec, std::string timing_model, const ConfigNode& device, const std::string& config_file,
                     std::vector<HardwareFile> files, RunCache* cache)
    : spec_(std::move(spec)), timing_model_(std::move(timing_model)), files_(std::move(files)) {
  const auto* entry = GpuTimingRegistry::instance().find(timing_model_);
  if (!entry) throw std::logic_error("timing model '" + timing_model_ + "' not registered");
  timing_ = entry->factory(spec_, {device, config_file, files_, cache});
}

GpuDevice::GpuDevice(GpuSpec spec, std::string timing_model)
    : GpuDevice(std::move(spec), std::move(timing_model), ConfigNode::map({}), "", {}) {}

std::shared_ptr<const Device> GpuDevice::from_config(const ConfigNode& device, const std::string& config_file,
                                                     RunCache& cache) {
  const std::string gpu_file = find_hardware_spec_file(
      device.at("gpu", "a GPU spec name such as h200, or a .yaml file"), "gpu", "GPU spec", config_file);
  const std::string timing_model = device.param<std::string>("timing_model")
                                       .one_of(GpuTimingRegistry::instance().names(), "a timing model")
                                       .with_default("kernel");
  GpuSpec spec = read_gpu_spec(load_config_file(gpu_file));
  return std::make_shared<const GpuDevice>(std::move(spec), timing_model, device, config_file,
                                           std::vector<HardwareFile>{{gpu_file, read_config_bytes(gpu_file)}}, &cache);
}

MetricTable GpuDevice::cheap_metrics() const {
  MetricTable metrics;
  metrics.set("tdp_w", spec_.tdp_w);
  return metrics;
}

std::vector<std::string> GpuDevice::metric_names(std::size_t model_count) const {
  return workload_metric_names(model_count);
}

RunResult GpuDevice::run(const Experiment& experiment, WallDeadline deadline) const {
  RunResult result;
  result.experiment = experiment.name;
  result.device_kind = kind();
  result.device = spec_.name;
  result.timing_model = timing_model_;
  result.calibration = timing_->calibration();
  result.schedule = schedule_name(experiment.schedule);

  Engine engine;
  engine.set_deadline(deadline);
  GpuExecutor gpu(engine, timing_->dram_bandwidth_bytes_per_s());
  StreamRuntime runtime(engine, gpu);
  const bool per_model = experiment.schedule == Schedule::stream_per_model;
  const int shared_stream = runtime.create_stream();

  // Enqueue every kernel up front, as a host thread launching asynchronously would; rows are
  // filled in as the kernels run.
  for (std::size_t m = 0; m < experiment.models.size(); ++m) {
    const ModelRequest& request = experiment.models[m];
    const Graph& graph = *request.graph;
    result.models.push_back({request.name, request.params, graph.total_cost(), graph.ops().size(), -1, 0});
    const int stream = per_model && m > 0 ? runtime.create_stream() : shared_stream;
    for (const OpId id : graph.topological_order()) {
      const Op& op = graph.op(id);
      const auto kernels = timing_->kernels(graph, op);
      for (std::size_t k = 0; k < kernels.size(); ++k) {
        result.ops.push_back({m, op.name, kernels[k].name, op.kind, graph.tensor(op.output).shape, stream, 0, 0,
                              k == 0 ? op.cost : OpCost{}, kernels[k].dram_bytes, kernels[k].bound});
        const std::size_t row = result.ops.size() - 1;
        runtime.launch(stream, kernels[k], [&result, row](TimePs start, TimePs end) {
          result.ops[row].start_ps = start;
          result.ops[row].end_ps = end;
        });
      }
    }
  }
  engine.schedule_at(0, [&runtime] { runtime.start(); });
  engine.run();

  result.close_timeline();
  std::stable_sort(result.ops.begin(), result.ops.end(),
                   [](const OpRecord& a, const OpRecord& b) { return a.start_ps < b.start_ps; });
  add_workload_metrics(result, spec_.tdp_w);
  return result;
}

DSE_REGISTER_FACTORY(Device, "gpu", "A GPU from its datasheet spec, timed per kernel (device.timing_model)",
                     GpuDevice::from_config)

}  // namespace dse
