// Schedule generators: the baselines a multi-tenant schedule is compared with, and the seeds of the
// schedule search (`schedule: {policy: NAME, ...}`; `dse list schedule`). One file each under
// sim/runtime/schedules/.
//
// Contract: a generator reads only its own keys of the schedule block (with block.param), exactly
// the ones it registers with (KeySpec; tests/sim/test_schedule_keys.cpp checks), returns a
// schedule that resolve_schedule accepts for any graphs (add_tenant_order_waits supplies the sync
// points a cut tenant needs), and is a pure function of the graphs and its keys.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/base/registry.h"
#include "sim/runtime/schedule.h"

namespace dse {

struct ScheduleGenerator {
  static constexpr const char* family_name = "schedule";
  static constexpr const char* family_description = "Multi-tenant schedules that schedule.policy generates";
  using Factory =
      std::function<ScheduleSpec(const std::vector<std::shared_ptr<const Graph>>& tenants, const ConfigNode& block)>;
};
using ScheduleGeneratorRegistry = Registry<ScheduleGenerator>;

// Cut positions that make segments of `segment_ops` consecutive ops from `ops` ops.
std::vector<std::size_t> cuts_every(std::size_t ops, std::size_t segment_ops);

// A generator's `segment_ops`: 1 to 1,000,000, default 1; and its declaration (KeySpec), whose help
// says whose segments these are.
std::size_t read_segment_ops(const ConfigNode& block);
KeySpec segment_ops_key(std::string help);

// Every tenant on its own stream (stream = tenant index, priority `priorities[t]`, default 0), cut
// every `segment_ops` ops (0: not cut), issued breadth-first or depth-first.
ScheduleSpec stream_per_tenant_schedule(const std::vector<std::shared_ptr<const Graph>>& tenants,
                                        std::size_t segment_ops, const std::vector<int>& priorities,
                                        bool breadth_first);

}  // namespace dse
