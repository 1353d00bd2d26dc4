// Sequential: every model's kernels on one stream, model after model (the default).
#include "sim/runtime/schedule_generator.h"

namespace dse {
namespace {

ScheduleSpec single_stream(const std::vector<std::shared_ptr<const Graph>>& tenants, const ConfigNode&) {
  ScheduleSpec spec;
  for (std::size_t t = 0; t < tenants.size(); ++t) spec.tenants.push_back({{}, {0}, {}});
  spec.stream_priority = {0};
  spec.order = depth_first_order(std::vector<std::size_t>(tenants.size(), 1));
  return spec;
}

}  // namespace

DSE_REGISTER_FACTORY(ScheduleGenerator, "single_stream", "sequential: every model on one stream, one after another",
                     single_stream)

}  // namespace dse
