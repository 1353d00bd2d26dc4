#include "sim/run/run_result.h"

#include <algorithm>

namespace dse {

double RunResult::throughput_per_s() const {
  double samples = 0;
  for (const auto& model : models) samples += model.params.batch;
  return makespan_ps > 0 ? samples / (latency_ms() * 1e-3) : 0.0;
}

void RunResult::close_timeline() {
  for (const auto& op : ops) {
    ModelResult& model = models[op.model_index];
    if (model.start_ps < 0 || op.start_ps < model.start_ps) model.start_ps = op.start_ps;
    model.end_ps = std::max(model.end_ps, op.end_ps);
    makespan_ps = std::max(makespan_ps, op.end_ps);
  }
  for (auto& model : models) model.start_ps = std::max<TimePs>(model.start_ps, 0);
}

}  // namespace dse
