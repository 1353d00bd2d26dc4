// The human-readable report of a simulation run: a per-op table per model and a summary.
#pragma once

#include <cstdio>

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

void print_op_table(std::FILE* out, const Experiment& experiment, const RunResult& result);
void print_run_summary(std::FILE* out, const Experiment& experiment, const RunResult& result);

}  // namespace dse
