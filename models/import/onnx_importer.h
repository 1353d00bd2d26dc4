// Internal to the ONNX importer: the state of one import and the helpers node handlers use.
#pragma once

#include <onnx/onnx_pb.h>

#include <map>
#include <string>
#include <vector>

#include "models/import/onnx_import.h"
#include "models/import/onnx_values.h"

namespace dse::onnx_import {

class Importer {
 public:
  Importer(std::string path, const OnnxImportOptions& options, Graph& graph)
      : path_(std::move(path)), options_(options), graph_(graph) {}

  void run(const onnx::ModelProto& model);

  // --- used by node handlers ---------------------------------------------------------------------
  const onnx::NodeProto& node() const { return *node_; }
  std::string node_name() const;
  [[noreturn]] void fail(const std::string& message) const;
  std::size_t input_count() const;
  bool has_input(std::size_t i) const;
  const Value& input(std::size_t i) const;
  // The input as a dse graph tensor (constants are added to the graph on first use).
  TensorId tensor(std::size_t i);
  // The values of an input that must be known at import time (weights' shapes, axes, pads).
  std::vector<std::int64_t> known_ints(std::size_t i) const;
  void set_output(std::size_t i, Value value);
  void set_output_tensor(std::size_t i, TensorId id);

  std::optional<std::int64_t> int_attr(const std::string& name) const;
  std::int64_t int_attr(const std::string& name, std::int64_t fallback) const;
  std::optional<std::vector<std::int64_t>> ints_attr(const std::string& name) const;
  std::optional<double> float_attr(const std::string& name) const;
  std::string string_attr(const std::string& name, const std::string& fallback) const;
  int opset() const { return opset_; }
  Graph& graph() { return graph_; }
  DType float_type(DType file_type) const;

 private:
  void read_initializers(const onnx::GraphProto& graph);
  void read_inputs(const onnx::GraphProto& graph);
  Value value_of(const onnx::TensorProto& tensor, bool parameter) const;

  std::string path_;
  const OnnxImportOptions& options_;
  Graph& graph_;
  int opset_ = 0;
  std::map<std::string, Value> values_;
  const onnx::NodeProto* node_ = nullptr;
  int node_index_ = 0;
};

// Adds the node's ops to the graph; false if the op type is not supported.
bool import_node(Importer& importer);
std::vector<std::string> supported_op_types();

}  // namespace dse::onnx_import
