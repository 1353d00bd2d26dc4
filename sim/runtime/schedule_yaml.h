// The experiment's `schedule` block, read and written (docs/multitenant.md):
//
//   schedule: {policy: breadth_first}            # a generator (dse list schedule) and its keys
//   schedule: {file: schedules/mix.yaml}         # a file holding one of the other forms
//   schedule:                                    # written out
//     streams: [1, 0]                            # stream priorities, higher first (default 0 each)
//     tenants:                                   # one per workload model, in order
//       - {cut_after: [layer2.3.relu], streams: [0, 1]}   # or segment_ops: K; or stream: S for all
//       - {stream: 1}
//     order: [0, 1, 0]                           # tenant issuing its next segment; or depth_first
//                                                # (the default) or breadth_first
//     waits: {"0.1": ["0.0"]}                    # sync points: segment T.k waits for these
//     host_threads: 2                            # threads issuing (tenant T: thread T mod 2); any form
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/config/config_node.h"
#include "sim/runtime/schedule.h"

namespace dse {

// Reads the block (null: single_stream) for the workload's graphs and checks it (resolve_schedule).
// ConfigError at what is wrong.
ResolvedSchedule read_schedule(const ConfigNode* block, const std::string& config_file,
                               const std::vector<std::shared_ptr<const Graph>>& tenants);

// The block as a schedule not yet checked against the models (generated for `policy`, loaded from
// `file`, or written out); ConfigError at what is wrong.
ScheduleSpec read_schedule_spec(const ConfigNode& block, const std::string& config_file,
                                const std::vector<std::shared_ptr<const Graph>>& tenants);

// A generator's schedule (ScheduleGeneratorRegistry) for the graphs, with `block` holding its keys;
// ConfigError at `block` for an unknown policy.
ScheduleSpec generate_schedule(const std::string& policy, const ConfigNode& block,
                               const std::vector<std::shared_ptr<const Graph>>& tenants);

// The schedule written out (flow-style YAML that read_schedule takes back: cuts by op name,
// every sync point explicit), for `-p schedule=...` and the search's trial values.
std::string schedule_yaml(const ScheduleSpec& spec, const std::vector<std::shared_ptr<const Graph>>& tenants);

}  // namespace dse
