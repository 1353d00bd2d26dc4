// The GPU as a shared resource (sim/runtime/shared_resource.h): kernels that overlap (from
// different streams) share its block slots and its DRAM bandwidth by the device's sharing rule for
// kernels (sim/runtime/sharing_rule.h; `leftover` by default: kernels in priority order, then launch
// order, take the slots they fill alone, KernelWork::gpu_share; later kernels run on what is left;
// DRAM bandwidth scales all). A kernel alone takes exactly its standalone duration; a kernel at
// half speed adds half its dynamic power.
#pragma once

#include <memory>

#include "sim/engine/engine.h"
#include "sim/engine/signal.h"
#include "sim/gpu/gpu_timing_model.h"
#include "sim/runtime/shared_resource.h"

namespace dse {

class GpuExecutor {
 public:
  using Done = SharedResource::Done;

  // `rule` null: the default between kernels (Sharing::automatic().kernels).
  GpuExecutor(Engine& engine, double dram_bandwidth_bytes_per_s, std::shared_ptr<const SharingRule> rule = nullptr);

  // Starts `kernel` now at `priority` (higher first); `done` runs when it completes.
  void launch(const KernelWork& kernel, int priority, Done done);
  std::size_t running() const { return device_.running(); }

  // The dynamic power of what runs (each kernel's KernelWork::dynamic_w times its speed), emitted
  // whenever it changes: at every launch and completion.
  Signal<TimePs, double> dynamic_power_changed;
  // The share of the GPU's block slots the running kernels hold and the DRAM bandwidth they pull
  // (bytes/s), emitted with the power.
  Signal<TimePs, double, double> utilization_changed;
  // Before the kernel is rated in (a device's power tracks the clock each kernel runs at).
  Signal<const KernelWork&, TimePs> kernel_started;

 private:
  Engine& engine_;
  SharedResource device_;
};

}  // namespace dse
