// Graph transforms that re-derive every op from its kind and attributes (ops::make_op), so shapes
// and costs stay consistent: rebuild with new input shapes, set the batch size, drop dead ops.
#pragma once

#include <map>
#include <string>

#include "models/graph.h"

namespace dse::transforms {

// The same graph with some inputs given new shapes (by name); every op is rebuilt.
Graph rebuild(const Graph& graph, const std::map<std::string, Shape>& input_shapes = {});

// Batch `batch` instead of the first input's leading dimension B: every input whose leading
// dimension is B, and every reshape/expand target whose leading entry is B, take the new batch.
// (A heuristic where B = 1 also leads other dimensions: build zoo models at their batch instead.)
Graph set_batch(const Graph& graph, std::int64_t batch);

// Drops ops whose outputs no graph output depends on (outputs: tensors nobody consumes, or
// `keep` if given).
Graph remove_dead_ops(const Graph& graph, const std::vector<std::string>& keep = {});

}  // namespace dse::transforms
