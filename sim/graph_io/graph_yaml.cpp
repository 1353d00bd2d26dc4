#include "sim/graph_io/graph_yaml.h"

#include <map>

#include "models/base/did_you_mean.h"
#include "models/ops/op_factory.h"
#include "sim/config/config_loader.h"

namespace dse {
namespace {

const SourceMark kNowhere{"(graph)", 0, 0};

ConfigNode scalar(const std::string& text, bool quoted = false) { return ConfigNode::scalar(text, quoted, kNowhere); }

ConfigNode ints(const std::vector<std::int64_t>& values) {
  ConfigNode list = ConfigNode::sequence(kNowhere);
  for (const auto v : values) list.append(scalar(std::to_string(v)));
  return list;
}

ConfigNode tensor_entry(const Tensor& t, bool with_parameter) {
  ConfigNode entry = ConfigNode::map(kNowhere);
  entry.set("name", scalar(t.name, true), kNowhere);
  entry.set("shape", ints(t.shape), kNowhere);
  entry.set("dtype", scalar(std::string(dtype_name(t.dtype))), kNowhere);
  if (with_parameter) entry.set("parameter", scalar(t.parameter ? "true" : "false"), kNowhere);
  if (t.layout != default_layout(t.shape.size())) entry.set("layout", scalar(kLayoutNames.name(t.layout)), kNowhere);
  return entry;
}

ConfigNode attribute(const AttributeValue& value) {
  if (const auto* i = std::get_if<std::int64_t>(&value)) return scalar(std::to_string(*i));
  if (const auto* v = std::get_if<std::vector<std::int64_t>>(&value)) return ints(*v);
  if (const auto* s = std::get_if<std::string>(&value)) return scalar(*s, true);
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", std::get<double>(value));
  return scalar(text);
}

Shape read_shape(const ConfigNode& node) {
  Shape shape;
  for (const auto& dim : node.items()) {
    const auto value = dim.as<std::int64_t>();
    if (value < 0) dim.fail("expected a dimension >= 0, found " + dim.text());
    shape.push_back(value);
  }
  return shape;
}

DType read_dtype(const ConfigNode& node) {
  return *parse_dtype(node.param<std::string>("dtype").one_of(dtype_names(), "a dtype").required());
}

}  // namespace

std::string graph_to_yaml(const Graph& graph) {
  ConfigNode root = ConfigNode::map(kNowhere);
  root.set("name", scalar(graph.name(), true), kNowhere);
  ConfigNode inputs = ConfigNode::sequence(kNowhere), constants = ConfigNode::sequence(kNowhere);
  for (TensorId id = 0; id < graph.tensors().size(); ++id) {
    const Tensor& t = graph.tensor(id);
    if (graph.producer(id)) continue;
    if (t.constant)
      constants.append(tensor_entry(t, true));
    else
      inputs.append(tensor_entry(t, false));
  }
  root.set("inputs", std::move(inputs), kNowhere);
  root.set("constants", std::move(constants), kNowhere);
  ConfigNode ops = ConfigNode::sequence(kNowhere);
  for (const OpId id : graph.topological_order()) {
    const Op& op = graph.op(id);
    ConfigNode entry = ConfigNode::map(kNowhere);
    entry.set("name", scalar(op.name, true), kNowhere);
    entry.set("kind", scalar(std::string(op_kind_name(op.kind))), kNowhere);
    ConfigNode op_inputs = ConfigNode::sequence(kNowhere);
    for (const auto input : op.inputs) op_inputs.append(scalar(graph.tensor(input).name, true));
    entry.set("inputs", std::move(op_inputs), kNowhere);
    for (const auto& [key, value] : op.attributes) entry.set(key, attribute(value), kNowhere);
    ops.append(std::move(entry));
  }
  root.set("ops", std::move(ops), kNowhere);
  return to_yaml(root);
}

Graph graph_from_yaml(const ConfigNode& root) {
  root.expect_map("a graph: name, inputs, constants, ops");
  Graph graph(root.param<std::string>("name").required());
  std::map<std::string, TensorId> tensors;
  const auto declare = [&](const ConfigNode& entry, TensorId id) {
    if (!tensors.emplace(graph.tensor(id).name, id).second)
      entry.fail("expected unique tensor names, found '" + graph.tensor(id).name + "' twice");
  };
  for (const auto& entry : root.at("inputs", "a list of graph inputs").items()) {
    entry.expect_map("an input: name, shape, dtype");
    const Shape shape = read_shape(entry.at("shape", "a list of dims"));
    const Layout layout = read_enum(entry, "layout", kLayoutNames, "a layout", default_layout(shape.size()));
    declare(entry, graph.add_input(entry.param<std::string>("name").required(), shape, read_dtype(entry), layout));
  }
  if (const ConfigNode* constants = root.find("constants")) {
    for (const auto& entry : constants->items()) {
      entry.expect_map("a constant: name, shape, dtype, parameter");
      declare(entry, graph.add_constant(entry.param<std::string>("name").required(),
                                        read_shape(entry.at("shape", "a list of dims")), read_dtype(entry),
                                        entry.param<bool>("parameter").with_default(true)));
    }
  }
  const auto kinds = op_kind_names();
  for (const auto& entry : root.at("ops", "a list of ops").items()) {
    entry.expect_map("an op: name, kind, inputs, attributes");
    const std::string name = entry.param<std::string>("name").required();
    const OpKind kind = *parse_op_kind(entry.param<std::string>("kind").one_of(kinds, "an op kind").required());
    std::vector<TensorId> inputs;
    for (const auto& input : entry.at("inputs", "a list of tensor names").items()) {
      const std::string tensor = input.as<std::string>();
      const auto it = tensors.find(tensor);
      if (it == tensors.end()) {
        std::vector<std::string> names;
        for (const auto& [known, id] : tensors) names.push_back(known);
        input.fail("expected a tensor defined earlier (an input, a constant or '<op>:out'), found \"" + tensor + "\"" +
                   did_you_mean_suffix(tensor, names));
      }
      inputs.push_back(it->second);
    }
    Attributes attributes;
    for (const auto& key : entry.keys()) {
      if (key == "name" || key == "kind" || key == "inputs") continue;
      const ConfigNode& value = *entry.find(key);
      if (value.is_sequence()) {
        std::vector<std::int64_t> list;
        for (const auto& item : value.items()) list.push_back(item.as<std::int64_t>());
        attributes[key] = list;
      } else if (value.is_scalar() && !value.quoted() &&
                 value.text().find_first_not_of("-0123456789") == std::string::npos) {
        attributes[key] = value.as<std::int64_t>();
      } else {
        attributes[key] = value.as<std::string>();
      }
    }
    TensorId output = 0;
    try {
      output = ops::make_op(graph, kind, name, inputs, attributes);
    } catch (const std::invalid_argument& error) {
      entry.fail(std::string("expected an op its inputs and attributes allow, found: ") + error.what());
    }
    for (const auto& [key, value] : attributes) {
      if (!graph.op(graph.ops().size() - 1).attributes.contains(key)) {
        std::vector<std::string> valid;
        for (const auto& [known, v] : graph.op(graph.ops().size() - 1).attributes) valid.push_back(known);
        throw ConfigError(entry.key_mark(key), child_path(entry.path(), key),
                          "expected an attribute of " + std::string(op_kind_name(kind)) + " (" + join_names(valid) +
                              "), found unknown attribute '" + key + "'" + did_you_mean_suffix(key, valid));
      }
    }
    declare(entry, output);
  }
  root.check_unknown_keys();
  return graph;
}

Graph load_graph_yaml(const std::string& path) { return graph_from_yaml(load_config_file(path)); }

}  // namespace dse
