#include "sim/runtime/accel_executor.h"

#include <algorithm>
#include <cmath>

namespace dse {

AccelExecutor::AccelExecutor(Engine& engine, std::size_t queues, std::shared_ptr<const SharingRule> rule,
                             double dram_bytes_per_s)
    : engine_(engine),
      device_(engine, std::move(rule), dram_bytes_per_s),
      dram_bytes_per_s_(dram_bytes_per_s),
      queues_(queues) {}

void AccelExecutor::start() {
  next_.assign(queues_.size(), 0);
  for (std::size_t q = 0; q < queues_.size(); ++q) launch_next(q);
}

void AccelExecutor::launch_next(std::size_t q) {
  while (next_[q] < queues_[q].size()) {
    AccelTask& task = queues_[q][next_[q]++];
    const double solo_s = std::max(task.core_s, task.dma_s);
    const TimePs solo_ps = checked_ps(std::round(solo_s * 1e12), "an op's time alone");
    if (solo_ps <= 0) {
      task.done(engine_.now(), engine_.now());  // takes no time
      continue;
    }
    const SharedResource::Work work{solo_ps, task.core_s / solo_s, task.dma_s * dram_bytes_per_s_, task.dynamic_w, 0};
    device_.start(work, [this, q, &task](TimePs start, TimePs end) {
      task.done(start, end);
      launch_next(q);
    });
    return;
  }
}

}  // namespace dse
