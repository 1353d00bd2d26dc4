// The JSON summary of a run: what `dse run --json` prints. Deterministic: the same run gives the
// same bytes (no wall-clock times, keys sorted). Keys are documented in docs/cli.md.
#pragma once

#include <nlohmann/json.hpp>

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

nlohmann::json summary_json(const Experiment& experiment, const RunResult& result);
// The metric table as one object {name: value}, in catalog names (units: `dse list metrics`).
nlohmann::json metrics_json(const MetricTable& metrics);

}  // namespace dse
