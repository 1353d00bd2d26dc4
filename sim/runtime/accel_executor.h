// The accelerator as two shared resources in the engine: the cores (arrays, vector units, on-chip
// network) and the DMA path to DRAM. Each op needs `core_s` seconds of the whole cores and `dma_s`
// seconds of the whole DMA bandwidth (its first-tile latency counted in both); alone it takes
// max(core_s, dma_s), its transfers overlapping its compute (double buffering).
//
// Ops from different queues (models with `stream_per_model`) run at the same time: every running
// op progresses at the same rate R, the largest for which neither resource is oversubscribed,
// R = 1 / max(sum of core_s, sum of dma_s) over the running ops, recomputed whenever one starts or
// ends. A memory-bound op of one model thus hides under a compute-bound op of another, and two ops
// that need the same resource share it. Ops of one queue run in order, one at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/engine/engine.h"

namespace dse {

struct AccelTask {
  double core_s = 0;
  double dma_s = 0;
  std::function<void(TimePs start, TimePs end)> done;  // called when it completes
};

class AccelExecutor {
 public:
  AccelExecutor(Engine& engine, std::size_t queues) : engine_(engine), queues_(queues) {}
  // Appends a task to queue `q`; call before start().
  void enqueue(std::size_t q, AccelTask task) { queues_.at(q).push_back(std::move(task)); }
  // Schedules the first task of every queue at the engine's current time.
  void start();

 private:
  struct Running {
    std::size_t queue;
    std::size_t index;  // in its queue
    TimePs start;
    double remaining;  // fraction of the task left
  };
  void launch_next(std::size_t q);
  void advance();     // progresses the running tasks to now
  void reschedule();  // plans the next completion event

  Engine& engine_;
  std::vector<std::vector<AccelTask>> queues_;
  std::vector<std::size_t> next_;
  std::vector<Running> running_;
  TimePs last_update_ = 0;
  double rate_ = 0;               // fraction of a task per second, the same for every running task
  std::uint64_t generation_ = 0;  // invalidates completion events planned before a change
};

}  // namespace dse
