// The serving block of an experiment (`workload.serving`), read and validated once: how long the
// run lasts, how the power sensor is read, the GPU's clock levels, one tenant per model of
// workload.models (its arrivals, SLO, batching, instances and optional host stage) and the
// governor. docs/serving.md gives the schema with examples.
//
// A run makes fresh arrival processes, batching policies and a fresh governor from the blocks kept
// here (they hold state), so one spec can run many times (a search's trials) and each run at a seed
// is the same.
//
// Contract: read_serving_spec() validates every block by building it once (so running cannot fail
// on input) and marks every key it reads; the experiment's unknown-key check covers the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config_node.h"
#include "sim/device/device.h"
#include "sim/serving/arrivals.h"
#include "sim/serving/batching.h"
#include "sim/serving/governor.h"

namespace dse {

// Work on the host (JPEG decoding and resizing, tokenising), in one of two places:
// - request: before a request can join a batch, on `workers` parallel workers, each taking
//   `per_item_s` per request, first come first served; it overlaps the device's passes.
// - batch: on the batch's instance, serialised with its pass, as one TensorFlow session call
//   decoded its batch and then ran it (the BatchDVFS paper's setting): the instance is busy for
//   per_batch_s + size x per_item_s with the device idle, then the pass runs.
struct HostStage {
  enum class Stage { request, batch };
  Stage stage = Stage::request;
  double per_item_s = 0;
  double per_batch_s = 0;  // stage batch only
  int workers = 1;         // stage request only
};

struct ServingTenantSpec {
  std::string model;       // the model's name (workload.models[i])
  ConfigNode model_entry;  // workload.models[i]; a batch of b is this entry with batch: b
  ConfigNode arrivals;
  ConfigNode batching;
  std::optional<double> slo_ms;
  int instances = 1;  // model instances on the GPU, each running one batch at a time
  std::optional<HostStage> host;
  int max_batch = 1;  // the batching policy's largest batch
  // What its arrivals bring, for the memory budget (sim/serving/serving_budget.h); nullopt for a
  // closed loop: its mean rate, and its expected requests over duration_s (where that is given).
  std::optional<double> arrival_rate_per_s;
  std::optional<double> expected_requests;
  int largest_own_batch = 1;  // its largest without a governor (BatchingPolicy::largest_own_batch)
};

struct ServingSpec {
  std::string config_file;               // resolves trace files
  std::optional<double> duration_s;      // arrivals stop then (one of duration_s and requests is given)
  std::optional<std::int64_t> requests;  // or after this many requests (over all tenants)
  double warmup_s = 0;                   // metrics count requests arriving from then on
  std::optional<ConfigNode> warmup;      // its key, for a warm-up a run of requests outlives
  std::uint64_t seed = 1;
  double sensor_period_s = 0.1;  // the power sensor's sampling period (nvidia-smi: ~0.1 s)
  // A reading is the mean over this window before it; absent: the mean since the previous reading.
  std::optional<double> sensor_window_s;
  double clock_change_s = 0;             // dispatch is held this long after the SM clock changes
  std::vector<double> clock_levels_mhz;  // ascending
  std::vector<ServingTenantSpec> tenants;
  std::optional<ConfigNode> governor;  // absent: batching as configured, the device's own clock
  std::size_t governed_tenant = 0;
  std::optional<double> power_cap_w;  // the governor's cap, where it has one
  double control_period_s = 3;        // the governor's period (3 s, the paper's, where it never acts)

  // Fresh objects for one run.
  std::unique_ptr<ArrivalProcess> make_arrivals(std::size_t tenant) const;
  std::unique_ptr<BatchingPolicy> make_batching(std::size_t tenant) const;
  // Null without a governor block.
  std::unique_ptr<Governor> make_governor(const GovernorContext& context) const;
  // The context a governor of the governed tenant gets, without the model oracles.
  GovernorContext governor_context() const;
};

// `serving` is workload.serving; `models` is workload.models (one tenant per entry, in order).
std::shared_ptr<const ServingSpec> read_serving_spec(const ConfigNode& serving, const ConfigNode& models,
                                                     const std::string& config_file, const Device& device);

}  // namespace dse
