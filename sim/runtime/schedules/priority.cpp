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
  return stream_per_tenant_schedule(tenants, read_segment_ops(block), priorities, true);
}

std::vector<KeySpec> priority_keys() {
  return {{"priorities", "list of integers", "the first model highest, then in workload order", "",
           "one stream priority per workload model, higher first", "[1, 3, 2]"},
          segment_ops_key("ops of a model per segment; the models' segments are issued in turn")};
}

}  // namespace

DSE_REGISTER_ENTRY(ScheduleGenerator, "priority",
                   "one stream per model with per-model priorities (priorities: [...]), issued breadth-first", priority,
                   priority_keys())

}  // namespace dse
