// One search trial: apply overrides to an experiment config, run the simulation, read its metrics.
// Nothing more, so every trial can be replayed with `dse run CONFIG -p KEY=VALUE ...`.
//
// Metrics known before simulating (Device::cheap_metrics: an accelerator's area_mm2 and tdp_w, a
// GPU's tdp_w) go to an optional pre-check first; when it rejects them the simulation is skipped, so cheap constraints
// (area, power budget) cost no simulation.
//
// Contract: the base tree is not modified; the function is safe to call from many threads on
// distinct or shared const bases. Bad overrides or configs throw ConfigError (a UserError).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/config/config_node.h"
#include "sim/engine/engine.h"
#include "sim/run/run_cache.h"

namespace dse {

// The run's metric table by name (sim/metrics/metric_catalog.h; `dse list metrics`): exactly the
// metrics the device declares for the experiment (Device::metric_names).
using TrialMetrics = std::map<std::string, double>;

struct TrialRun {
  TrialMetrics metrics;
  bool simulated = true;  // false: the pre-check rejected the design; metrics hold only its cheap ones
};

// Returns false to skip the simulation.
using TrialPreCheck = std::function<bool(const TrialMetrics& cheap_metrics)>;

// With a deadline, a simulation still running when it passes throws SimulationTimeout.
// `cache` (sim/run/run_cache.h) is what the trials of one search share; null gives the trial its own.
TrialRun run_trial(const ConfigNode& base, const std::string& config_file, const std::vector<std::string>& overrides,
                   const TrialPreCheck& precheck = {}, WallDeadline deadline = std::nullopt,
                   std::shared_ptr<RunCache> cache = nullptr);

}  // namespace dse
