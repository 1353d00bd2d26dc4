// The simulated timeline as a Chrome trace (JSON Trace Event Format), for Perfetto or
// chrome://tracing: one process for the device, one track (thread) per stream, one slice per op.
#pragma once

#include <string>

#include "sim/run/run_result.h"

namespace dse {

std::string chrome_trace_json(const RunResult& result);
// Written atomically (see AtomicFile).
void write_chrome_trace(const std::string& path, const RunResult& result);

}  // namespace dse
