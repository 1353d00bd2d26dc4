// A graph as the accelerator model needs it, prepared once and shared by every design evaluated:
// the ops that do work in execution (topological) order, views dissolved into the tensors they
// alias, and for each tensor its size, producer and consumers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/graph.h"

namespace dse {

struct AccelTensor {
  double bytes = 0;
  // Its rows in bytes: channels for feature maps (channels-minor on the accelerator), the last
  // dimension otherwise (features, head dimension).
  std::int64_t row_bytes = 0;
  int element_bytes = 2;
  int producer = -1;           // index into AccelWorkload::ops; -1 for a graph input
  std::vector<int> consumers;  // indices into AccelWorkload::ops, ascending
  bool graph_output = false;   // must reach DRAM whatever consumes it
  int last_consumer = -1;      // the last consumer (or the producer when there is none)
};

struct AccelOp {
  OpId op = 0;  // in the graph
  OpCategory category = OpCategory::vector;
  std::vector<GemmView> gemms;  // matrix ops
  std::int64_t macs = 0;
  std::int64_t vector_ops = 0;  // elementwise arithmetic for the vector units (flops - 2 macs)
  double weight_bytes = 0;      // constants read
  double moved_bytes = 0;       // data-movement ops: bytes read + written
  std::vector<int> inputs;      // activation tensors (AccelWorkload::tensors), in op order
  std::vector<bool> repeated;   // per input: the same tensor appeared earlier in `inputs`
  int output = -1;
  int dtype_bytes = 2;
  // The most slices its work splits into along the rows of its output (AccelTensor::row_bytes)
  // with every slice independent of the others: its rows when it works row by row (elementwise
  // ops on equally sized activations, layer norm and softmax along the row, a matmul of one
  // activation by constant weights), 0 when only whole samples of the batch are independent.
  std::int64_t row_slices = 0;
};

struct AccelWorkload {
  std::string name;
  int batch = 1;  // samples per pass: fusion may run a group in slices of the batch (or of rows)
  std::vector<AccelOp> ops;
  std::vector<AccelTensor> tensors;
  std::vector<std::vector<int>> last_read_by;  // per op: tensors made by ops whose last reader it is
};

AccelWorkload make_accel_workload(const Graph& graph, int batch = 1);

}  // namespace dse
