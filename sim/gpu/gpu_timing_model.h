// What one op launches on a GPU and how long each launch takes alone: the pluggable family behind
// `device.timing_model`. The runtime (sim/runtime) shares the GPU between launches that overlap.
//
// Contract: kernels() is a pure function of the op and the SM clock (and the spec the model was
// built with), safe to call from many threads; durations are positive integers of picoseconds.
// Every model shares the GPU's power model (sim/gpu/gpu_power.h), so each kernel also says what
// it adds to the board's power while it runs.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/base/registry.h"
#include "models/graph.h"
#include "sim/device/device.h"
#include "sim/gpu/gpu_power.h"
#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

// One kernel as the runtime needs it.
struct KernelWork {
  std::string name;
  std::int64_t duration_ps = 1;  // alone on the GPU
  double gpu_share = 1.0;        // fraction of the GPU's block slots it fills alone, in (0, 1]
  double dram_bytes = 0;         // DRAM traffic of the launch
  std::string bound;             // "compute", "memory", "latency" or "none"
  double dynamic_w = 0;          // power it adds alone (SMs and DRAM), above idle and leakage
  double clock_mhz = 0;          // the SM clock it was timed at
};

// `kernel` as the runtime runs it, timed by `timer` at `clock_mhz`: its duration alone, the share
// of the GPU's block slots it fills, its DRAM bytes and the dynamic power it adds.
KernelWork kernel_work(const Kernel& kernel, const KernelTimer& timer, double clock_mhz);

struct OpTiming {
  std::int64_t duration_ps = 0;  // its kernels back to back, alone
  std::string bound;             // of its longest kernel
};

class GpuTimingModel {
 public:
  static constexpr const char* family_name = "gpu_timing";
  static constexpr const char* family_description = "How a GPU op's duration is computed";
  // A model is made for one GPU and reads its own keys from the experiment's device block (the
  // kernel model its `calibration`), so a model with new knobs touches one file; keys no model
  // reads are reported as unknown. Whatever is expensive to build is shared through the context's
  // cache (a search's trials).
  struct Context {
    const ConfigNode& device;          // the device block (also holds gpu: and timing_model:)
    const std::string& config_file;    // resolves relative paths
    std::vector<HardwareFile>& files;  // the spec file first; a model appends the files it reads
    RunCache* cache = nullptr;         // null: build for this device alone
  };
  using Factory = std::function<std::shared_ptr<const GpuTimingModel>(const GpuSpec&, const Context&)>;

  virtual ~GpuTimingModel() = default;
  // The kernels `op` (of `graph`: lowering needs its tensors) launches, in order, each timed at
  // `clock_mhz`; none for a view.
  virtual std::vector<KernelWork> kernels(const Graph& graph, const Op& op, double clock_mhz) const = 0;
  // The GPU's power model (and through it the spec).
  virtual const GpuPowerModel& power() const = 0;
  // DRAM bandwidth kernels share when they overlap, bytes per second.
  virtual double dram_bandwidth_bytes_per_s() const = 0;
  // Where the model's numbers come from, e.g. "uncalibrated (datasheet)".
  virtual std::string calibration() const = 0;
  // What the host thread spends issuing one kernel, seconds: a schedule's host issues its kernels
  // one after another at this rate (sim/runtime/schedule.h). 0 where the model has no launch cost.
  virtual double host_launch_s() const = 0;

  // The op's kernels back to back at `clock_mhz` (the boost clock when absent).
  OpTiming time(const Graph& graph, const Op& op, std::optional<double> clock_mhz = std::nullopt) const;
};

using GpuTimingRegistry = Registry<GpuTimingModel>;

}  // namespace dse
