#include "sim/run/experiment.h"

#include "models/base/did_you_mean.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_timing_model.h"
#include "sim/gpu/kernel_calibration_io.h"
#include "sim/run/model_source.h"

namespace dse {
namespace {

std::string find_gpu_file(const ConfigNode& device, const std::string& config_file) {
  const ConfigNode& gpu = device.at("gpu", "a GPU spec name such as h200, or a .yaml file");
  const std::string value = gpu.as<std::string>();
  if (value.ends_with(".yaml")) {
    const std::string path = resolve_config_path(config_file, value);
    if (!config_file_exists(path)) gpu.fail("expected an existing GPU spec file, found no file '" + path + "'");
    return path;
  }
  const HardwareCatalog catalog = HardwareCatalog::for_experiment(config_file);
  if (const auto path = catalog.find("gpu", value)) return *path;
  const auto names = catalog.names("gpu");
  gpu.fail("expected a GPU spec name (" + join_names(names) + ") or a .yaml file, found " + gpu.describe() +
           did_you_mean_suffix(value, names));
}

}  // namespace

Experiment read_experiment(const ConfigNode& root, const std::string& config_file) {
  root.expect_map("an experiment: name, workload, device, output");
  Experiment experiment;
  experiment.config_file = config_file;
  experiment.name = root.param<std::string>("name").required();

  const ConfigNode& workload = root.at("workload", "a mapping with the models to run");
  workload.expect_map("the workload: models");
  const ConfigNode& models = workload.at("models", "a sequence of models");
  if (models.items().empty()) models.fail("expected at least one model, found an empty sequence");
  for (const auto& model : models.items()) experiment.models.push_back(read_model_entry(model, config_file));

  const ConfigNode& device = root.at("device", "a mapping naming the hardware, e.g. {gpu: h200}");
  device.expect_map("the hardware: gpu, timing_model, calibration");
  const std::string gpu_file = find_gpu_file(device, config_file);
  if (const ConfigNode* file = device.find("calibration")) {
    experiment.calibration_file = resolve_config_path(config_file, file->as<std::string>());
    if (!config_file_exists(experiment.calibration_file))
      file->fail("expected an existing calibration file, found no file '" + experiment.calibration_file + "'");
  }
  experiment.timing_model =
      device.param<std::string>("timing_model").one_of(GpuTimingRegistry::instance().names(), "a timing model").with_default("roofline");
  if (const ConfigNode* schedule = root.find("schedule")) {
    schedule->expect_map("the schedule: policy");
    experiment.schedule = schedule->param<std::string>("policy")
                              .one_of({"single_stream", "stream_per_model"}, "a schedule policy")
                              .with_default("single_stream");
  }
  // `output: ~` (or `-p output=`) means: write no result file.
  const ConfigNode* output = root.find("output");
  experiment.output_path = output && !output->is_null() ? output->as<std::string>() : "";
  root.check_unknown_keys();

  experiment.hardware_files.push_back({gpu_file, read_config_bytes(gpu_file)});
  experiment.gpu = read_gpu_spec(load_config_file(gpu_file));
  if (!experiment.calibration_file.empty()) {
    experiment.hardware_files.push_back({experiment.calibration_file, read_config_bytes(experiment.calibration_file)});
    experiment.calibration = read_kernel_calibration(load_config_file(experiment.calibration_file));
  }
  experiment.timing = GpuTimingRegistry::instance().find(experiment.timing_model)->factory(
      experiment.gpu, experiment.calibration, experiment.calibration_file);
  experiment.resolved_yaml = to_yaml(root);
  return experiment;
}

}  // namespace dse
