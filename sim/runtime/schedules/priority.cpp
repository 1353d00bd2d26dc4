// One stream per model with a priority per model (`priorities`, one per model, higher first;
// default: the first model highest, then in workload order), issued breadth-first: where kernels
// of several models could run, the higher-priority stream's blocks take the GPU's slots first.
#include <fmt/format.h>

#include "sim/runtime/schedule_generator.h"

namespace dse {
namespace {

ScheduleSpec priority(const std::vector<std::shared_ptr<const Graph>>& tenants, const ConfigNode& block) {
  std::vector<int> priorities;
  if (const ConfigNode* given = block.find("priorities")) {
    for (const auto& item : given->items()) priorities.push_back(item.as<int>());
    if (priorities.size() != tenants.size())
      given->fail(
          fmt::format("expected one priority per workload model ({}), found {}", tenants.size(), priorities.size()));
  } else {
    for (std::size_t t = 0; t < tenants.size(); ++t) priorities.push_back(static_cast<int>(tenants.size() - t));
  }
  const auto segment_ops = block.param<std::int64_t>("segment_ops").in_range(1, 1'000'000).with_default(1);
  return stream_per_tenant_schedule(tenants, static_cast<std::size_t>(segment_ops), priorities, true);
}

}  // namespace

DSE_REGISTER_FACTORY(ScheduleGenerator, "priority",
                     "one stream per model with per-model priorities (priorities: [...]), issued breadth-first",
                     priority)

}  // namespace dse
