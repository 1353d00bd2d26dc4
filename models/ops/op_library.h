// Operator constructors: each infers its output shape, computes its cost (see models/op.h for the
// conventions) and appends itself to a graph. Shape mismatches throw std::invalid_argument naming
// the op; importers turn that into a user error with their file and node.
#pragma once

#include <cstdint>
#include <string>

#include "models/graph.h"

namespace dse::ops {

// NCHW convolution; weights [out_channels, in_channels/groups, kh, kw].
TensorId conv2d(Graph& graph, std::string name, TensorId input, std::int64_t out_channels,
                const Window& window, std::int64_t groups = 1, bool bias = false);
// Linear layer on the last dimension: [.., K] -> [.., N], weights [K, N] (+ bias [N]).
TensorId linear(Graph& graph, std::string name, TensorId input, std::int64_t out_features, bool bias = true);

TensorId batchnorm(Graph& graph, std::string name, TensorId input);
TensorId relu(Graph& graph, std::string name, TensorId input);
TensorId add(Graph& graph, std::string name, TensorId lhs, TensorId rhs);

TensorId maxpool(Graph& graph, std::string name, TensorId input, const Window& window);
TensorId avgpool(Graph& graph, std::string name, TensorId input, const Window& window);
// [N, C, H, W] -> [N, C, 1, 1]
TensorId global_avgpool(Graph& graph, std::string name, TensorId input);
// [N, ...] -> [N, prod(...)]
TensorId flatten(Graph& graph, std::string name, TensorId input);

// Output length of a sliding window: floor((in + 2 pad - dilation (kernel - 1) - 1) / stride) + 1.
std::int64_t window_output_size(std::int64_t in, std::int64_t kernel, std::int64_t stride, std::int64_t pad,
                                std::int64_t dilation);

}  // namespace dse::ops
