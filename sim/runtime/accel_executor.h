// The accelerator's op queues on the shared-resource executor (sim/runtime/shared_resource.h). An
// op needs `core_s` of the whole cores (arrays, vector units, on-chip network) and `dma_s` of the
// whole DMA path to DRAM (its first-tile latency counted in both); alone it takes max(core_s, dma_s),
// its transfers overlapping its compute (double buffering). So it fills core_s / max(...) of the
// cores and moves dma_s x the DRAM bandwidth.
//
// Each queue runs its ops in order, one at a time. Ops of different queues (models with
// `stream_per_model`) run at once and share the cores and the DMA path by the device's sharing rule
// between ops (`proportional_dram` under `auto`: the cores split in proportion to what each op
// fills, then DRAM traffic scaled to fit the bandwidth), re-rated whenever one starts or ends. A
// memory-bound op of one model thus hides under a compute-bound op of another.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/runtime/shared_resource.h"

namespace dse {

struct AccelTask {
  double core_s = 0;
  double dma_s = 0;
  double dynamic_w = 0;                                // its dynamic power alone (event energy / time alone)
  std::function<void(TimePs start, TimePs end)> done;  // called when it completes
};

class AccelExecutor {
 public:
  AccelExecutor(Engine& engine, std::size_t queues, std::shared_ptr<const SharingRule> rule, double dram_bytes_per_s);
  // Appends a task to queue `q`; call before start().
  void enqueue(std::size_t q, AccelTask task) { queues_.at(q).push_back(std::move(task)); }
  // Starts the first task of every queue at the engine's current time.
  void start();
  // What the running ops hold (their dynamic power at the speeds granted), at every start and end.
  Signal<TimePs, const SharedResource::Load&>& load_changed() { return device_.load_changed; }

 private:
  void launch_next(std::size_t q);

  Engine& engine_;
  SharedResource device_;
  double dram_bytes_per_s_;
  std::vector<std::vector<AccelTask>> queues_;
  std::vector<std::size_t> next_;
};

}  // namespace dse
