// One search trial: apply overrides to an experiment config, run the simulation, read its metrics.
// Nothing more, so every trial can be replayed with `dse run CONFIG -p KEY=VALUE ...`.
//
// Contract: the base tree is not modified; the function is safe to call from many threads on
// distinct or shared const bases. Bad overrides or configs throw ConfigError (a UserError).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/config/config_node.h"

namespace dse {

// Metrics by name (latency_ms, throughput_per_s, energy_j where a power model exists).
using TrialMetrics = std::map<std::string, double>;

TrialMetrics run_trial(const ConfigNode& base, const std::string& config_file,
                       const std::vector<std::string>& overrides);

}  // namespace dse
