#include "sim/runtime/gpu_executor.h"

namespace dse {

GpuExecutor::GpuExecutor(Engine& engine, double dram_bandwidth_bytes_per_s, std::shared_ptr<const SharingRule> rule)
    : engine_(engine),
      device_(engine, rule ? std::move(rule) : Sharing::automatic().kernels, dram_bandwidth_bytes_per_s) {
  device_.load_changed.connect([this](TimePs now, const SharedResource::Load& load) {
    dynamic_power_changed.emit(now, load.dynamic_w);
    utilization_changed.emit(now, load.occupancy, load.dram_bytes_per_s);
  });
}

void GpuExecutor::launch(const KernelWork& kernel, int priority, Done done) {
  kernel_started.emit(kernel, engine_.now());
  device_.start({kernel.duration_ps, kernel.gpu_share, kernel.dram_bytes, kernel.dynamic_w, priority}, std::move(done));
}

}  // namespace dse
