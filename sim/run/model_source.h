// Where a workload's models come from: the zoo by name, or a file — ONNX (.onnx), a dse YAML graph
// (.yaml / .yml) or a SCALE-Sim topology (.csv). One place decides, for configs and the CLI alike.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "models/graph.h"
#include "models/import/scalesim_topology.h"
#include "sim/config/config_node.h"
#include "sim/run/experiment.h"
#include "sim/run/run_cache.h"

namespace dse {

struct ModelFileOptions {
  std::map<std::string, Shape> input_shapes;  // ONNX: symbolic or overridden input shapes
  std::optional<DType> dtype;                 // ONNX: float type; SCALE-Sim: element type (default int8)
  TopologyForm form = TopologyForm::automatic;
};

// By extension; UserError naming the file for an unknown extension or a bad file.
Graph load_model_file(const std::string& path, const ModelFileOptions& options);

// One entry of workload.models: {name, batch, dtype, resolution, seq_len, phase, past_len} for the
// zoo, {onnx: FILE, input_shapes, dtype}, {graph: FILE.yaml}, or {scalesim_topology: FILE.csv, form,
// dtype}; file paths are relative to `config_file`. Any of them may list `transforms: [NAME, ...]`
// (`dse list transform`), applied in order after the model is built.
// Zoo graphs are shared through `cache` between entries asking for the same model.
ModelRequest read_model_entry(const ConfigNode& node, const std::string& config_file, RunCache& cache);

}  // namespace dse
