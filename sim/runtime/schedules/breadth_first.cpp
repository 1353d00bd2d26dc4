// One stream per model, issued breadth-first: the host launches `segment_ops` ops (default 1) of
// each model in turn, layer by layer, so no model's long chain holds back the others' launches (the
// multi-tenant scheduling paper's observation).
#include "sim/runtime/schedule_generator.h"

namespace dse {
namespace {

ScheduleSpec breadth_first(const std::vector<std::shared_ptr<const Graph>>& tenants, const ConfigNode& block) {
  return stream_per_tenant_schedule(tenants, read_segment_ops(block), {}, true);
}

std::vector<KeySpec> breadth_first_keys() {
  return {segment_ops_key("ops of a model per segment; the models' segments are issued in turn")};
}

}  // namespace

DSE_REGISTER_ENTRY(ScheduleGenerator, "breadth_first",
                   "one stream per model, issued layer by layer across models (segment_ops: 1)", breadth_first,
                   breadth_first_keys())

}  // namespace dse
