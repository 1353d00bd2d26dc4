#include "models/export/graphviz.h"

#include <sstream>

namespace dse {
namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '\\';  // "\n" in labels stays a DOT line break
    out += c;
  }
  return out + "\"";
}

const char* colour(OpCategory category) {
  switch (category) {
    case OpCategory::matrix: return "#f4a261";
    case OpCategory::vector: return "#a8dadc";
    case OpCategory::data_movement: return "#e9c46a";
    case OpCategory::view: return "#eeeeee";
  }
  return "white";
}

}  // namespace

std::string to_graphviz(const Graph& graph) {
  std::ostringstream dot;
  dot << "digraph " << quoted(graph.name())
      << " {\n  rankdir=TB;\n  node [shape=box, style=filled, fontname=Helvetica];\n";
  for (TensorId id = 0; id < graph.tensors().size(); ++id) {
    const Tensor& t = graph.tensor(id);
    if (graph.producer(id) || (t.constant && !t.parameter)) continue;
    dot << "  t" << id << " [shape=ellipse, fillcolor=" << (t.constant ? "\"#dddddd\"" : "\"#ffffff\"")
        << ", label=" << quoted(t.name + "\\n" + shape_string(t.shape) + " " + std::string(dtype_name(t.dtype)))
        << "];\n";
  }
  for (OpId id = 0; id < graph.ops().size(); ++id) {
    const Op& op = graph.op(id);
    std::string label =
        op.name + "\\n" + std::string(op_kind_name(op.kind)) + " " + shape_string(graph.tensor(op.output).shape);
    if (op.cost.macs) label += "\\n" + std::to_string(op.cost.macs) + " MACs";
    dot << "  op" << id << " [fillcolor=\"" << colour(op_category(op)) << "\", label=" << quoted(label) << "];\n";
    for (const auto input : op.inputs) {
      const Tensor& t = graph.tensor(input);
      if (const auto producer = graph.producer(input))
        dot << "  op" << *producer << " -> op" << id << ";\n";
      else if (!t.constant || t.parameter)
        dot << "  t" << input << " -> op" << id << ";\n";
    }
  }
  dot << "}\n";
  return dot.str();
}

}  // namespace dse
