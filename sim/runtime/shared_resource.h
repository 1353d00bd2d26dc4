// A device as a shared resource: work in flight on it (kernels of several streams on a GPU, batches
// of several instances or tenants in a serving run, the timed loops of concurrent calibration
// workers) runs at the speed its sharing rule grants (sim/runtime/sharing_rule.h), re-rated
// whenever a work starts or ends. A work alone takes exactly its solo time. Power follows speed: a
// work at half speed adds half its dynamic power.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/engine/signal.h"
#include "sim/runtime/sharing_rule.h"

namespace dse {

class SharedResource {
 public:
  struct Work {
    TimePs solo_ps = 0;     // its duration alone
    double share = 1;       // of the device's slots it fills alone, (0, 1]
    double dram_bytes = 0;  // DRAM bytes it moves over solo_ps
    double dynamic_w = 0;   // its dynamic power alone
    int priority = 0;       // higher first
  };
  using Done = std::function<void(TimePs start_ps, TimePs end_ps)>;

  SharedResource(Engine& engine, std::shared_ptr<const SharingRule> rule, double dram_bytes_per_s);
  SharedResource(const SharedResource&) = delete;
  SharedResource& operator=(const SharedResource&) = delete;

  // Starts `work` now; `done` runs when it completes (works done at the same instant complete
  // together, in priority order, after the survivors are re-rated).
  void start(const Work& work, Done done);
  std::size_t running() const { return running_.size(); }

  // What the running works hold, emitted at every start and completion: their dynamic power (each
  // work's dynamic_w times its speed), the share of the device's slots they hold and the DRAM
  // bandwidth they pull (bytes/s).
  struct Load {
    double dynamic_w = 0;
    double occupancy = 0;
    double dram_bytes_per_s = 0;
  };
  Signal<TimePs, const Load&> load_changed;

 private:
  struct Running {
    Work work;
    std::uint64_t order;
    TimePs start_ps;
    double remaining;  // fraction of its solo work left
    double speed;      // fraction of its solo speed
    Done done;
  };
  void advance_to(TimePs now);
  void rerate();
  void schedule_next_completion();
  void complete(std::uint64_t epoch);

  Engine& engine_;
  std::shared_ptr<const SharingRule> rule_;
  double bandwidth_;
  std::vector<Running> running_;  // priority order, then start order
  std::vector<ShareDemand> demands_;
  std::vector<double> speeds_;
  std::uint64_t next_order_ = 0;
  std::uint64_t epoch_ = 0;
  TimePs updated_ps_ = 0;
};

}  // namespace dse
