// What a serving run keeps in memory, bounded before it runs. A run keeps every request (about
// 150 bytes each with its share of batches, power steps and metrics, measured on a 1,000,000-request
// ResNet-50 run) and every power-sensor reading (about 40 bytes) for its metrics and result file;
// a run that would need more than the budgets below (about 2 GB together) is refused at the key
// that makes it so, rather than running until the allocator fails. docs/serving.md states them.
#pragma once

#include <cstdint>

#include "sim/config/config_node.h"
#include "sim/serving/serving_spec.h"

namespace dse {

inline constexpr std::int64_t kMaxServingRequests = 10'000'000;  // ~1.5 GB
inline constexpr std::int64_t kMaxSensorReadings = 20'000'000;   // ~0.8 GB: a 1e6 s run at the default 0.1 s

// ConfigError at the key of `serving` (workload.serving, read into `spec`) that asks for more:
// - `requests` over kMaxServingRequests;
// - the open-loop tenants' expected arrivals over duration_s (rate x duration_s, a trace's rows) over
//   it: at the rate (or trace file) of the tenant bringing the most;
// - a host stage slower than its tenant's requests allow: per_item_ms / workers x its requests (a
//   per-batch stage: per_item_ms + per_batch_ms / max_batch, over its instances) past the longest
//   run dse simulates, or past the sensor's budget;
// - the run's length (duration_s, or the time its requests take to arrive) over sensor_period_s
//   past kMaxSensorReadings.
// Closed loops (whose requests follow the device's speed) and queues draining after duration_s are
// counted while running (serving_sim.cpp stops at the same budgets with a UserError).
void check_serving_budget(const ConfigNode& serving, const ServingSpec& spec);

}  // namespace dse
