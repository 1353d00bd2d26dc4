// The human-readable report of a simulation run: a per-op table per model and a summary.
#pragma once

#include <cstdio>

#include "models/graph.h"
#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

// A graph op by op: name, kind, output shape, MACs, bytes, intensity, then totals.
void print_graph_table(std::FILE* out, const Graph& graph);
void print_op_table(std::FILE* out, const Experiment& experiment, const RunResult& result);
void print_run_summary(std::FILE* out, const Experiment& experiment, const RunResult& result);

}  // namespace dse
