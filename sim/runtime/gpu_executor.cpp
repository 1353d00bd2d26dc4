#include "sim/runtime/gpu_executor.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dse {

GpuExecutor::GpuExecutor(Engine& engine, double dram_bandwidth_bytes_per_s)
    : engine_(engine), bandwidth_(dram_bandwidth_bytes_per_s) {}

std::size_t GpuExecutor::running() const { return running_.size(); }

void GpuExecutor::launch(const KernelWork& kernel, int priority, Done done) {
  advance_to(engine_.now());
  running_.push_back({kernel, priority, next_order_++, engine_.now(), 1.0, 0.0, std::move(done)});
  std::stable_sort(running_.begin(), running_.end(), [](const Running& a, const Running& b) {
    return a.priority != b.priority ? a.priority > b.priority : a.order < b.order;
  });
  kernel_started.emit(kernel, engine_.now());
  recompute_speeds();
  schedule_next_completion();
}

void GpuExecutor::advance_to(TimePs now) {
  const double elapsed = static_cast<double>(now - updated_ps_);
  for (auto& r : running_)
    r.remaining = std::max(0.0, r.remaining - elapsed * r.speed / static_cast<double>(r.kernel.duration_ps));
  updated_ps_ = now;
}

void GpuExecutor::recompute_speeds() {
  double free_slots = 1.0, demand = 0;
  for (auto& r : running_) {
    const double share = std::clamp(r.kernel.gpu_share, 1e-9, 1.0);
    const double granted = std::min(share, free_slots);
    free_slots -= granted;
    r.speed = granted / share;
    demand += r.speed * r.kernel.dram_bytes / (static_cast<double>(r.kernel.duration_ps) * 1e-12);
  }
  // A kernel alone never exceeds the bandwidth (its duration already includes its traffic).
  const double capacity = std::max(bandwidth_, running_.size() == 1 ? demand : 0.0);
  if (demand > capacity && demand > 0)
    for (auto& r : running_) r.speed *= capacity / demand;
  double dynamic_w = 0, bytes_per_s = 0;
  for (const auto& r : running_) {
    dynamic_w += r.speed * r.kernel.dynamic_w;
    bytes_per_s += r.speed * r.kernel.dram_bytes / (static_cast<double>(r.kernel.duration_ps) * 1e-12);
  }
  dynamic_power_changed.emit(engine_.now(), dynamic_w);
  utilization_changed.emit(engine_.now(), 1.0 - free_slots, bytes_per_s);
}

void GpuExecutor::schedule_next_completion() {
  ++epoch_;
  double soonest = std::numeric_limits<double>::infinity();
  for (const auto& r : running_) {
    if (r.speed <= 0) continue;
    soonest = std::min(soonest, r.remaining * static_cast<double>(r.kernel.duration_ps) / r.speed);
  }
  if (!std::isfinite(soonest)) return;
  const std::uint64_t epoch = epoch_;
  engine_.schedule_after(checked_ps(soonest, "a kernel's remaining time"), [this, epoch] { complete(epoch); });
}

void GpuExecutor::complete(std::uint64_t epoch) {
  if (epoch != epoch_) return;  // speeds changed since: a newer event stands
  advance_to(engine_.now());
  // Every kernel whose work is (within rounding) done completes now, in priority order.
  std::vector<Running> finished;
  for (auto it = running_.begin(); it != running_.end();) {
    const double left_ps = it->speed > 0 ? it->remaining * static_cast<double>(it->kernel.duration_ps) / it->speed
                                         : std::numeric_limits<double>::infinity();
    if (left_ps < 1.0) {
      finished.push_back(std::move(*it));
      it = running_.erase(it);
    } else {
      ++it;
    }
  }
  recompute_speeds();
  schedule_next_completion();
  for (auto& r : finished) {
    kernel_completed.emit(r.kernel, r.start_ps, engine_.now());
    if (r.done) r.done(r.start_ps, engine_.now());
  }
}

}  // namespace dse
