// The schedule as a search parameter (search.space.schedule: {schedule: {...}}): its values are
// whole multi-tenant schedules of the experiment's models, as the YAML `-p schedule=...` takes
// (sim/runtime/schedule_yaml.h), so every trial replays with `dse run` and the best config holds
// the schedule written out. The block's keys and an example: docs/multitenant.md ("Searching
// schedules").
//
// Contract: sample() and mutate() are pure functions of their arguments (and the models), safe
// from several threads.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/graph.h"
#include "sim/config/config_node.h"

namespace dse {

class ScheduleSampler {
 public:
  // Reads the parameter's block ({max_segments, streams, priorities, sync_points, host_threads,
  // seeds}). Every value, the seeds included, is issued by `host_threads` host threads.
  ScheduleSampler(std::vector<std::shared_ptr<const Graph>> tenants, const ConfigNode& block);

  // The first values of random search and aging evolution (default: every generator of `dse list
  // schedule`), so a search never ends worse than the best baseline it was given.
  const std::vector<std::string>& seeds() const { return seeds_; }
  // A random schedule drawn from u: random cuts, streams, priorities, interleaving and extra sync
  // points, as docs/multitenant.md describes.
  std::string sample(double u) const;
  // `value` changed in one respect (value itself if no change applies), drawn from u: a cut moved,
  // segments split or merged, a segment's stream or a stream's priority changed, two neighbours of
  // the issue order swapped, or a sync point added or dropped. Every result is checked
  // (resolve_schedule); a mutation that would break a dependency or deadlock is not made.
  std::string mutate(const std::string& value, double u) const;

 private:
  std::vector<std::shared_ptr<const Graph>> tenants_;
  std::size_t max_segments_ = 8;
  int streams_ = 1;
  int priorities_ = 1;
  int host_threads_ = 1;
  double sync_points_ = 0.1;
  std::vector<std::string> seeds_;
};

}  // namespace dse
