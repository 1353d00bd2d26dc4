// A device kind: the hardware an experiment's `device:` block names, as a registered family. Each
// kind is one folder (sim/gpu/gpu_device.cpp, sim/accel/accel_device.cpp) whose factory reads its
// own config node, and whose object gives the metrics known before simulating (area, TDP), the
// metrics a run produces, and the run itself.
//
// The registry name is the key that selects the kind in the device block: `device: {gpu: h200}`
// makes a "gpu" device, `device: {accelerator: tpu_v3_like}` an "accelerator" one.
//
// Contract: a factory either returns a device whose run() cannot fail on input, or throws
// ConfigError pointing at the offending key; a device is immutable and run() is safe to call from
// many threads at once. run() produces exactly the metrics metric_names() declares, in that order.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/base/registry.h"
#include "sim/config/config_node.h"
#include "sim/device/pass_profile.h"
#include "sim/engine/engine.h"
#include "sim/metrics/metric_table.h"
#include "sim/run/run_cache.h"
#include "sim/run/run_result.h"
#include "sim/runtime/sharing_rule.h"

namespace dse {

struct Experiment;
struct ModelRequest;
struct ResolvedSchedule;

// A hardware file a device was built from, kept so a result records exactly what was used.
struct HardwareFile {
  std::string path;     // as resolved ("configs/hardware/gpu/h200.yaml" or "embedded:...")
  std::string content;  // the file's bytes
};

class Device {
 public:
  static constexpr const char* family_name = "device";
  static constexpr const char* family_description = "Device kinds, named by their key in an experiment's device block";
  // `device` is the experiment's device block (with this kind's key); `config_file` resolves
  // relative spec paths and user catalogs; what is expensive to build and shared between runs
  // (timing models, baselines) comes from `cache`.
  using Factory = std::function<std::shared_ptr<const Device>(const ConfigNode& device, const std::string& config_file,
                                                              RunCache& cache)>;

  virtual ~Device() = default;
  virtual std::string kind() const = 0;          // its registry name: "gpu", "accelerator"
  virtual std::string name() const = 0;          // the spec's short name ("h200")
  virtual std::string display_name() const = 0;  // "NVIDIA H200 SXM 141GB"
  virtual std::string timing_model() const = 0;  // how op times are computed ("kernel", "accel_template")
  virtual std::string calibration() const = 0;   // "uncalibrated (datasheet)" or where its numbers come from
  virtual std::vector<HardwareFile> hardware_files() const = 0;
  // Rejects models the device cannot run (a ConfigError at the model's entry in `models_node`).
  virtual void check_models(const std::vector<ModelRequest>& models, const ConfigNode& models_node) const;
  // Rejects a schedule the device cannot run (a ConfigError at `block`, the experiment's schedule
  // block; null when it has none). Default: any.
  virtual void check_schedule(const ResolvedSchedule& schedule, const ConfigNode* block) const;
  // Metrics known without simulating (area_mm2, tdp_w), so cheap constraints skip the simulation.
  virtual MetricTable cheap_metrics() const = 0;
  // Every metric a run of `model_count` models produces, in the order run() reports them.
  virtual std::vector<std::string> metric_names(std::size_t model_count) const = 0;
  // The values a search may enumerate for a device key written `{choice: supported}` (a GPU's
  // clock table for device.sm_clock_mhz); nullopt for keys without such a list.
  virtual std::optional<std::vector<std::string>> supported_values(std::string_view key) const;
  // With a deadline, throws SimulationTimeout once the wall clock passes it.
  virtual RunResult run(const Experiment& experiment, WallDeadline deadline) const = 0;
  // What serving runs on (sim/serving): the operating points a governor may set, slowest first
  // (empty where the device has no clock knob), and one pass of `experiment` alone on the device at
  // `clock_mhz` (one of those points or a clock between them; nullopt: as configured, as run() does).
  virtual std::vector<OperatingPoint> operating_points() const = 0;
  // Whether the operating points are the only clocks the device can be set to (a GPU spec's driver
  // table); false where they are an estimate and a clock between them is simulated as given.
  virtual bool only_operating_points() const { return false; }
  virtual PassProfile profile(const Experiment& experiment, std::optional<double> clock_mhz,
                              WallDeadline deadline) const = 0;
  // The metric a serving run reports its time-averaged clock under ("sm_clock_mhz", "clock_mhz").
  virtual std::string clock_metric() const = 0;
  // How concurrent work shares the device (the device block's `sharing`: kernels of several streams
  // on a GPU; batches of several instances or tenants in a serving run, Sharing::passes), and its
  // DRAM bandwidth, bytes/s, which rules with a DRAM term share.
  virtual const Sharing& sharing() const = 0;
  virtual double dram_bytes_per_s() const = 0;
  // The memory the models' weights, KV caches and activations live in, bytes (a GPU's, an
  // accelerator's DRAM); nullopt where the device has no such limit.
  virtual std::optional<double> memory_bytes() const { return std::nullopt; }
};

using DeviceRegistry = Registry<Device>;

// Reads the experiment's device block: exactly one registered kind's key must be present.
std::shared_ptr<const Device> read_device(const ConfigNode& device, const std::string& config_file, RunCache& cache);

// The metrics every device kind reports first, from the timeline: latency_ms, throughput_per_s,
// tdp_w, perf_per_tdp and, for two or more models, each one's latency_ms_model<I> and
// throughput_per_s_model<I>. metric_names() of a kind starts with workload_metric_names().
std::vector<std::string> workload_metric_names(std::size_t model_count);
void add_workload_metrics(RunResult& result, double tdp_w);

}  // namespace dse
