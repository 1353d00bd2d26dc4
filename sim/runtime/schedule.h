// A multi-tenant schedule: how the ops of an experiment's models (its tenants) reach the GPU's
// streams. Each tenant is cut into segments of consecutive ops, each segment on one stream; host
// threads issue the segments in one issue order; sync points and stream priorities order the rest.
// Written by hand (`schedule: {tenants, order, waits}`, inline or `{file: X.yaml}`), made by a
// generator (`{policy: NAME}`, sim/runtime/schedules/) or by the schedule search
// (search/schedule_space.h); sim/runtime/schedule_yaml.h reads and writes the YAML form.
// docs/multitenant.md ("What a schedule is") gives the semantics.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/graph.h"
#include "sim/config/config_node.h"

namespace dse {

// Where a part of a schedule was written (empty for a generated schedule), for errors about it.
struct ScheduleWhere {
  SourceMark mark;
  std::string path;
};

// A tenant's segment k, written "T.k" (tenant index T: the position in workload.models).
struct SegmentRef {
  std::size_t tenant = 0;
  std::size_t segment = 0;
  std::string str() const { return std::to_string(tenant) + "." + std::to_string(segment); }
  friend bool operator==(const SegmentRef&, const SegmentRef&) = default;
};

// A schedule as written or generated, before it is checked against the models.
struct ScheduleSpec {
  struct Tenant {
    // Positions in the tenant graph's topological order after which a new segment starts,
    // strictly increasing, each below the last op's position (cut_after names them in YAML).
    std::vector<std::size_t> cuts;
    std::vector<int> streams;  // the stream of each segment (cuts.size() + 1 of them)
    ScheduleWhere where;
  };
  // A sync point: an event recorded after `waited`, waited on by the waiter's stream (an edge of a
  // CUDA graph, so a segment may also wait for one issued after it).
  struct Wait {
    SegmentRef waiter;  // starts only after
    SegmentRef waited;  // has finished
    ScheduleWhere where;
  };
  std::string policy;  // the generator that made it; "explicit" when written out
  // By stream index; the GPU hands block slots to higher-priority kernels first (gpu_executor.h).
  // Empty: all 0.
  std::vector<int> stream_priority;
  std::vector<Tenant> tenants;  // one per workload model
  // The issue order: entry i is the tenant whose next segment the host issues i-th, one kernel per
  // launch cost (GpuTimingModel::host_launch_s); each stream runs what it was given in that order.
  std::vector<std::size_t> order;
  std::vector<Wait> waits;
  // Host threads issuing the segments: tenant T's by thread T mod host_threads, each thread in the
  // issue order and at the same time as the others (one thread: every launch one after another).
  int host_threads = 1;
  ScheduleWhere where;        // the schedule block
  ScheduleWhere order_where;  // its order
};

// One segment of a checked schedule.
struct ScheduleSegment {
  SegmentRef ref;
  // The tenant's ops of this segment as transforms::split_segments cuts them (the whole graph
  // for an uncut tenant): tensors from earlier segments are its inputs.
  std::shared_ptr<const Graph> graph;
  int stream = 0;
  std::vector<std::size_t> waits;  // positions (in issue order) of the segments it waits for
};

// A schedule checked against the experiment's models, ready to run.
struct ResolvedSchedule {
  ScheduleSpec spec;
  std::vector<int> stream_priority;       // one per stream used
  std::vector<ScheduleSegment> segments;  // in issue order
  // "breadth_first: 3 tenants on 3 streams, 180 segments, 0 sync points".
  std::string summary() const;
  // The stream of each tenant when every tenant is one segment and nothing waits (what op queues
  // without events, such as the accelerator's, can run); nullopt otherwise.
  std::optional<std::vector<int>> stream_per_tenant() const;
};

// Checks `spec` against `tenants` (the workload's graphs, in order) and cuts the segments.
// ConfigError at the part of the schedule that is wrong (std::logic_error for a generated one):
// a cut or stream list that does not fit the tenant, an issue order that does not issue every
// segment once in its tenant's order, a sync point naming no segment, sync points that deadlock
// (a cycle with the streams' order, named segment by segment), or a segment that reads a tensor
// of an earlier segment that nothing orders it after (a broken data dependency).
ResolvedSchedule resolve_schedule(ScheduleSpec spec, const std::vector<std::shared_ptr<const Graph>>& tenants);

// The issue orders the generators and the YAML shorthand name: each tenant's segments all at once,
// tenant after tenant (depth-first), or one segment of each tenant in turn (breadth-first).
std::vector<std::size_t> depth_first_order(const std::vector<std::size_t>& segments_per_tenant);
std::vector<std::size_t> breadth_first_order(const std::vector<std::size_t>& segments_per_tenant);

// The sync points a schedule needs and has not got: each segment whose tenant's previous segment
// runs on another stream waits for it (then every earlier segment of the tenant has finished
// before it starts: the previous one waited in turn, or ran before it on its stream). Added to
// `spec.waits` where missing.
void add_tenant_order_waits(ScheduleSpec& spec);

}  // namespace dse
