#include "sim/run/experiment.h"

#include <filesystem>

#include "models/base/did_you_mean.h"
#include "models/import/onnx_import.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_timing_model.h"

namespace dse {
namespace {

ModelRequest read_onnx_model(const ConfigNode& node, const std::string& config_file) {
  ModelRequest model;
  const ConfigNode& file = node.at("onnx", "an .onnx file");
  model.onnx_path = resolve_config_path(config_file, file.as<std::string>());
  if (!config_file_exists(model.onnx_path)) file.fail("expected an existing ONNX file, found no file '" + model.onnx_path + "'");
  OnnxImportOptions options;
  if (const ConfigNode* shapes = node.find("input_shapes")) {
    shapes->expect_map("input name: [dims]");
    for (const auto& input : shapes->keys()) {
      const ConfigNode& dims = *shapes->find(input);
      Shape shape;
      for (const auto& dim : dims.items()) {
        const auto value = dim.as<std::int64_t>();
        if (value < 1) dim.fail("expected a positive dimension, found " + dim.text());
        shape.push_back(value);
      }
      options.input_shapes[input] = shape;
    }
  }
  if (const auto dtype = node.param<std::string>("dtype").one_of(compute_dtype_names(), "a dtype").optional()) {
    options.float_dtype = *parse_dtype(*dtype);
    model.params.dtype = *options.float_dtype;
  }
  model.name = node.param<std::string>("name").with_default(std::filesystem::path(model.onnx_path).stem().string());
  try {
    model.graph = std::make_shared<const Graph>(import_onnx(model.onnx_path, options));
  } catch (const UserError& error) {
    file.fail(std::string("expected an importable ONNX model, found: ") + error.what());
  }
  const auto inputs = model.graph->inputs();
  model.params.batch = inputs.empty() || model.graph->tensor(inputs[0]).shape.empty()
                           ? 1
                           : static_cast<int>(model.graph->tensor(inputs[0]).shape[0]);
  return model;
}

ModelRequest read_model(const ConfigNode& node, const std::string& config_file) {
  node.expect_map("a model: {name, batch, dtype, resolution, seq_len, phase, past_len} or {onnx, input_shapes, dtype}");
  if (node.has("onnx")) return read_onnx_model(node, config_file);
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
    model.graph = std::make_shared<const Graph>(ModelRegistry::instance().find(model.name)->factory(model.params));
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
  for (const auto& model : models.items()) experiment.models.push_back(read_model(model, config_file));

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
