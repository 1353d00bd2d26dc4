// Importing ONNX models (opsets 9 to 17) as dse graphs, with Debian's libonnx.
//
// Initializers become parameters; Constant nodes and the Shape / Gather / Unsqueeze / Concat /
// Cast / Slice / arithmetic chains that only compute shapes are evaluated at import time and leave
// no ops behind. Symbolic input dimensions must be bound through `input_shapes` (an input listed
// there takes that shape). Every error is a UserError naming the file and, where one is to blame,
// the node and its op type: "model.onnx: node 'Conv_12' (Conv): ...".
#pragma once

#include <map>
#include <optional>
#include <string>

#include "models/graph.h"

namespace dse {

struct OnnxImportOptions {
  std::map<std::string, Shape> input_shapes;
  // Store and compute floating-point tensors in this type instead of the file's (e.g. fp16).
  std::optional<DType> float_dtype;
};

Graph import_onnx(const std::string& path, const OnnxImportOptions& options = {});

// Parses "x=1x3x224x224" into {"x", {1, 3, 224, 224}}; UserError otherwise.
std::pair<std::string, Shape> parse_input_shape(const std::string& text);

}  // namespace dse
