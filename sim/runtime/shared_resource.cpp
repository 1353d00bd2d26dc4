#include "sim/runtime/shared_resource.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dse {

SharedResource::SharedResource(Engine& engine, std::shared_ptr<const SharingRule> rule, double dram_bytes_per_s)
    : engine_(engine), rule_(std::move(rule)), bandwidth_(dram_bytes_per_s) {}

void SharedResource::start(const Work& work, Done done) {
  advance_to(engine_.now());
  running_.push_back({work, next_order_++, engine_.now(), 1.0, 0.0, std::move(done)});
  std::stable_sort(running_.begin(), running_.end(), [](const Running& a, const Running& b) {
    return a.work.priority != b.work.priority ? a.work.priority > b.work.priority : a.order < b.order;
  });
  rerate();
  schedule_next_completion();
}

void SharedResource::advance_to(TimePs now) {
  const double elapsed = static_cast<double>(now - updated_ps_);
  for (auto& r : running_)
    r.remaining = std::max(0.0, r.remaining - elapsed * r.speed / static_cast<double>(r.work.solo_ps));
  updated_ps_ = now;
}

void SharedResource::rerate() {
  demands_.clear();
  for (const auto& r : running_)
    demands_.push_back({r.work.share, r.work.dram_bytes, static_cast<double>(r.work.solo_ps) * 1e-12, r.work.priority});
  const double occupancy = rule_->grant(demands_, bandwidth_, speeds_);
  Load load{0, occupancy, 0};
  for (std::size_t i = 0; i < running_.size(); ++i) {
    Running& r = running_[i];
    r.speed = speeds_[i];
    load.dynamic_w += r.speed * r.work.dynamic_w;
    load.dram_bytes_per_s += r.speed * r.work.dram_bytes / demands_[i].solo_s;
  }
  load_changed.emit(engine_.now(), load);
}

void SharedResource::schedule_next_completion() {
  ++epoch_;
  double soonest = std::numeric_limits<double>::infinity();
  for (const auto& r : running_) {
    if (r.speed <= 0) continue;
    soonest = std::min(soonest, r.remaining * static_cast<double>(r.work.solo_ps) / r.speed);
  }
  if (!std::isfinite(soonest)) return;
  const std::uint64_t epoch = epoch_;
  engine_.schedule_after(checked_ps(soonest, "a work's remaining time"), [this, epoch] { complete(epoch); });
}

void SharedResource::complete(std::uint64_t epoch) {
  if (epoch != epoch_) return;  // speeds changed since: a newer event stands
  advance_to(engine_.now());
  // Every work whose time left is (within rounding) under a picosecond completes now.
  std::vector<Running> finished;
  for (auto it = running_.begin(); it != running_.end();) {
    const double left_ps = it->speed > 0 ? it->remaining * static_cast<double>(it->work.solo_ps) / it->speed
                                         : std::numeric_limits<double>::infinity();
    if (left_ps < 1.0) {
      finished.push_back(std::move(*it));
      it = running_.erase(it);
    } else {
      ++it;
    }
  }
  rerate();
  schedule_next_completion();
  for (auto& r : finished)
    if (r.done) r.done(r.start_ps, engine_.now());
}

}  // namespace dse
