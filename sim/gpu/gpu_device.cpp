#include "sim/gpu/gpu_device.h"

#include <algorithm>
#include <stdexcept>

#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/kernel_calibration_io.h"
#include "sim/run/experiment.h"
#include "sim/runtime/streams.h"

namespace dse {

GpuDevice::GpuDevice(GpuSpec spec, std::string timing_model, std::optional<KernelCalibration> calibration,
                     std::string calibration_file, std::vector<HardwareFile> files, RunCache* cache)
    : spec_(std::move(spec)), timing_model_(std::move(timing_model)), files_(std::move(files)) {
  const auto* entry = GpuTimingRegistry::instance().find(timing_model_);
  if (!entry) throw std::logic_error("timing model '" + timing_model_ + "' not registered");
  const auto make = [&] {
    return std::shared_ptr<const GpuTimingModel>(entry->factory(spec_, calibration, calibration_file));
  };
  if (files_.empty() || !cache) {  // a spec assembled in code: nothing identifies it to share by
    timing_ = make();
    return;
  }
  // Timing models (and the per-op kernel choices they cache) are shared between devices read from
  // the same spec file, timing model and calibration: a search's trials.
  std::string key = timing_model_ + "|" + calibration_file;
  for (const auto& file : files_) key += "|" + file.content;
  timing_ = cache->get<GpuTimingModel>("gpu timing model", 64, key, make);
}

std::shared_ptr<const Device> GpuDevice::from_config(const ConfigNode& device, const std::string& config_file,
                                                     RunCache& cache) {
  const std::string gpu_file = find_hardware_spec_file(
      device.at("gpu", "a GPU spec name such as h200, or a .yaml file"), "gpu", "GPU spec", config_file);
  std::string calibration_file;
  if (const ConfigNode* file = device.find("calibration")) {
    calibration_file = resolve_config_path(config_file, file->as<std::string>());
    if (!config_file_exists(calibration_file))
      file->fail("expected an existing calibration file, found no file '" + calibration_file + "'");
  }
  const std::string timing_model = device.param<std::string>("timing_model")
                                       .one_of(GpuTimingRegistry::instance().names(), "a timing model")
                                       .with_default("kernel");
  std::vector<HardwareFile> files = {{gpu_file, read_config_bytes(gpu_file)}};
  GpuSpec spec = read_gpu_spec(load_config_file(gpu_file));
  std::optional<KernelCalibration> calibration;
  if (!calibration_file.empty()) {
    files.push_back({calibration_file, read_config_bytes(calibration_file)});
    const ConfigNode file = load_config_file(calibration_file);
    calibration = read_kernel_calibration(file);
    // A fit to one GPU's kernels describes that GPU; a fit to several is meant to carry over.
    const auto fitted_on = kernel_calibration_fitted_on(file);
    if (fitted_on.size() == 1 && fitted_on.front() != spec.name)
      device.find("calibration")
          ->fail("expected a calibration fitted on " + spec.name + " or on several GPUs, found one fitted on " +
                 fitted_on.front() + " only (" + calibration_file +
                 "); fit one on this GPU's measurements with dse validate kernels --fit --save-calibration");
  }
  const std::string spec_name = spec.name;
  auto gpu = std::make_shared<const GpuDevice>(std::move(spec), timing_model, std::move(calibration), calibration_file,
                                               std::move(files), &cache);
  if (!calibration_file.empty() && !gpu->timing().uses_calibration())
    device.find("calibration")
        ->fail("expected no calibration with timing_model " + timing_model +
               ", which has no fitted parameters to take from it (the kernel model does: "
               "timing_model: kernel), found " +
               calibration_file);
  return gpu;
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
