#include "sim/run/experiment.h"

#include "models/base/did_you_mean.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_timing_model.h"

namespace dse {
namespace {

ModelRequest read_model(const ConfigNode& node) {
  node.expect_map("a model: name, batch, dtype, resolution, seq_len, phase, past_len");
  ModelRequest model;
  model.name = node.param<std::string>("name").one_of(ModelRegistry::instance().names(), "a model name").required();
  model.params.batch = node.param<int>("batch").in_range(1, kMaxBatch).with_default(1);
  const std::string dtype = node.param<std::string>("dtype").one_of(compute_dtype_names(), "a dtype").with_default("fp32");
  model.params.dtype = *parse_dtype(dtype);
  model.params.resolution = node.param<int>("resolution").in_range(kMinResolution, kMaxResolution).with_default(0);
  model.params.seq_len = node.param<int>("seq_len").in_range(1, kMaxSeqLen).with_default(0);
  model.params.decode =
      node.param<std::string>("phase").one_of({"prefill", "decode"}, "a phase").with_default("prefill") == "decode";
  model.params.past_len = node.param<int>("past_len").in_range(0, kMaxSeqLen).with_default(0);
  // Shapes the architecture cannot take (a resolution below its down-sampling, a sequence beyond
  // its positions) are user errors at the model's entry.
  try {
    ModelRegistry::instance().find(model.name)->factory(model.params);
  } catch (const std::invalid_argument& error) {
    node.fail(std::string("expected parameters the model can be built with, found: ") + error.what());
  }
  return model;
}

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
  for (const auto& model : models.items()) experiment.models.push_back(read_model(model));

  const ConfigNode& device = root.at("device", "a mapping naming the hardware, e.g. {gpu: h200}");
  device.expect_map("the hardware: gpu, timing_model");
  const std::string gpu_file = find_gpu_file(device, config_file);
  experiment.timing_model =
      device.param<std::string>("timing_model").one_of(GpuTimingRegistry::instance().names(), "a timing model").with_default("roofline");
  // `output: ~` (or `-p output=`) means: write no result file.
  const ConfigNode* output = root.find("output");
  experiment.output_path = output && !output->is_null() ? output->as<std::string>() : "";
  root.check_unknown_keys();

  experiment.hardware_files.push_back({gpu_file, read_config_bytes(gpu_file)});
  experiment.gpu = read_gpu_spec(load_config_file(gpu_file));
  experiment.resolved_yaml = to_yaml(root);
  return experiment;
}

}  // namespace dse
