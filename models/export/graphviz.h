// A graph as GraphViz DOT text: one node per op (name, kind, output shape, MACs), one per graph
// input and learnt constant, edges along tensors. `dot -Tsvg` draws it.
#pragma once

#include <string>

#include "models/graph.h"

namespace dse {

std::string to_graphviz(const Graph& graph);

}  // namespace dse
