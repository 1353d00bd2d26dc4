// Graph transforms that change what runs as one kernel. Each returns a new graph whose ops are
// re-derived (ops::make_op / ops::fused), so shapes and costs stay consistent; none changes MACs.
//
//   fold_batchnorm   conv -> batchnorm (its only consumer) becomes one conv with a bias, as
//                    inference exporters do: the batch norm's traffic and its 2C params go, the
//                    conv gains C bias params.
//   fuse_epilogues   a matrix op absorbs the elementwise ops that follow it alone (bias adds with
//                    a constant, activations, residual adds), as cuDNN/cuBLASLt epilogues do.
//   fuse_elementwise chains of vector ops whose intermediates have one consumer run as one kernel.
//   fuse_attention   matmul(Q, K^T) -> [scale] -> [mask add] -> softmax -> matmul(., V) becomes the
//                    fused attention op (scores never reach memory).
// Intermediates that leave a group (a second consumer, a graph output) are never fused away.
#pragma once

#include <string>
#include <vector>

#include "models/base/registry.h"
#include "models/graph.h"

namespace dse::transforms {

Graph fold_batchnorm(const Graph& graph);
Graph fuse_epilogues(const Graph& graph);
Graph fuse_elementwise(const Graph& graph);
Graph fuse_attention(const Graph& graph);

// The graph cut after each named op into consecutive segments (in topological order); a tensor
// produced in one segment and used in a later one becomes an input of the later segment.
// std::invalid_argument for an unknown op name.
std::vector<Graph> split_segments(const Graph& graph, const std::vector<std::string>& cut_after);

// The transform family: `dse list transform`, `transforms: [...]` on a workload model.
struct GraphTransform {
  static constexpr const char* family_name = "transform";
  static constexpr const char* family_description = "Graph transforms applied to a model before simulation";
  using Factory = std::function<Graph(const Graph&)>;
};
using TransformRegistry = Registry<GraphTransform>;

}  // namespace dse::transforms
