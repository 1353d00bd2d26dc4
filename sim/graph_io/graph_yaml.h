// dse's YAML graph format: a model as a list of ops over named tensors, readable and editable by
// hand, and exact: write(read(write(g))) == write(g), with the same shapes and costs.
//
//   name: resnet50
//   inputs:    [{name: input, shape: [1, 3, 224, 224], dtype: fp32}]
//   constants: [{name: pos_embed.weight, shape: [1, 197, 768], dtype: fp32, parameter: true}]
//   ops:
//     - {name: conv1, kind: conv2d, inputs: [input], out_channels: 64, kernel: [7, 7], stride: [2, 2], ...}
//
// An op's output is the tensor "<op name>:out". Reading re-derives every op's shape and cost from
// its kind and attributes; errors are ConfigErrors with file:line:col.
#pragma once

#include <string>

#include "models/graph.h"
#include "sim/config/config_node.h"

namespace dse {

std::string graph_to_yaml(const Graph& graph);
Graph graph_from_yaml(const ConfigNode& root);
Graph load_graph_yaml(const std::string& path);

}  // namespace dse
