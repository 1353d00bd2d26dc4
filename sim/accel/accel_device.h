// A TPU-like accelerator design as a device kind (`device: {accelerator: NAME|FILE.yaml, fusion,
// padding, and any accelerator-spec key overriding the named spec's}`), and the run of an
// experiment's models on it through the discrete-event engine.
//
// Each model is prepared once (sim/accel/accel_workload.h), mapped onto the design and fused
// (sim/accel/accel_evaluator.h); its ops then run in the engine on the accelerator's two shared
// resources, the cores and the DMA path (sim/runtime/accel_executor.h), each alone taking the time
// the mapping and fusion plan give it. `single_stream` runs the models one after another;
// `stream_per_model` gives each model its own queue, so one model's memory-bound ops overlap
// another's compute-bound ones. Its metrics are FAST's, each also relative to tpu_v3_like running
// the same workload as XLA compiles it (epilogue fusion, tensors padded to the array's lines).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/accel/accel_spec.h"
#include "sim/accel/fusion_plan.h"
#include "sim/accel/tensor_layout.h"
#include "sim/device/device.h"

namespace dse {

class AcceleratorDevice final : public Device {
 public:
  // `baseline` (tpu_v3_like) is what the *_vs_tpu_v3 metrics are relative to; null leaves them out.
  AcceleratorDevice(AcceleratorSpec spec, FusionMode fusion, PaddingMode padding,
                    std::shared_ptr<const AcceleratorSpec> baseline, std::vector<HardwareFile> files,
                    Sharing sharing = automatic_sharing());
  static std::shared_ptr<const Device> from_config(const ConfigNode& device, const std::string& config_file,
                                                   RunCache& cache);
  // The keys from_config reads besides the spec's own (KeySpec).
  static std::vector<KeySpec> declared_keys();

  const AcceleratorSpec& spec() const { return spec_; }
  FusionMode fusion() const { return fusion_; }
  PaddingMode padding() const { return padding_; }

  std::string kind() const override { return "accelerator"; }
  std::string name() const override { return spec_.name; }
  std::string display_name() const override { return spec_.display_name; }
  std::string timing_model() const override { return "accel_template"; }
  std::string calibration() const override { return "area and power anchored to TPU-v3"; }
  std::vector<HardwareFile> hardware_files() const override { return files_; }
  // Every model must be in the arrays' native dtype.
  void check_models(const std::vector<ModelRequest>& models, const ConfigNode& models_node) const override;
  // Its op queues run whole models: every model one segment on one queue, no sync points.
  void check_schedule(const ResolvedSchedule& schedule, const ConfigNode* block) const override;
  MetricTable cheap_metrics() const override;
  std::vector<std::string> metric_names(std::size_t model_count) const override;
  RunResult run(const Experiment& experiment, WallDeadline deadline) const override;
  // Its clock/voltage levels: kDvfsLevels clocks evenly spaced from where the V-f curve reaches its
  // lowest supply (or half the design clock, if that is lower) up to the design clock, each with
  // the curve's voltage (sim/accel/accel_power_area.h). The design clock is the fastest the design
  // closes timing at, so no level is above it.
  std::vector<OperatingPoint> operating_points() const override;
  // A pass with the whole design at `clock_mhz` (clamped to its levels): idle is the leakage at the
  // lowest level's supply, static what the pass's supply adds, dynamic every op's event energy.
  PassProfile profile(const Experiment& experiment, std::optional<double> clock_mhz,
                      WallDeadline deadline) const override;
  std::string clock_metric() const override { return "clock_mhz"; }
  // Between the ops of its queues (sim/runtime/accel_executor.h) and between serving batches
  // (instances, tenants; a pass keeps the whole design busy, share 1).
  const Sharing& sharing() const override { return sharing_; }
  // `auto`: `proportional_dram` between ops (cores split by what each op fills, then the DMA path
  // shared), `proportional` between whole passes, as on a GPU.
  static Sharing automatic_sharing();
  double dram_bytes_per_s() const override { return spec_.dram_bytes_per_s(); }
  // Its spec's (nullopt for a spec assembled in code without one).
  std::optional<double> memory_bytes() const override {
    return spec_.dram_capacity_gib > 0 ? std::optional<double>(spec_.dram_capacity_gib * 1073741824.0) : std::nullopt;
  }
  // An assumption: no accelerator publishes its V-f table. Eight levels are as fine as the ten the
  // BatchDVFS paper gives its governor on the P40 while keeping the cost table small (each level of
  // each batch size is a pass the serving run simulates).
  static constexpr int kDvfsLevels = 8;

 private:
  // One pass of the models on `spec` (this design, or it at another clock); `dynamic_j` (if given)
  // receives the ops' dynamic energy.
  RunResult run_pass(const Experiment& experiment, const AcceleratorSpec& spec, WallDeadline deadline,
                     double* dynamic_j) const;

  AcceleratorSpec spec_;
  FusionMode fusion_;
  PaddingMode padding_;
  std::shared_ptr<const AcceleratorSpec> baseline_;
  std::vector<HardwareFile> files_;
  Sharing sharing_;
};

}  // namespace dse
