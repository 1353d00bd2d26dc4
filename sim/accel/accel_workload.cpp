#include "sim/accel/accel_workload.h"

#include <algorithm>
#include <map>
#include <variant>

namespace dse {

namespace {

// Feature maps lie channels-minor on an accelerator, as XLA lays out TPU convolutions: their rows
// are their channels, shape[1] (graph shapes are N, C, H, W whatever Tensor::layout, which records
// the framework's memory order and defaults to nchw for every rank-4 tensor, attention scores
// included, so it cannot tell feature maps apart). Seeded by the ops that only feature maps have,
// spread through elementwise and data-movement ops to every rank-4 tensor they touch.
std::vector<bool> feature_maps(const Graph& graph) {
  std::vector<bool> maps(graph.tensors().size(), false);
  const auto mark = [&maps](TensorId id) {
    if (maps[id]) return false;
    maps[id] = true;
    return true;
  };
  const auto rank4 = [&graph](TensorId id) { return graph.tensor(id).shape.size() == 4; };
  const auto spatial = [](OpKind kind) {
    switch (kind) {
      case OpKind::conv2d:
      case OpKind::conv_transpose2d:
      case OpKind::batchnorm:
      case OpKind::groupnorm:
      case OpKind::maxpool:
      case OpKind::avgpool:
      case OpKind::global_avgpool:
      case OpKind::global_maxpool:
      case OpKind::resize: return true;
      default: return false;
    }
  };
  const std::vector<OpId> order = graph.topological_order();
  for (bool changed = true; changed;) {
    changed = false;
    for (const OpId id : order) {
      const Op& op = graph.op(id);
      const OpCategory category = op_category(op);
      const bool elementwise =
          category == OpCategory::vector && op.kind != OpKind::softmax && op.kind != OpKind::layernorm;
      const bool moves = category == OpCategory::data_movement && op.kind != OpKind::transpose;
      bool touches = spatial(op.kind);
      if (!touches && (elementwise || moves)) {
        touches = maps[op.output];
        for (const TensorId input : op.inputs) touches = touches || maps[input];
      }
      if (!touches) continue;
      for (const TensorId t : op.inputs)
        if (rank4(t) && !graph.tensor(t).constant && mark(t)) changed = true;
      if (rank4(op.output) && mark(op.output)) changed = true;
    }
  }
  return maps;
}

// Whether `op` works row by row on its output's rows (the last dimension; channels for feature
// maps), each row needing only the same rows of its activation inputs: elementwise ops on inputs of
// the output's size, layer norm and batch norm (inference: a per-channel affine), softmax along the
// last axis, and a matmul of one activation by constant weights (a linear layer: each output row
// needs one input row). Pools, reductions, group norm, fused ops, data movement and products of two
// activations (attention's) are not.
bool works_row_by_row(const Graph& graph, const Op& op) {
  const Tensor& out = graph.tensor(op.output);
  std::vector<const Tensor*> activations;
  for (const TensorId input : op.inputs)
    if (!graph.tensor(input).constant) activations.push_back(&graph.tensor(input));
  if (activations.empty()) return false;
  if (op.kind == OpKind::matmul)
    return activations.size() == 1 && !graph.tensor(op.inputs[0]).constant && out.shape.size() >= 2 &&
           activations[0]->shape.size() == out.shape.size() &&
           activations[0]->elements() / activations[0]->shape.back() == out.elements() / out.shape.back();
  if (op.kind == OpKind::softmax)  // ops::softmax records its axis, normalised
    return activations.size() == 1 &&
           std::get<std::int64_t>(op.attributes.at("axis")) == static_cast<std::int64_t>(out.shape.size()) - 1;
  if (op.kind == OpKind::layernorm) return activations.size() == 1;
  if (!is_elementwise(op.kind)) return false;
  for (const Tensor* input : activations)
    if (input->elements() != out.elements()) return false;
  return true;
}

}  // namespace

AccelWorkload make_accel_workload(const Graph& graph, int batch) {
  AccelWorkload out;
  out.name = graph.name();
  out.batch = std::max(1, batch);
  std::map<TensorId, int> slot;  // graph tensor -> AccelWorkload tensor (views map to what they alias)
  const std::vector<bool> channels_minor = feature_maps(graph);
  const auto tensor_of = [&](TensorId id, int producer) {
    const Tensor& t = graph.tensor(id);
    const int element = dtype_bytes(t.dtype);
    const std::int64_t row = t.shape.empty()      ? t.bytes()
                             : channels_minor[id] ? t.shape[1] * element
                                                  : t.shape.back() * element;
    return AccelTensor{static_cast<double>(t.bytes()), row, element, producer, {}, false, -1};
  };
  const auto slot_of = [&](TensorId id) {
    const auto it = slot.find(id);
    if (it != slot.end()) return it->second;
    out.tensors.push_back(tensor_of(id, -1));
    return slot[id] = static_cast<int>(out.tensors.size() - 1);
  };

  for (const OpId id : graph.topological_order()) {
    const Op& op = graph.op(id);
    const OpCategory category = op_category(op);
    std::vector<int> inputs;
    for (const TensorId input : op.inputs)
      if (!graph.tensor(input).constant) inputs.push_back(slot_of(input));
    if (category == OpCategory::view) {  // no data moves: the output is the input under a new shape
      if (!inputs.empty()) slot[op.output] = inputs.front();
      continue;
    }
    AccelOp a;
    a.op = id;
    a.category = category;
    a.gemms = op.gemms;
    a.macs = op.cost.macs;
    a.vector_ops = std::max<std::int64_t>(0, op.cost.flops - 2 * op.cost.macs);
    a.weight_bytes = static_cast<double>(op.cost.param_bytes);
    if (category == OpCategory::data_movement)
      a.moved_bytes = static_cast<double>(op.cost.bytes_read - op.cost.param_bytes + op.cost.bytes_written);
    a.inputs = inputs;
    for (std::size_t i = 0; i < inputs.size(); ++i)
      a.repeated.push_back(std::find(inputs.begin(), inputs.begin() + static_cast<std::ptrdiff_t>(i), inputs[i]) !=
                           inputs.begin() + static_cast<std::ptrdiff_t>(i));
    a.dtype_bytes = dtype_bytes(op.dtype);
    const int index = static_cast<int>(out.ops.size());
    for (const int input : inputs) {
      auto& consumers = out.tensors[input].consumers;
      if (consumers.empty() || consumers.back() != index) consumers.push_back(index);
    }
    out.tensors.push_back(tensor_of(op.output, index));
    a.output = static_cast<int>(out.tensors.size() - 1);
    if (works_row_by_row(graph, op)) {
      const AccelTensor& t = out.tensors[a.output];
      if (t.row_bytes > 0) a.row_slices = std::max<std::int64_t>(1, static_cast<std::int64_t>(t.bytes) / t.row_bytes);
    }
    slot[op.output] = a.output;
    out.ops.push_back(std::move(a));
  }
  for (const TensorId id : graph.outputs())
    if (const auto it = slot.find(id); it != slot.end()) out.tensors[it->second].graph_output = true;
  out.last_read_by.resize(out.ops.size());
  for (std::size_t t = 0; t < out.tensors.size(); ++t) {
    AccelTensor& tensor = out.tensors[t];
    tensor.last_consumer = tensor.consumers.empty() ? tensor.producer : tensor.consumers.back();
    if (tensor.producer >= 0) out.last_read_by[tensor.last_consumer].push_back(static_cast<int>(t));
  }
  return out;
}

}  // namespace dse
