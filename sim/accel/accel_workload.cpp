#include "sim/accel/accel_workload.h"

#include <algorithm>
#include <map>

namespace dse {

AccelWorkload make_accel_workload(const Graph& graph, int batch) {
  AccelWorkload out;
  out.name = graph.name();
  out.batch = std::max(1, batch);
  std::map<TensorId, int> slot;  // graph tensor -> AccelWorkload tensor (views map to what they alias)
  const auto slot_of = [&](TensorId id) {
    const auto it = slot.find(id);
    if (it != slot.end()) return it->second;
    out.tensors.push_back({static_cast<double>(graph.tensor(id).bytes()), -1, {}, false, -1});
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
    out.tensors.push_back({static_cast<double>(graph.tensor(op.output).bytes()), index, {}, false, -1});
    a.output = static_cast<int>(out.tensors.size() - 1);
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
