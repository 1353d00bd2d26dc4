// An experiment as the YAML describes it, read and validated in one place.
//
// Schema (docs/config.md): name, workload.models[] ({name, batch, dtype, resolution, seq_len,
// phase, past_len}), device ({gpu: NAME|FILE.yaml, timing_model, calibration} or
// {accelerator: NAME|FILE.yaml, fusion, and any accelerator-spec key overriding the named spec's}),
// schedule, output. Reading resolves hardware names to spec files and
// rejects unknown keys; after it succeeds, running cannot fail on input.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/zoo/zoo.h"
#include "sim/accel/accel_spec.h"
#include "sim/accel/fusion_plan.h"
#include "sim/accel/tensor_layout.h"
#include "sim/config/config_node.h"
#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/gpu_timing_model.h"

namespace dse {

// One model of the workload: a zoo model or an ONNX file, built (and so validated) when read.
struct ModelRequest {
  std::string name;       // zoo model name, or the model file's stem
  std::string model_file;  // the model file (ONNX, YAML graph or SCALE-Sim topology); "" for zoo models
  ModelParams params;     // for file models only batch (the first input's leading dimension) and dtype
  std::shared_ptr<const Graph> graph;
};

struct HardwareFile {
  std::string path;     // as resolved ("configs/hardware/gpu/h200.yaml" or "embedded:...")
  std::string content;  // the file's bytes, kept so a result records exactly what was used
};

struct Experiment {
  std::string name;
  std::string config_file;  // where it was read from
  std::vector<ModelRequest> models;
  // Exactly one device: a GPU (gpu, timing_model, timing, calibration) or an accelerator.
  GpuSpec gpu;
  std::optional<AcceleratorSpec> accelerator;
  FusionMode fusion = FusionMode::exact;
  PaddingMode padding = PaddingMode::automatic;
  // tpu_v3_like, what accelerator metrics are relative to; shared by every trial of a search.
  std::shared_ptr<const AcceleratorSpec> baseline_accelerator;
  std::string timing_model;  // a gpu_timing registry name
  // Built once from gpu + timing_model by read_experiment (its caches then serve every run).
  std::shared_ptr<const GpuTimingModel> timing;
  std::string schedule = "single_stream";  // or "stream_per_model"
  std::optional<KernelCalibration> calibration;  // device.calibration, if given
  std::string calibration_file;
  std::vector<HardwareFile> hardware_files;
  std::string output_path;   // HDF5 result file; "" = none
  std::string resolved_yaml;  // the config after includes and overrides
};

// `root` is the whole loaded config (after overrides) read from `config_file`.
Experiment read_experiment(const ConfigNode& root, const std::string& config_file);

}  // namespace dse
