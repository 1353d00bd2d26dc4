// What a simulation run produced: per-op timeline rows, per-model results and the run's metric table.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/op.h"
#include "models/zoo/zoo.h"
#include "sim/engine/engine.h"
#include "sim/metrics/metric_table.h"
#include "sim/metrics/power_sample.h"

namespace dse {

struct ServingTrace;

// One kernel of the simulated timeline. An op's costs sit on its first kernel's row (zero on the
// others), so column sums are the workload's totals.
struct OpRecord {
  std::size_t model_index = 0;
  std::string name;    // the op
  std::string kernel;  // the kernel it launched
  OpKind kind = OpKind::relu;
  Shape output_shape;
  int stream = 0;
  TimePs start_ps = 0;
  TimePs end_ps = 0;
  OpCost cost;
  double dram_bytes = 0;  // of this kernel
  std::string bound;      // "compute", "memory", "latency" or "none"
};

struct ModelResult {
  std::string name;
  ModelParams params;
  OpCost total;
  std::size_t op_count = 0;
  TimePs start_ps = 0;
  TimePs end_ps = 0;

  double latency_ms() const { return ps_to_ms(end_ps - start_ps); }
  double throughput_per_s() const { return params.batch / (latency_ms() * 1e-3); }
};

// What the GPU's running kernels hold from `start_ps` until the next sample: the share of its
// block slots (SM occupancy, 0..1) and the DRAM bandwidth they pull.
struct UtilizationSample {
  TimePs start_ps = 0;
  double sm_occupancy = 0;
  double dram_gb_per_s = 0;
};

struct RunResult {
  std::string experiment;
  std::string device_kind;  // the device's registry name: "gpu", "accelerator"
  std::string device;       // the spec's name
  std::string timing_model;
  std::string calibration;  // "uncalibrated (datasheet)" or the calibration file used
  // Settings of the device that are words, not numbers (an accelerator's fusion plan and padding),
  // in the order the device reports them.
  std::vector<std::pair<std::string, std::string>> device_settings;
  std::vector<ModelResult> models;
  std::vector<OpRecord> ops;     // one row per kernel, in launch order per stream
  std::string schedule;          // the schedule's policy ("single_stream", "breadth_first", "explicit", ...)
  std::string schedule_summary;  // ResolvedSchedule::summary()
  TimePs makespan_ps = 0;
  MetricTable metrics;  // every number the run reports (sim/metrics/metric_catalog.h)
  // Piecewise-constant board power and clock over [0, makespan] (sim/metrics/board_power.h).
  std::vector<PowerSample> power;
  // Piecewise-constant SM occupancy and DRAM bandwidth over [0, makespan] (GPU runs).
  std::vector<UtilizationSample> utilization;
  // A serving run's requests, batches, sensor readings and governor actions (sim/serving); null
  // for a one-pass run.
  std::shared_ptr<const ServingTrace> serving;

  double latency_ms() const { return ps_to_ms(makespan_ps); }
  // Inferences (samples) completed per second over the whole run.
  double throughput_per_s() const;
  // After the engine ran: each model's span and the makespan from the op rows.
  void close_timeline();
};

}  // namespace dse
