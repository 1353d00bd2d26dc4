// A real-time tenant beside best-effort ones (the setting of REEF, OSDI'22, and Orion,
// EuroSys'24): the real-time model (`tenant`, default 0) runs on the highest-priority stream and
// the host issues it first; the best-effort models, each on its own low-priority stream, are issued
// breadth-first after it and fill the slots it leaves. Its deadline is a constraint of the search
// or the reader on completion_ms_model<I>.
#include <fmt/format.h>

#include "sim/runtime/schedule_generator.h"

namespace dse {
namespace {

ScheduleSpec realtime(const std::vector<std::shared_ptr<const Graph>>& tenants, const ConfigNode& block) {
  const auto rt = static_cast<std::size_t>(
      block.param<std::int64_t>("tenant").in_range(0, static_cast<std::int64_t>(tenants.size()) - 1).with_default(0));
  std::vector<int> priorities(tenants.size(), 0);
  priorities[rt] = 1;
  ScheduleSpec spec = stream_per_tenant_schedule(tenants, read_segment_ops(block), priorities, true);
  // The real-time tenant whole, first; the others breadth-first after it.
  spec.tenants[rt].cuts.clear();
  spec.tenants[rt].streams = {static_cast<int>(rt)};
  std::vector<std::size_t> segments;
  for (std::size_t t = 0; t < tenants.size(); ++t) segments.push_back(t == rt ? 0 : spec.tenants[t].streams.size());
  spec.order = {rt};
  for (const std::size_t t : breadth_first_order(segments)) spec.order.push_back(t);
  return spec;
}

std::vector<KeySpec> realtime_keys() {
  return {{"tenant", "integer", "0", "", "the real-time model: its index in workload.models", "1"},
          segment_ops_key("ops of a best-effort model per segment; their segments are issued in turn")};
}

}  // namespace

DSE_REGISTER_ENTRY(ScheduleGenerator, "realtime",
                   "a real-time model (tenant: T) on the top-priority stream, issued first; the others fill the gaps",
                   realtime, realtime_keys())

}  // namespace dse
