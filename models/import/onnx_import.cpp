#include "models/import/onnx_import.h"

#include "models/base/input_file.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "models/import/onnx_importer.h"

namespace dse {
namespace onnx_import {
namespace {

constexpr int kMinOpset = 9, kMaxOpset = 17;
constexpr std::int64_t kMaxKnownElements = 1 << 16;  // integer tensors kept as values for folding

std::optional<DType> dtype_of(int onnx_type) {
  switch (onnx_type) {
    case onnx::TensorProto_DataType_FLOAT: return DType::fp32;
    case onnx::TensorProto_DataType_DOUBLE: return DType::fp32;  // no fp64 compute type; rare in inference
    case onnx::TensorProto_DataType_FLOAT16: return DType::fp16;
    case onnx::TensorProto_DataType_BFLOAT16: return DType::bf16;
    case onnx::TensorProto_DataType_INT8:
    case onnx::TensorProto_DataType_UINT8: return DType::int8;
    case onnx::TensorProto_DataType_INT32: return DType::int32;
    case onnx::TensorProto_DataType_INT64: return DType::int64;
    case onnx::TensorProto_DataType_BOOL: return DType::boolean;
    default: return std::nullopt;
  }
}

bool is_float(DType dtype) { return dtype == DType::fp32 || dtype == DType::fp16 || dtype == DType::bf16; }

}  // namespace

std::string Importer::node_name() const {
  if (!node_->name().empty()) return node_->name();
  std::string index = "#";  // (appending avoids a GCC 12 -Wrestrict false positive on "#" + string)
  index.append(std::to_string(node_index_));
  return index;
}

void Importer::fail(const std::string& message) const {
  if (!node_) throw UserError(path_ + ": " + message);
  throw UserError(path_ + ": node '" + node_name() + "' (" + node_->op_type() + "): " + message);
}

std::size_t Importer::input_count() const { return static_cast<std::size_t>(node_->input_size()); }
bool Importer::has_input(std::size_t i) const {
  return i < input_count() && !node_->input(static_cast<int>(i)).empty();
}

const Value& Importer::input(std::size_t i) const {
  if (!has_input(i)) fail("expected input " + std::to_string(i) + ", found none");
  const auto it = values_.find(node_->input(static_cast<int>(i)));
  if (it == values_.end())
    fail("input '" + node_->input(static_cast<int>(i)) +
         "' is not produced by any earlier node, input or initializer "
         "(is the graph topologically sorted?)");
  return it->second;
}

TensorId Importer::tensor(std::size_t i) {
  const Value& value = input(i);
  if (value.tensor) return *value.tensor;
  Value& stored = values_[node_->input(static_cast<int>(i))];
  stored.tensor = graph_.add_constant(node_->input(static_cast<int>(i)), stored.shape, stored.dtype, stored.parameter);
  return *stored.tensor;
}

std::vector<std::int64_t> Importer::known_ints(std::size_t i) const {
  const Value& value = input(i);
  if (!value.known)
    fail("input " + std::to_string(i) + " ('" + node_->input(static_cast<int>(i)) +
         "') must be known at import time (a constant or a shape computation), found a computed tensor");
  std::vector<std::int64_t> out;
  for (const double v : value.values) out.push_back(static_cast<std::int64_t>(v));
  return out;
}

void Importer::set_output(std::size_t i, Value value) {
  if (static_cast<int>(i) >= node_->output_size()) return;
  values_[node_->output(static_cast<int>(i))] = std::move(value);
}

void Importer::set_output_tensor(std::size_t i, TensorId id) {
  Value value;
  value.tensor = id;
  value.shape = graph_.tensor(id).shape;
  value.dtype = graph_.tensor(id).dtype;
  set_output(i, std::move(value));
}

namespace {
const onnx::AttributeProto* find_attr(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& attr : node.attribute())
    if (attr.name() == name) return &attr;
  return nullptr;
}
}  // namespace

std::optional<std::int64_t> Importer::int_attr(const std::string& name) const {
  const auto* attr = find_attr(*node_, name);
  if (!attr) return std::nullopt;
  return attr->i();
}
std::int64_t Importer::int_attr(const std::string& name, std::int64_t fallback) const {
  return int_attr(name).value_or(fallback);
}
std::optional<std::vector<std::int64_t>> Importer::ints_attr(const std::string& name) const {
  const auto* attr = find_attr(*node_, name);
  if (!attr) return std::nullopt;
  return std::vector<std::int64_t>(attr->ints().begin(), attr->ints().end());
}
std::optional<double> Importer::float_attr(const std::string& name) const {
  const auto* attr = find_attr(*node_, name);
  if (!attr) return std::nullopt;
  if (attr->has_t()) {
    const Value v = value_of(attr->t(), false);
    return v.known && !v.values.empty() ? std::optional<double>(v.values[0]) : std::nullopt;
  }
  return attr->f();
}
std::string Importer::string_attr(const std::string& name, const std::string& fallback) const {
  const auto* attr = find_attr(*node_, name);
  return attr ? attr->s() : fallback;
}

DType Importer::float_type(DType file_type) const {
  return is_float(file_type) && options_.float_dtype ? *options_.float_dtype : file_type;
}

Value Importer::value_of(const onnx::TensorProto& tensor, bool parameter) const {
  Value value;
  const auto dtype = dtype_of(tensor.data_type());
  if (!dtype)
    throw UserError(path_ + ": tensor '" + tensor.name() + "': unsupported element type " +
                    std::to_string(tensor.data_type()));
  value.dtype = float_type(*dtype);
  value.shape.assign(tensor.dims().begin(), tensor.dims().end());
  value.parameter = parameter;
  const std::int64_t n = element_count(value.shape);
  if (n > kMaxKnownElements) return value;
  if (tensor.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) return value;
  const std::string& raw = tensor.raw_data();
  const auto read_raw = [&](auto sample) {
    using T = decltype(sample);
    if (raw.size() != static_cast<std::size_t>(n) * sizeof(T)) return false;
    for (std::int64_t i = 0; i < n; ++i) {
      T x;
      std::memcpy(&x, raw.data() + i * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
      value.values.push_back(static_cast<double>(x));
    }
    return true;
  };
  bool ok = false;
  switch (tensor.data_type()) {
    case onnx::TensorProto_DataType_INT64:
      ok = raw.empty() ? (value.values.assign(tensor.int64_data().begin(), tensor.int64_data().end()),
                          tensor.int64_data_size() == n)
                       : read_raw(std::int64_t{});
      break;
    case onnx::TensorProto_DataType_INT32:
      ok = raw.empty() ? (value.values.assign(tensor.int32_data().begin(), tensor.int32_data().end()),
                          tensor.int32_data_size() == n)
                       : read_raw(std::int32_t{});
      break;
    case onnx::TensorProto_DataType_FLOAT:
      ok = raw.empty() ? (value.values.assign(tensor.float_data().begin(), tensor.float_data().end()),
                          tensor.float_data_size() == n)
                       : read_raw(float{});
      break;
    case onnx::TensorProto_DataType_BOOL:
      ok = raw.empty() ? (value.values.assign(tensor.int32_data().begin(), tensor.int32_data().end()),
                          tensor.int32_data_size() == n)
                       : read_raw(std::uint8_t{});
      break;
    default: break;
  }
  value.known = ok;
  if (!ok) value.values.clear();
  return value;
}

void Importer::read_initializers(const onnx::GraphProto& graph) {
  for (const auto& initializer : graph.initializer()) values_[initializer.name()] = value_of(initializer, true);
}

void Importer::read_inputs(const onnx::GraphProto& graph) {
  std::vector<std::string> input_names;
  for (const auto& input : graph.input())
    if (!values_.contains(input.name())) input_names.push_back(input.name());
  for (const auto& [name, shape] : options_.input_shapes) {
    if (std::find(input_names.begin(), input_names.end(), name) == input_names.end())
      throw UserError(path_ + ": input_shapes names '" + name + "', which is not an input of the model (inputs: " +
                      join_names(input_names) + ")" + did_you_mean_suffix(name, input_names));
  }
  for (const auto& input : graph.input()) {
    if (values_.contains(input.name())) continue;  // an initializer listed as an input (IR < 4)
    if (!input.type().has_tensor_type())
      throw UserError(path_ + ": input '" + input.name() + "': expected a tensor input, found another type");
    const auto& type = input.type().tensor_type();
    const auto dtype = dtype_of(type.elem_type());
    if (!dtype)
      throw UserError(path_ + ": input '" + input.name() + "': unsupported element type " +
                      std::to_string(type.elem_type()));
    Shape shape;
    if (const auto bound = options_.input_shapes.find(input.name()); bound != options_.input_shapes.end()) {
      shape = bound->second;
      if (type.has_shape() && type.shape().dim_size() != static_cast<int>(shape.size()))
        throw UserError(path_ + ": input '" + input.name() + "': bound to " + shape_string(shape) + " (rank " +
                        std::to_string(shape.size()) + "), but the model declares rank " +
                        std::to_string(type.shape().dim_size()));
    } else {
      if (!type.has_shape())
        throw UserError(path_ + ": input '" + input.name() + "' has no shape; bind it with input_shapes");
      for (int d = 0; d < type.shape().dim_size(); ++d) {
        const auto& dim = type.shape().dim(d);
        if (!dim.has_dim_value() || dim.dim_value() <= 0) {
          const std::string symbol = dim.has_dim_param() ? "'" + dim.dim_param() + "'" : "unknown";
          throw UserError(path_ + ": input '" + input.name() + "': dimension " + std::to_string(d) + " is symbolic (" +
                          symbol + "); bind it with input_shapes: {" + input.name() +
                          ": [...]} in the config or "
                          "--input-shape " +
                          input.name() + "=AxBx...");
        }
        shape.push_back(dim.dim_value());
      }
    }
    const TensorId id = graph_.add_input(input.name(), shape, float_type(*dtype));
    Value value;
    value.tensor = id;
    value.shape = shape;
    value.dtype = float_type(*dtype);
    values_[input.name()] = value;
  }
}

void Importer::run(const onnx::ModelProto& model) {
  for (const auto& opset : model.opset_import())
    if (opset.domain().empty() || opset.domain() == "ai.onnx") opset_ = static_cast<int>(opset.version());
  if (opset_ < kMinOpset || opset_ > kMaxOpset)
    throw UserError(path_ + ": expected an ONNX opset in [9, 17], found opset " + std::to_string(opset_));
  const auto& graph = model.graph();
  read_initializers(graph);
  read_inputs(graph);
  for (const auto& node : graph.node()) {
    node_ = &node;
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      fail("expected an operator of the default ONNX domain, found domain '" + node.domain() + "'");
    std::vector<const Value*> inputs;
    for (std::size_t i = 0; i < input_count(); ++i) inputs.push_back(has_input(i) ? &input(i) : nullptr);
    const FoldContext context{[this](const std::string& n) { return int_attr(n); },
                              [this](const std::string& n) { return ints_attr(n); },
                              [this](const std::string& n) { return float_attr(n); }};
    std::optional<Value> folded;
    if (node.op_type() == "Constant") {
      const auto* value = find_attr(node, "value");
      if (value && value->has_t())
        folded = value_of(value->t(), false);
      else if (const auto i = int_attr("value_int"))
        folded = Value{std::nullopt, {}, DType::int64, true, {double(*i)}};
      else if (const auto is = ints_attr("value_ints")) {
        folded = Value{std::nullopt, {static_cast<std::int64_t>(is->size())}, DType::int64, true, {}};
        folded->values.assign(is->begin(), is->end());
      } else if (const auto f = float_attr("value_float"))
        folded = Value{std::nullopt, {}, DType::fp32, true, {*f}};
      else
        fail("expected a value attribute");
    } else {
      try {
        folded = fold(node.op_type(), inputs, context);
      } catch (const std::invalid_argument& error) {
        fail(error.what());
      }
    }
    if (folded) {
      set_output(0, std::move(*folded));
    } else {
      try {
        if (!import_node(*this)) fail("unsupported operator; supported: " + join_names(supported_op_types()));
      } catch (const std::invalid_argument& error) {
        fail(error.what());
      } catch (const std::out_of_range& error) {
        fail(std::string("malformed node: ") + error.what());
      }
    }
    ++node_index_;
  }
  node_ = nullptr;
  for (const auto& output : graph.output()) {
    if (!values_.contains(output.name())) fail("graph output '" + output.name() + "' is never produced");
  }
}

}  // namespace onnx_import

Graph import_onnx(const std::string& path, const OnnxImportOptions& options) {
  const std::string data = read_input_file(path, kMaxOnnxInputBytes, "an ONNX model");
  if (data.empty()) throw UserError(path + ": expected an ONNX model, found an empty file");
  onnx::ModelProto model;
  if (!model.ParseFromString(data) || !model.has_graph())
    throw UserError(path +
                    ": expected an ONNX model (a protobuf ModelProto), found data that does not parse as one "
                    "(truncated, or not an ONNX file)");
  std::string name = model.graph().name().empty() ? path : model.graph().name();
  Graph graph(name);
  onnx_import::Importer(path, options, graph).run(model);
  return graph;
}

std::pair<std::string, Shape> parse_input_shape(const std::string& text) {
  const auto equals = text.find('=');
  const auto bad = [&text] {
    return UserError("--input-shape: expected NAME=DIMxDIMx... (e.g. x=1x3x224x224), found '" + text + "'");
  };
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) throw bad();
  Shape shape;
  std::stringstream dims(text.substr(equals + 1));
  std::string dim;
  while (std::getline(dims, dim, 'x')) {
    if (dim.empty() || dim.find_first_not_of("0123456789") != std::string::npos || dim.size() > 12) throw bad();
    shape.push_back(std::stoll(dim));
    if (shape.back() <= 0) throw bad();
  }
  return {text.substr(0, equals), shape};
}

}  // namespace dse
