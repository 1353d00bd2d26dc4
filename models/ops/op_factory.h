// Rebuilding an op from its kind, inputs and recorded attributes: how YAML graphs are read and how
// transforms (set batch, fusion) re-derive shapes and costs. For every op a constructor in
// op_library.h made, make_op(graph, op.kind, op.name, inputs, op.attributes) makes the same op.
#pragma once

#include <string>
#include <vector>

#include "models/graph.h"

namespace dse::ops {

// std::invalid_argument for a missing or mistyped attribute ("conv1: attribute 'kernel' ...").
TensorId make_op(Graph& graph, OpKind kind, const std::string& name, const std::vector<TensorId>& inputs,
                 const Attributes& attributes);

// The window and groups a windowed op (convolution, pooling) records, read as make_op reads them
// (absent keys: a 1 x 1 window, stride and dilation 1, no padding, 1 group).
Window recorded_window(const Op& op);
std::int64_t recorded_groups(const Op& op);

}  // namespace dse::ops
