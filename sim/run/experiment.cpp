#include "sim/run/experiment.h"

#include "sim/config/config_loader.h"
#include "sim/run/device_memory.h"
#include "sim/run/model_source.h"
#include "sim/runtime/schedule_yaml.h"
#include "sim/serving/serving_spec.h"

namespace dse {
namespace {

void read_schedule_and_output(const ConfigNode& root, Experiment& experiment) {
  std::vector<std::shared_ptr<const Graph>> tenants;
  for (const auto& model : experiment.models) tenants.push_back(model.graph);
  const ConfigNode* block = root.find("schedule");
  experiment.schedule = std::make_shared<const ResolvedSchedule>(read_schedule(block, experiment.config_file, tenants));
  experiment.device->check_schedule(*experiment.schedule, block);
  // `output: ~` (or `-p output=`) means: write no result file.
  const ConfigNode* output = root.find("output");
  experiment.output_path = output && !output->is_null() ? output->as<std::string>() : "";
}

}  // namespace

std::shared_ptr<const ResolvedSchedule> single_stream_schedule(const std::vector<ModelRequest>& models) {
  std::vector<std::shared_ptr<const Graph>> tenants;
  for (const auto& model : models) tenants.push_back(model.graph);
  return std::make_shared<const ResolvedSchedule>(read_schedule(nullptr, "", tenants));
}

Experiment read_experiment(const ConfigNode& root, const std::string& config_file, std::shared_ptr<RunCache> cache,
                           MemoryCheck memory) {
  root.expect_map("an experiment: name, workload, device, output");
  Experiment experiment;
  experiment.config_file = config_file;
  experiment.cache = cache ? std::move(cache) : std::make_shared<RunCache>();
  experiment.name = root.param<std::string>("name").required();

  const ConfigNode& workload = root.at("workload", "a mapping with the models to run");
  workload.expect_map("the workload: models, serving");
  const ConfigNode& models = workload.at("models", "a sequence of models");
  if (models.items().empty()) models.fail("expected at least one model, found an empty sequence");
  for (const auto& model : models.items())
    experiment.models.push_back(read_model_entry(model, config_file, *experiment.cache));

  const ConfigNode& device =
      root.at("device", "a mapping naming the hardware, e.g. {gpu: h200} or {accelerator: tpu_v3_like}");
  device.expect_map("the hardware: {gpu, timing_model, calibration} or {accelerator, fusion, padding, spec overrides}");
  experiment.device = read_device(device, config_file, *experiment.cache);
  experiment.device->check_models(experiment.models, models);
  if (const ConfigNode* serving = workload.find("serving"))
    experiment.serving = read_serving_spec(*serving, models, config_file, *experiment.device);
  read_schedule_and_output(root, experiment);
  root.check_unknown_keys();
  if (memory == MemoryCheck::enforce) check_device_memory(experiment, root);
  experiment.resolved_yaml = to_yaml(root);
  return experiment;
}

}  // namespace dse
