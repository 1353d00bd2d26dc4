// A GPU as a device kind (`device: {gpu: NAME|FILE.yaml, timing_model, calibration, sm_clock_mhz,
// power_limit_w, power_window_ms, sharing}`): its datasheet spec, the timing model that turns ops
// into kernels, the clock and power limit it runs under, and the run of an experiment's models
// through the discrete-event engine, their kernels on CUDA-like streams (sim/runtime) by the
// experiment's schedule (sim/runtime/schedule.h). The SM clock is the one the firmware's power
// limit allows, per pass or per averaging window of a longer pass (sim/gpu/gpu_power.h;
// docs/power.md, "Clocks as the firmware sets them").
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/device/device.h"
#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/gpu_timing_model.h"

namespace dse {

class GpuDevice final : public Device {
 public:
  // `timing_model` is a gpu_timing registry name; the model is made by its factory from `device`
  // (the device block: the model reads its own keys), sharing through `cache` what another device
  // read from the same files built (a search's trials). `files` starts with the spec file (empty
  // for a spec assembled in code, which then shares nothing).
  GpuDevice(GpuSpec spec, std::string timing_model, const ConfigNode& device, const std::string& config_file,
            std::vector<HardwareFile> files, RunCache* cache = nullptr);
  // A spec assembled in code, with the timing model's defaults (no device block, nothing shared).
  GpuDevice(GpuSpec spec, std::string timing_model);
  // Reads the device block: gpu (catalog name or spec file), timing_model (which reads its own keys
  // of the block, calibration), sm_clock_mhz, power_limit_w, power_window_ms, sharing.
  static std::shared_ptr<const Device> from_config(const ConfigNode& device, const std::string& config_file,
                                                   RunCache& cache);
  // The keys from_config reads itself (KeySpec), not its timing model's.
  static std::vector<KeySpec> declared_keys();

  const GpuSpec& spec() const { return spec_; }
  const GpuTimingModel& timing() const { return *timing_; }

  std::string kind() const override { return "gpu"; }
  std::string name() const override { return spec_.name; }
  std::string display_name() const override { return spec_.display_name; }
  std::string timing_model() const override { return timing_model_; }
  std::string calibration() const override { return timing_->calibration(); }
  std::vector<HardwareFile> hardware_files() const override { return files_; }
  // FP8 only where the GPU has FP8 units (its spec's tensor-core table): elsewhere it would run at
  // the FP32 rate, 4-8x slower than FP16, which no framework does.
  void check_models(const std::vector<ModelRequest>& models, const ConfigNode& models_node) const override;
  MetricTable cheap_metrics() const override;
  std::vector<std::string> metric_names(std::size_t model_count) const override;
  // The result says which clock(s) and why (RunResult::device_settings "clock"), and carries the
  // board power and the clock over time.
  RunResult run(const Experiment& experiment, WallDeadline deadline) const override;
  // The driver table's clocks, slowest first, each with the power model's supply voltage.
  std::vector<OperatingPoint> operating_points() const override;
  // With a driver table in the spec, its entries are the only application clocks.
  bool only_operating_points() const override { return spec_.supported_clocks.has_value(); }
  // At an application clock (a governor's): clamped to the table, held lower by the power limit.
  PassProfile profile(const Experiment& experiment, std::optional<double> clock_mhz,
                      WallDeadline deadline) const override;
  std::string clock_metric() const override { return "sm_clock_mhz"; }
  const Sharing& sharing() const override { return sharing_; }
  double dram_bytes_per_s() const override { return timing_->dram_bandwidth_bytes_per_s(); }
  // Its spec's (nullopt for a spec assembled in code without one).
  std::optional<double> memory_bytes() const override {
    return spec_.memory_gib > 0 ? std::optional<double>(spec_.memory_gib * 1073741824.0) : std::nullopt;
  }
  // Values a search may enumerate for `key` ({choice: supported}): the clock table for sm_clock_mhz.
  std::optional<std::vector<std::string>> supported_values(std::string_view key) const override;

  const GpuOperatingPoint& operating_point() const { return point_; }
  bool clock_locked() const { return clock_locked_; }

 private:
  GpuSpec spec_;
  std::string timing_model_;
  std::vector<HardwareFile> files_;
  std::shared_ptr<const GpuTimingModel> timing_;
  GpuOperatingPoint point_;
  Sharing sharing_;
  bool clock_locked_ = false;
  bool below_driver_minimum_ = false;  // a power limit nvidia-smi would refuse, simulated as a what-if
  double clock_floor_mhz_ = 0;         // the driver table's lowest entry
  TimePs power_window_ps_ = 0;         // the firmware's averaging window

  // One op's launch in a pass (in launch order), so that it can be timed again at another clock.
  struct OpLaunch {
    const Graph* graph = nullptr;
    const Op* op = nullptr;
    TimePs start_ps = 0;  // its first kernel's start
    TimePs end_ps = 0;    // its last kernel's end
    double clock_mhz = 0;
  };
  // A simulated pass and the time-averaged share of the GPU its kernels fill alone (1 where they
  // saturate it), which serving overlaps concurrent batches by.
  struct Pass {
    RunResult result;
    double gpu_share = 1;
  };
  // A pass as configured (the locked or boost clock; nullopt) or at an application clock, clamped to
  // the driver table.
  Pass run_at(const Experiment& experiment, std::optional<double> clock_mhz, WallDeadline deadline) const;
  // A pass at the clock(s) the firmware allows up to `cap` (the locked or boost clock), never below
  // the driver table's lowest entry; `cap_name` says what the cap is ("boost clock", "locked clock",
  // "application clock"). A pass no longer than the window runs at one clock, the highest at which
  // its average power fits the limit (a pass repeats back to back, as a benchmark loop or a steady
  // stream of requests runs it).
  Pass run_capped(const Experiment& experiment, double cap, const std::string& cap_name, WallDeadline deadline) const;
  // A pass longer than the window: a clock per window of its work, lower where its work draws more
  // and back up where it fits again (`at_cap`: the pass at `cap`).
  Pass run_windowed(const Experiment& experiment, double cap, const std::string& cap_name, Pass at_cap,
                    std::vector<OpLaunch> launches, WallDeadline deadline, std::string& reason) const;
  // One pass of the experiment, the op launched n-th at op_clocks[n] (at `clock_mhz` past its end);
  // `launches` (if given) receives every op's launch.
  Pass simulate(const Experiment& experiment, double clock_mhz, WallDeadline deadline,
                const std::vector<double>& op_clocks = {}, std::vector<OpLaunch>* launches = nullptr) const;
};

}  // namespace dse
