// The schedule as a search parameter (search.space.schedule: {schedule: {...}}): its values are
// whole multi-tenant schedules of the experiment's models, as the YAML `-p schedule=...` takes
// (sim/runtime/schedule_yaml.h), so every trial replays with `dse run` and the best config holds
// the schedule written out.
//
//   search:
//     space:
//       schedule: {schedule: {max_segments: 8, streams: 4, priorities: 2, sync_points: 0.1,
//                             host_threads: 1, seeds: [single_stream, stream_per_model, breadth_first]}}
//
// A random value cuts each model into 1..max_segments segments at random ops, puts each segment
// on one of `streams` streams with one of `priorities` priorities, issues the segments in a random
// interleaving of the models, adds the sync points the cuts need and, with probability
// `sync_points` per segment, one more on a segment of another model issued before it. A mutation
// changes one thing of a schedule: moves a cut, splits or merges segments, moves a segment to
// another stream, changes a stream's priority, swaps two neighbours of the issue order, or adds or
// drops a sync point; every result is checked (resolve_schedule) and a mutation that would break a
// dependency or deadlock is not made. The first values of random search and aging evolution are the
// `seeds` (default: every generator of `dse list schedule`), so a search never ends worse than the
// best baseline it was given. Every value (seeds included) is issued by `host_threads` host threads.
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
  // Reads the parameter's block ({max_segments, streams, priorities, sync_points, seeds}).
  ScheduleSampler(std::vector<std::shared_ptr<const Graph>> tenants, const ConfigNode& block);

  const std::vector<std::string>& seeds() const { return seeds_; }
  std::string sample(double u) const;
  // `value` changed in one respect (value itself if no change applies), drawn from u.
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
