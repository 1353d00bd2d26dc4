// The GPU as a shared resource: kernels that overlap (from different streams) share its block
// slots and its DRAM bandwidth, the way the hardware does.
//
// Slots follow the leftover policy: kernels in priority order (then launch order) take the slots
// they can fill alone (KernelWork::gpu_share); later kernels run on what is left. A kernel with a
// fraction f of its slots progresses at f of its standalone speed. If the running kernels together
// would pull more than the DRAM bandwidth, every kernel's speed is scaled by the same factor.
// Speeds are recomputed whenever a kernel starts or ends. A kernel alone takes exactly its
// standalone duration. Power follows speed: a kernel at half speed adds half its dynamic power.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/engine/signal.h"
#include "sim/gpu/gpu_timing_model.h"

namespace dse {

class GpuExecutor {
 public:
  using Done = std::function<void(TimePs start_ps, TimePs end_ps)>;

  GpuExecutor(Engine& engine, double dram_bandwidth_bytes_per_s);
  GpuExecutor(const GpuExecutor&) = delete;
  GpuExecutor& operator=(const GpuExecutor&) = delete;

  // Starts `kernel` now at `priority` (higher first); `done` runs when it completes.
  void launch(const KernelWork& kernel, int priority, Done done);
  std::size_t running() const;

  // The dynamic power of what runs (each kernel's KernelWork::dynamic_w times its speed), emitted
  // whenever it changes: at every launch and completion.
  Signal<TimePs, double> dynamic_power_changed;
  // The share of the GPU's block slots the running kernels hold and the DRAM bandwidth they pull
  // (bytes/s), emitted with the power.
  Signal<TimePs, double, double> utilization_changed;
  Signal<const KernelWork&, TimePs> kernel_started;
  Signal<const KernelWork&, TimePs, TimePs> kernel_completed;

 private:
  struct Running {
    KernelWork kernel;
    int priority;
    std::uint64_t order;
    TimePs start_ps;
    double remaining;  // fraction of its standalone work left
    double speed;      // fraction of its standalone speed
    Done done;
  };
  void advance_to(TimePs now);
  void recompute_speeds();
  void schedule_next_completion();
  void complete(std::uint64_t epoch);

  Engine& engine_;
  double bandwidth_;
  std::vector<Running> running_;
  std::uint64_t next_order_ = 0;
  std::uint64_t epoch_ = 0;
  TimePs updated_ps_ = 0;
};

}  // namespace dse
