// One stream per model, issued depth-first: the host launches all of the first model's kernels,
// then the second's (NVIDIA's multi-stream baseline in the multi-tenant scheduling paper).
#include "sim/runtime/schedule_generator.h"

namespace dse {
namespace {

ScheduleSpec stream_per_model(const std::vector<std::shared_ptr<const Graph>>& tenants, const ConfigNode&) {
  return stream_per_tenant_schedule(tenants, 0, {}, false);
}

}  // namespace

DSE_REGISTER_FACTORY(ScheduleGenerator, "stream_per_model",
                     "one stream per model, the host issuing model after model (depth-first)", stream_per_model)

}  // namespace dse
