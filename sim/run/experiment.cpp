#include "sim/run/experiment.h"

#include "sim/config/config_loader.h"
#include "sim/run/model_source.h"
#include "sim/serving/serving_spec.h"

namespace dse {
namespace {

void read_schedule_and_output(const ConfigNode& root, Experiment& experiment) {
  if (const ConfigNode* schedule = root.find("schedule")) {
    schedule->expect_map("the schedule: policy");
    experiment.schedule = read_enum(*schedule, "policy", kScheduleNames, "a schedule policy", Schedule::single_stream);
  }
  // `output: ~` (or `-p output=`) means: write no result file.
  const ConfigNode* output = root.find("output");
  experiment.output_path = output && !output->is_null() ? output->as<std::string>() : "";
}

}  // namespace

Experiment read_experiment(const ConfigNode& root, const std::string& config_file, std::shared_ptr<RunCache> cache) {
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
  experiment.resolved_yaml = to_yaml(root);
  return experiment;
}

}  // namespace dse
