#include "sim/runtime/schedule_generator.h"

#include <utility>

namespace dse {

std::vector<std::size_t> cuts_every(std::size_t ops, std::size_t segment_ops) {
  std::vector<std::size_t> cuts;
  if (segment_ops == 0) return cuts;
  for (std::size_t end = segment_ops; end < ops; end += segment_ops) cuts.push_back(end - 1);
  return cuts;
}

std::size_t read_segment_ops(const ConfigNode& block) {
  return static_cast<std::size_t>(block.param<std::int64_t>("segment_ops").in_range(1, 1'000'000).with_default(1));
}

KeySpec segment_ops_key(std::string help) {
  return {"segment_ops", "integer", "1", "", std::move(help) + " (1 to 1,000,000)", "4"};
}

ScheduleSpec stream_per_tenant_schedule(const std::vector<std::shared_ptr<const Graph>>& tenants,
                                        std::size_t segment_ops, const std::vector<int>& priorities,
                                        bool breadth_first) {
  ScheduleSpec spec;
  std::vector<std::size_t> segments;
  for (std::size_t t = 0; t < tenants.size(); ++t) {
    ScheduleSpec::Tenant tenant;
    tenant.cuts = cuts_every(tenants[t]->ops().size(), segment_ops);
    tenant.streams.assign(tenant.cuts.size() + 1, static_cast<int>(t));
    segments.push_back(tenant.streams.size());
    spec.tenants.push_back(std::move(tenant));
    spec.stream_priority.push_back(t < priorities.size() ? priorities[t] : 0);
  }
  spec.order = breadth_first ? breadth_first_order(segments) : depth_first_order(segments);
  return spec;
}

}  // namespace dse
