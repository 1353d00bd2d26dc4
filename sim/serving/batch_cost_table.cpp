#include "sim/serving/batch_cost_table.h"

#include <fmt/format.h>

#include <optional>
#include <string>

#include "sim/run/model_source.h"

namespace dse {

const PassProfile& BatchCostTable::at(std::size_t tenant, int batch, int clock_level) {
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
  const std::optional<double> clock_mhz =
      clock_level < 0 ? std::nullopt
                      : std::optional<double>(spec_.clock_levels_mhz.at(static_cast<std::size_t>(clock_level)));
  PassProfile profile = experiment_.device->profile(pass, clock_mhz, deadline_);
  // A batch that takes no time would never advance the run's clock (read_model_entry refuses models
  // with no op that takes time; this holds the same for a device that times none of a model's ops).
  if (!(profile.latency_s >= 1e-12))
    entry.fail(fmt::format("expected a model whose batch takes time on {}, found a batch of {} taking {:g} s",
                           experiment_.device->name(), batch, profile.latency_s));
  return costs_.emplace(key, std::move(profile)).first->second;
}

const PassProfile& BatchCostTable::any() {
  if (costs_.empty()) return at(0, 1, spec_.governor ? static_cast<int>(spec_.clock_levels_mhz.size()) - 1 : -1);
  return costs_.begin()->second;
}

}  // namespace dse
