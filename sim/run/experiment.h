// An experiment as the YAML describes it, read and validated in one place.
//
// Schema (docs/config.md): name, workload.models[] ({name, batch, dtype, resolution, seq_len,
// phase, past_len}), workload.serving (docs/serving.md), device (read by the device kind whose key it holds: {gpu: ...}
// or {accelerator: ...}, sim/device/device.h), schedule, output. Reading resolves hardware names to spec files and
// rejects unknown keys; after it succeeds, running cannot fail on input.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/zoo/zoo.h"
#include "sim/config/config_node.h"
#include "sim/device/device.h"
#include "sim/run/run_cache.h"
#include "sim/runtime/schedule.h"

namespace dse {
struct ServingSpec;
}

namespace dse {

// One model of the workload: a zoo model or an ONNX file, built (and so validated) when read.
struct ModelRequest {
  std::string name;        // zoo model name, or the model file's stem
  std::string model_file;  // the model file (ONNX, YAML graph or SCALE-Sim topology); "" for zoo models
  ModelParams params;      // for file models only batch (the first input's leading dimension) and dtype
  std::shared_ptr<const Graph> graph;
};

struct Experiment {
  std::string name;
  std::string config_file;  // where it was read from
  std::vector<ModelRequest> models;
  // The hardware (sim/device/device.h): a GPU, an accelerator, or any other registered kind.
  std::shared_ptr<const Device> device;
  // How the models' kernels reach the device's streams (sim/runtime/schedule.h): never null after
  // read_experiment (single_stream when the config has no schedule).
  std::shared_ptr<const ResolvedSchedule> schedule;
  // workload.serving (sim/serving/serving_spec.h): a stream of requests served over simulated
  // time instead of one pass; null for a one-pass experiment.
  std::shared_ptr<const ServingSpec> serving;
  // What this run shares with others (a search's trials): never null after read_experiment.
  std::shared_ptr<RunCache> cache;
  std::string output_path;    // HDF5 result file; "" = none
  std::string resolved_yaml;  // the config after includes and overrides
};

// The default schedule of `models` (single_stream), for experiments assembled in code.
std::shared_ptr<const ResolvedSchedule> single_stream_schedule(const std::vector<ModelRequest>& models);

// Whether read_experiment refuses models that do not fit in the device's memory
// (sim/run/device_memory.h): `skip` for a search's base config, whose trials are checked one by one.
enum class MemoryCheck { enforce, skip };

// `root` is the whole loaded config (after overrides) read from `config_file`. Graphs, timing
// models and accelerator baselines come from `cache` (a fresh one when null).
Experiment read_experiment(const ConfigNode& root, const std::string& config_file,
                           std::shared_ptr<RunCache> cache = nullptr, MemoryCheck memory = MemoryCheck::enforce);

}  // namespace dse
