#include "sim/run/experiment.h"

#include "models/base/did_you_mean.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_timing_model.h"
#include "sim/gpu/kernel_calibration_io.h"
#include "sim/run/model_source.h"
#include "sim/run/shared_memo.h"

namespace dse {
namespace {

// The spec file `node` names: a catalog name of `kind` ("gpu", "accel") or a .yaml path.
std::string find_spec_file(const ConfigNode& node, std::string_view kind, const std::string& noun,
                           const std::string& config_file) {
  const std::string article = std::string_view("aeiou").find(noun.front()) == std::string_view::npos ? "a " : "an ";
  const std::string value = node.as<std::string>();
  if (value.ends_with(".yaml")) {
    const std::string path = resolve_config_path(config_file, value);
    if (!config_file_exists(path)) node.fail("expected an existing " + noun + " file, found no file '" + path + "'");
    return path;
  }
  const HardwareCatalog catalog = HardwareCatalog::for_experiment(config_file);
  if (const auto path = catalog.find(kind, value)) return *path;
  const auto names = catalog.names(kind);
  node.fail("expected " + article + noun + " name (" + join_names(names) + ") or a .yaml file, found " +
            node.describe() + did_you_mean_suffix(value, names));
}

// Sets `key` of `target` to `value`, merging mappings key by key. The copied nodes keep their own
// file, line and key path, so errors point at the experiment ("device.array.rows").
void merge_key(ConfigNode& target, const std::string& key, const ConfigNode& value, const SourceMark& key_mark) {
  ConfigNode* existing = target.mutable_child(key);
  if (existing && existing->is_map() && value.is_map()) {
    for (const auto& child : value.keys()) merge_key(*existing, child, *value.find(child), value.key_mark(child));
    return;
  }
  target.set(key, value, key_mark).set_path(value.path());
}

void read_accelerator_device(const ConfigNode& device, const std::string& config_file, Experiment& experiment) {
  const ConfigNode& name = device.at("accelerator", "an accelerator spec name such as tpu_v3_like, or a .yaml file");
  const std::string file = find_spec_file(name, "accel", "accelerator spec", config_file);
  experiment.fusion = *parse_fusion_mode(
      device.param<std::string>("fusion").one_of(fusion_mode_names(), "a fusion plan").with_default("exact"));
  experiment.padding = *parse_padding_mode(
      device.param<std::string>("padding").one_of(padding_mode_names(), "a tensor padding").with_default("auto"));
  ConfigNode spec = load_config_file(file);
  spec.expect_map("an accelerator spec");
  // Key paths as the device block would write them ("device.arary: unknown key"); file and line
  // still say whether a value came from the spec file or from the experiment.
  spec.set_path("device");
  for (const auto& key : device.keys()) {
    if (key == "accelerator" || key == "fusion" || key == "padding") continue;
    merge_key(spec, key, *device.find(key), device.key_mark(key));  // find() marks the key as read
  }
  experiment.accelerator = read_accelerator_spec(spec);
  experiment.hardware_files.push_back({file, read_config_bytes(file)});
  // The baseline is the same for every trial of a search: read once per file content.
  static SharedMemo<AcceleratorSpec> baselines(8);
  const HardwareCatalog catalog = HardwareCatalog::for_experiment(config_file);
  if (const auto baseline = catalog.find("accel", "tpu_v3_like")) {
    const std::string path = *baseline;
    experiment.baseline_accelerator = baselines.get(path + "\n" + read_config_bytes(path), [&path] {
      return std::make_shared<const AcceleratorSpec>(read_accelerator_spec(load_config_file(path)));
    });
  }
}

void read_schedule_and_output(const ConfigNode& root, Experiment& experiment) {
  if (const ConfigNode* schedule = root.find("schedule")) {
    schedule->expect_map("the schedule: policy");
    experiment.schedule = schedule->param<std::string>("policy")
                              .one_of({"single_stream", "stream_per_model"}, "a schedule policy")
                              .with_default("single_stream");
  }
  // `output: ~` (or `-p output=`) means: write no result file.
  const ConfigNode* output = root.find("output");
  experiment.output_path = output && !output->is_null() ? output->as<std::string>() : "";
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

  const ConfigNode& device = root.at("device", "a mapping naming the hardware, e.g. {gpu: h200} or {accelerator: tpu_v3_like}");
  device.expect_map("the hardware: {gpu, timing_model, calibration} or {accelerator, fusion, padding, spec overrides}");
  if (device.peek("accelerator") && !device.peek("gpu")) {
    read_accelerator_device(device, config_file, experiment);
    const std::string native(dtype_name(experiment.accelerator->dtype));
    for (std::size_t m = 0; m < experiment.models.size(); ++m) {
      if (experiment.models[m].params.dtype == experiment.accelerator->dtype) continue;
      models.items()[m].fail("expected dtype " + native + ": the accelerator '" + experiment.accelerator->name +
                             "' computes in " + native + ", found " +
                             std::string(dtype_name(experiment.models[m].params.dtype)) + " (set dtype: " + native + ")");
    }
    read_schedule_and_output(root, experiment);
    root.check_unknown_keys();
    experiment.resolved_yaml = to_yaml(root);
    return experiment;
  }
  if (device.peek("accelerator")) device.find("accelerator")->fail("expected either gpu or accelerator in device, found both");
  const std::string gpu_file =
      find_spec_file(device.at("gpu", "a GPU spec name such as h200, or a .yaml file"), "gpu", "GPU spec", config_file);
  if (const ConfigNode* file = device.find("calibration")) {
    experiment.calibration_file = resolve_config_path(config_file, file->as<std::string>());
    if (!config_file_exists(experiment.calibration_file))
      file->fail("expected an existing calibration file, found no file '" + experiment.calibration_file + "'");
  }
  experiment.timing_model =
      device.param<std::string>("timing_model").one_of(GpuTimingRegistry::instance().names(), "a timing model").with_default("roofline");
  read_schedule_and_output(root, experiment);
  root.check_unknown_keys();

  experiment.hardware_files.push_back({gpu_file, read_config_bytes(gpu_file)});
  experiment.gpu = read_gpu_spec(load_config_file(gpu_file));
  if (!experiment.calibration_file.empty()) {
    experiment.hardware_files.push_back({experiment.calibration_file, read_config_bytes(experiment.calibration_file)});
    experiment.calibration = read_kernel_calibration(load_config_file(experiment.calibration_file));
  }
  // Timing models (and the per-op kernel choices they cache) are shared between runs on the same
  // spec, timing model and calibration: a search's trials.
  static SharedMemo<GpuTimingModel> timing_models(64);
  std::string key = experiment.timing_model + "|" + experiment.calibration_file;
  for (const auto& file : experiment.hardware_files) key += "|" + file.content;
  experiment.timing = timing_models.get(key, [&experiment] {
    return GpuTimingRegistry::instance().find(experiment.timing_model)->factory(experiment.gpu, experiment.calibration,
                                                                              experiment.calibration_file);
  });
  experiment.resolved_yaml = to_yaml(root);
  return experiment;
}

}  // namespace dse
