// One stream per model, issued breadth-first: the host launches `segment_ops` ops (default 1) of
// each model in turn, layer by layer, so no model's long chain holds back the others' launches (the
// multi-tenant scheduling paper's observation).
#include "sim/runtime/schedule_generator.h"

namespace dse {
namespace {

ScheduleSpec breadth_first(const std::vector<std::shared_ptr<const Graph>>& tenants, const ConfigNode& block) {
  const auto segment_ops = block.param<std::int64_t>("segment_ops").in_range(1, 1'000'000).with_default(1);
  return stream_per_tenant_schedule(tenants, static_cast<std::size_t>(segment_ops), {}, true);
}

}  // namespace

DSE_REGISTER_FACTORY(ScheduleGenerator, "breadth_first",
                     "one stream per model, issued layer by layer across models (segment_ops: 1)", breadth_first)

}  // namespace dse
