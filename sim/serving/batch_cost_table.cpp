#include "sim/serving/batch_cost_table.h"

#include <algorithm>
#include <string>

#include "sim/metrics/power_series.h"
#include "sim/run/model_source.h"

namespace dse {

const BatchCost& BatchCostTable::at(std::size_t tenant, int batch, int clock_level) {
  const auto key = std::make_tuple(tenant, batch, clock_level);
  if (const auto found = costs_.find(key); found != costs_.end()) return found->second;

  // The tenant's model entry with `batch: b`, built as the workload's models are.
  ConfigNode entry = spec_.tenants.at(tenant).model_entry;
  const SourceMark mark = entry.mark();
  entry.set("batch", ConfigNode::scalar(std::to_string(batch), false, mark), mark);
  Experiment pass = experiment_;
  pass.serving = nullptr;
  pass.models = {read_model_entry(entry, experiment_.config_file, *experiment_.cache)};
  pass.schedule = single_stream_schedule(pass.models);
  const RunResult run = clock_level < 0
                            ? experiment_.device->run(pass, deadline_)
                            : experiment_.device->run_at_clock(
                                  pass, spec_.clock_levels_mhz.at(static_cast<std::size_t>(clock_level)), deadline_);
  BatchCost cost;
  cost.latency_s = ps_to_ms(run.makespan_ps) * 1e-3;
  cost.idle_w = run.idle_w;
  cost.static_w = run.busy_static_w;
  cost.gpu_share = run.gpu_share;
  if (!run.power.empty() && run.makespan_ps > 0) {
    const double average_w = series_energy_j(run.power, run.makespan_ps) / cost.latency_s;
    cost.dynamic_w = std::max(0.0, average_w - cost.idle_w - cost.static_w);
  }
  cost.clock_mhz = run.metrics.find("sm_clock_mhz").value_or(0.0);
  return costs_.emplace(key, cost).first->second;
}

double BatchCostTable::idle_w() {
  if (costs_.empty()) return at(0, 1, spec_.governor ? static_cast<int>(spec_.clock_levels_mhz.size()) - 1 : -1).idle_w;
  return costs_.begin()->second.idle_w;
}

}  // namespace dse
