// What a simulation run produced: per-op timeline rows, per-model and whole-run metrics.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/op.h"
#include "models/zoo/zoo.h"
#include "sim/engine/engine.h"

namespace dse {

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

// What only an accelerator run has: its fusion plan, area and power, and FAST's metrics, each also
// relative to tpu_v3_like running the same workload as XLA compiles it (epilogue fusion, tensors
// padded to the array's lines).
struct AcceleratorMetrics {
  std::string fusion;      // the plan used: none, epilogue, greedy, exact, ilp
  std::string padding;     // tensor padding: none, array, auto (sim/accel/tensor_layout.h)
  int fusion_groups = 0;   // over all models
  double area_mm2 = 0;
  double tdp_w = 0;
  double static_w = 0;
  double dram_bytes = 0;   // per pass over the workload
  double inferences_per_s = 0;
  double perf_per_tdp = 0;            // inferences/s per TDP watt
  double perf_per_mm2 = 0;            // inferences/s per mm^2
  double energy_per_inference_j = 0;
  // Ratios to tpu_v3_like (epilogue fusion); nullopt when tpu_v3_like is not in the catalog.
  std::optional<double> inferences_per_s_vs_tpu_v3, perf_per_tdp_vs_tpu_v3, perf_per_mm2_vs_tpu_v3,
      energy_per_inference_vs_tpu_v3;
  // Geometric mean over the models of each one's Perf/TDP ratio (run alone): FAST's suite metric.
  std::optional<double> perf_per_tdp_vs_tpu_v3_geomean;
};

struct RunResult {
  std::string experiment;
  std::string device_kind = "gpu";  // "gpu" or "accelerator"
  std::string device;               // the spec's name
  std::string timing_model;
  std::string calibration;  // "uncalibrated (datasheet)" or the calibration file used
  std::vector<ModelResult> models;
  std::vector<OpRecord> ops;  // one row per kernel, in launch order per stream
  std::string schedule;       // "single_stream" or "stream_per_model"
  TimePs makespan_ps = 0;
  std::optional<double> energy_j;  // only where the device has a power model
  std::optional<AcceleratorMetrics> accelerator;

  double latency_ms() const { return ps_to_ms(makespan_ps); }
  // Inferences (samples) completed per second over the whole run.
  double throughput_per_s() const;
  // After the engine ran: each model's span and the makespan from the op rows.
  void close_timeline();
};

}  // namespace dse
