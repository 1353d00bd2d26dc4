// Internal to the ONNX importer: what a tensor name stands for while importing, and the
// evaluation of shape-computing ops on values known at import time.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/graph.h"

namespace dse::onnx_import {

// A tensor of the ONNX graph: a graph tensor, or a constant whose values may be known.
struct Value {
  std::optional<TensorId> tensor;  // set once the value lives in the dse graph
  Shape shape;
  DType dtype = DType::fp32;
  bool known = false;  // `values` hold the elements (small integer/shape tensors)
  std::vector<double> values;
  bool parameter = false;  // an initializer (learnt) rather than a literal
};

// The shape after ONNX Squeeze (axes; none = every 1) or Unsqueeze (axes of the output).
Shape squeezed_shape(const std::string& op_type, Shape shape, std::vector<std::int64_t> axes);

// Evaluates `op_type` on known inputs; nullopt if the op is not one that is folded or an input is
// not known. Attributes are read through `int_attr` / `ints_attr` (nullopt if absent).
struct FoldContext {
  std::function<std::optional<std::int64_t>(const std::string&)> int_attr;
  std::function<std::optional<std::vector<std::int64_t>>(const std::string&)> ints_attr;
  std::function<std::optional<double>(const std::string&)> float_attr;
};
std::optional<Value> fold(const std::string& op_type, const std::vector<const Value*>& inputs,
                          const FoldContext& context);

}  // namespace dse::onnx_import
