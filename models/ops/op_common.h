// Internal helpers shared by the operator constructors (not part of the models API).
#pragma once

#include <string>
#include <vector>

#include "models/graph.h"

namespace dse::ops::detail {

// An op of `kind` reading `inputs`: compute dtype from the first input; every input's bytes are
// read once, and constant inputs count as parameters.
Op start(const Graph& graph, std::string name, OpKind kind, std::vector<TensorId> inputs);
// Weights owned by the op itself (conv kernels, biases, norm scales): `trainable` elements count as
// params, all `elements` are read.
void add_weights(Op& op, std::int64_t elements, std::int64_t trainable, DType dtype);
// Writes the output; adds op_flops_per_element(kind) per output element; returns the output id.
TensorId finish(Graph& graph, Op op, Shape shape, DType dtype);

const Shape& shape_of(const Graph& graph, TensorId id);
void require_rank(const Graph& graph, TensorId id, std::size_t rank, const std::string& op_name);

}  // namespace dse::ops::detail
