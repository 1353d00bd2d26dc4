#include "models/graph_memory.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace dse {
namespace {

// In double: the sum of a large model's tensors may pass what 64 bits hold even where each fits.
double bytes_of(const Tensor& tensor) {
  double elements = 1;
  for (const auto dim : tensor.shape) elements *= static_cast<double>(dim);
  return elements * dtype_bytes(tensor.dtype);
}

}  // namespace

GraphMemory graph_memory(const Graph& graph) {
  GraphMemory memory;
  const auto tensors = graph.tensors();
  const std::vector<OpId> order = graph.topological_order();
  const std::size_t end = order.size();  // the step after the last op
  // The tensor whose memory each one is (its own, or a view's source), and the caches.
  std::vector<TensorId> owner(tensors.size());
  std::iota(owner.begin(), owner.end(), TensorId{0});
  std::vector<char> cache(tensors.size(), 0);
  std::vector<int> read(tensors.size(), 0);  // ops reading each tensor
  std::vector<std::size_t> step_of(graph.ops().size(), 0);
  // The last step (position in `order`) that reads each owner's memory.
  std::vector<std::size_t> last_read(tensors.size(), 0);
  for (std::size_t step = 0; step < order.size(); ++step) {
    const Op& op = graph.op(order[step]);
    step_of[order[step]] = step;
    // The weights an op owns (a zoo layer's, not a tensor of the graph): its parameter bytes less
    // those of the constants it reads (counted whole below; an embedding's gather counts only the
    // rows it picks).
    double constant_bytes = 0;
    for (const TensorId input : op.inputs) {
      last_read[owner[input]] = step;
      ++read[input];
      if (tensors[input].constant) constant_bytes += bytes_of(tensors[input]);
    }
    memory.weight_bytes += std::max(0.0, static_cast<double>(op.cost.param_bytes) - constant_bytes);
    if (op_category(op) == OpCategory::view && !op.inputs.empty()) owner[op.output] = owner[op.inputs.front()];
    if (op.kind == OpKind::kv_cache_append && !op.inputs.empty()) {
      cache[owner[op.inputs.front()]] = 1;
      cache[op.output] = 1;
      memory.kv_cache_bytes += bytes_of(tensors[op.output]);
    }
  }
  // What no op reads (a result, or an input nothing uses) is kept to the end.
  for (TensorId id = 0; id < tensors.size(); ++id)
    if (!read[id] && !tensors[id].constant) last_read[owner[id]] = end;
  // Bytes that come alive at each step, and that die after it; graph inputs come alive at step 0.
  std::vector<double> born(end + 1, 0), died(end + 1, 0);
  for (TensorId id = 0; id < tensors.size(); ++id) {
    const Tensor& tensor = tensors[id];
    if (tensor.constant) {
      if (read[id] > 0) memory.weight_bytes += bytes_of(tensor);  // once, however many ops read it (tied embeddings)
      continue;
    }
    if (owner[id] != id || cache[id]) continue;  // a view's memory is its source's; caches are counted whole
    const auto producer = graph.producer(id);
    const std::size_t from = producer ? step_of[*producer] : 0;
    born[from] += bytes_of(tensor);
    died[std::max(from, last_read[id])] += bytes_of(tensor);
  }
  double live = 0;
  for (std::size_t step = 0; step <= end; ++step) {
    live += born[step];
    memory.activation_peak_bytes = std::max(memory.activation_peak_bytes, live);
    live -= died[step];
  }
  return memory;
}

}  // namespace dse
