#include "sim/runtime/accel_executor.h"

#include <algorithm>
#include <cmath>

namespace dse {
namespace {
constexpr double kDone = 1e-12;
}

void AccelExecutor::start() {
  next_.assign(queues_.size(), 0);
  last_update_ = engine_.now();
  for (std::size_t q = 0; q < queues_.size(); ++q) launch_next(q);
  reschedule();
}

void AccelExecutor::launch_next(std::size_t q) {
  while (next_[q] < queues_[q].size()) {
    AccelTask& task = queues_[q][next_[q]];
    if (task.core_s > 0 || task.dma_s > 0) {
      running_.push_back({q, next_[q]++, engine_.now(), 1.0});
      return;
    }
    task.done(engine_.now(), engine_.now());  // takes no time
    ++next_[q];
  }
}

void AccelExecutor::advance() {
  const double elapsed = static_cast<double>(engine_.now() - last_update_) * 1e-12;
  for (auto& r : running_) r.remaining -= rate_ * elapsed;
  last_update_ = engine_.now();
}

void AccelExecutor::reschedule() {
  double core = 0, dma = 0;
  for (const auto& r : running_) {
    core += queues_[r.queue][r.index].core_s;
    dma += queues_[r.queue][r.index].dma_s;
  }
  if (running_.empty()) return;
  rate_ = 1.0 / std::max(core, dma);
  double soonest = INFINITY;
  for (const auto& r : running_) soonest = std::min(soonest, std::max(0.0, r.remaining) / rate_);
  const std::uint64_t generation = ++generation_;
  engine_.schedule_after(checked_ps(soonest * 1e12, "an op's remaining time"), [this, generation] {
    if (generation != generation_) return;  // superseded by a later change
    advance();
    std::vector<std::size_t> finished_queues;
    for (auto it = running_.begin(); it != running_.end();) {
      // Within a picosecond of done (the event time was rounded up) counts as done.
      if (it->remaining <= kDone + rate_ * 1e-12) {
        queues_[it->queue][it->index].done(it->start, engine_.now());
        finished_queues.push_back(it->queue);
        it = running_.erase(it);
      } else {
        ++it;
      }
    }
    for (const auto q : finished_queues) launch_next(q);
    reschedule();
  });
}

}  // namespace dse
