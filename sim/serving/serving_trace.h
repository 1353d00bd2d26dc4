// What a serving run records over time: every request, every batch, every power-sensor sample and
// every governor action. The metrics of a serving run (sim/serving/serving_metrics.h), the HDF5
// /requests and /serving groups and the Chrome trace's counters all come from it. Times are
// simulated seconds from the start of the run.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "sim/metrics/power_sample.h"

namespace dse {

struct ServedRequest {
  std::uint32_t tenant = 0;
  double arrival_s = 0;    // sent by its client
  double ready_s = 0;      // done on the host (= arrival_s without a host stage)
  double start_s = -1;     // its batch started (-1: never served): on the GPU, or its per-batch host work
  double end_s = -1;       // its batch finished
  std::int32_t batch = 0;  // the size of the batch it ran in
  double latency_s() const { return end_s - arrival_s; }
};

struct ServedBatch {
  std::uint32_t tenant = 0;
  std::int32_t instance = 0;
  std::int32_t size = 0;
  double start_s = 0;  // its instance took it (a per-batch host stage runs first, then the pass)
  double end_s = 0;
  double clock_mhz = 0;  // the SM clock it ran at (0 for devices without one)
  // What the BatchDVFS paper's code logs with a batch: the highest sensor reading since the
  // governor last acted, W (the latest reading without a governor). NaN when there is none to log
  // (no reading since the governor acted, or none yet).
  double logged_power_w = std::numeric_limits<double>::quiet_NaN();
};

struct GovernorAction {
  double time_s = 0;
  double reading_w = 0;  // the highest reading since the previous action (what it acted on)
  int batch_before = 0, batch_after = 0;
  double clock_before_mhz = 0, clock_after_mhz = 0;
};

struct ServingTrace {
  std::vector<std::string> tenant_models;
  std::vector<ServedRequest> requests;  // in arrival order
  std::vector<ServedBatch> batches;     // in start order
  std::vector<PowerSample> sensor;      // the power sensor's readings, one per sensor period
  std::vector<GovernorAction> actions;
  std::string governor;               // its registry name; "" without one
  std::optional<double> power_cap_w;  // the governor's cap
  double window_start_s = 0;          // metrics count what arrives and completes in [start, end]
  double window_end_s = 0;            // duration_s, or the last completion of a run of requests
  double end_s = 0;                   // the run's last event (at or after its last completion)
  std::size_t passes_simulated = 0;   // distinct (tenant, batch, clock) passes the device simulated
};

}  // namespace dse
