#include "models/transforms/rebuild.h"

#include <algorithm>
#include <stdexcept>

#include "models/ops/op_factory.h"

namespace dse::transforms {
namespace {

// Rebuilds `graph` op by op, skipping ops for which `keep_op` is false, editing attributes through
// `edit`; `input_shape` maps each input to its new shape.
template <class KeepOp, class Edit, class InputShape>
Graph rebuild_with(const Graph& graph, KeepOp keep_op, Edit edit, InputShape input_shape) {
  Graph out(graph.name());
  std::vector<std::optional<TensorId>> mapped(graph.tensors().size());
  for (TensorId id = 0; id < graph.tensors().size(); ++id) {
    const Tensor& t = graph.tensor(id);
    if (graph.producer(id)) continue;
    if (t.constant)
      mapped[id] = out.add_constant(t.name, t.shape, t.dtype, t.parameter);
    else
      mapped[id] = out.add_input(t.name, input_shape(t), t.dtype, t.layout);
  }
  for (const OpId op_id : graph.topological_order()) {
    const Op& op = graph.op(op_id);
    if (!keep_op(op_id)) continue;
    std::vector<TensorId> inputs;
    for (const auto input : op.inputs) {
      if (!mapped[input]) throw std::logic_error(op.name + ": input dropped by the transform");
      inputs.push_back(*mapped[input]);
    }
    Attributes attributes = op.attributes;
    edit(op, attributes);
    mapped[op.output] = ops::make_op(out, op.kind, op.name, inputs, attributes);
  }
  return out;
}

}  // namespace

Graph rebuild(const Graph& graph, const std::map<std::string, Shape>& input_shapes) {
  for (const auto& entry : input_shapes) {
    const std::string& name = entry.first;  // a named variable: clang 14 cannot capture a binding
    const bool known = std::any_of(graph.inputs().begin(), graph.inputs().end(),
                                   [&](TensorId id) { return graph.tensor(id).name == name; });
    if (!known) throw std::invalid_argument(graph.name() + ": no input named '" + name + "'");
  }
  return rebuild_with(
      graph, [](OpId) { return true; }, [](const Op&, Attributes&) {},
      [&](const Tensor& t) {
        const auto it = input_shapes.find(t.name);
        return it == input_shapes.end() ? t.shape : it->second;
      });
}

Graph set_batch(const Graph& graph, std::int64_t batch) {
  if (batch < 1) throw std::invalid_argument("set_batch: batch must be positive");
  if (graph.inputs().empty() || graph.tensor(graph.inputs()[0]).shape.empty()) return graph;
  const std::int64_t old_batch = graph.tensor(graph.inputs()[0]).shape[0];
  return rebuild_with(
      graph, [](OpId) { return true; },
      [&](const Op& op, Attributes& attributes) {
        if (op.kind != OpKind::reshape && op.kind != OpKind::expand) return;
        auto& shape = std::get<std::vector<std::int64_t>>(attributes.at("shape"));
        if (!shape.empty() && shape[0] == old_batch) shape[0] = batch;
      },
      [&](const Tensor& t) {
        Shape shape = t.shape;
        if (!shape.empty() && shape[0] == old_batch) shape[0] = batch;
        return shape;
      });
}

Graph remove_dead_ops(const Graph& graph, const std::vector<std::string>& keep) {
  std::vector<bool> live_tensor(graph.tensors().size(), false);
  if (keep.empty()) {
    for (const auto id : graph.outputs()) live_tensor[id] = true;
  } else {
    for (TensorId id = 0; id < graph.tensors().size(); ++id)
      if (std::find(keep.begin(), keep.end(), graph.tensor(id).name) != keep.end()) live_tensor[id] = true;
  }
  std::vector<bool> live_op(graph.ops().size(), false);
  const auto order = graph.topological_order();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Op& op = graph.op(*it);
    if (!live_tensor[op.output]) continue;
    live_op[*it] = true;
    for (const auto input : op.inputs) live_tensor[input] = true;
  }
  return rebuild_with(
      graph, [&](OpId id) { return live_op[id]; }, [](const Op&, Attributes&) {},
      [](const Tensor& t) { return t.shape; });
}

}  // namespace dse::transforms
