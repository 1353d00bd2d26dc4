// What a graph keeps in device memory while one pass runs, bytes: its weights (the weights its ops
// own and every constant tensor an op reads, once however many read it), its KV caches (what kv_cache_append extends,
// past and new tokens, held for the whole pass) and the peak of its other tensors live at once over its topological
// order. A tensor lives from the op that writes it (a graph input: from the start) to the last op that reads it; a view
// (reshape, flatten) is its input's memory; a tensor no op reads is a result, kept to the end.
// Framework workspaces and allocator slack are not counted: this is a lower bound of what a pass
// needs, not what a framework reserves.
#pragma once

#include "models/graph.h"

namespace dse {

struct GraphMemory {
  double weight_bytes = 0;
  double kv_cache_bytes = 0;
  double activation_peak_bytes = 0;  // inputs, intermediates and results live at once, at the peak
  double total_bytes() const { return weight_bytes + kv_cache_bytes + activation_peak_bytes; }
};

GraphMemory graph_memory(const Graph& graph);

}  // namespace dse
