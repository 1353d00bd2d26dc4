// dse's own controller: it asks the serving run's model (the batch-cost table of the calibrated GPU
// model, sim/serving/batch_cost_table.h) for the (batch, clock) with the highest predicted throughput
// whose predicted power fits the cap and whose batch latency fits the SLO, and moves there at once
// instead of stepping. Feedback: every period, outside the dead band, it compares the highest
// reading since it last acted with the model's predicted power at the current setting, and asks the
// model for the best setting under cap x predicted / measured (so a model that under-predicts power
// by 10 % gets asked for 10 % less). A reading below the prediction counts only when the GPU was busy
// all period: under part load the readings average idle gaps in, and the next burst draws the full
// predicted power.
#include <fmt/format.h>

#include <algorithm>

#include "sim/serving/governor.h"

namespace dse {
namespace {

// Busy for this share of a period or more: its readings are of back-to-back batches.
constexpr double kBusyThroughout = 0.95;

class ModelBased final : public Governor {
 public:
  ModelBased(const ConfigNode& params, const GovernorContext& context)
      : settings_(PowerCapSettings::read(params)),
        slo_ms_(params.param<double>("slo_ms").in_range(1e-3, 1e9).optional()),
        feedback_(params.param<bool>("feedback").with_default(true)),
        context_(context) {
    if (!slo_ms_) slo_ms_ = context.slo_ms;
    if (!context.best_setting || !context.predicted_power_w)
      params.fail("the governor 'model_based' needs the serving simulation's model (it cannot be replayed)");
    knobs_ = ask(settings_.cap_w);
  }

  static std::vector<KeySpec> declared_keys() {
    std::vector<KeySpec> keys = PowerCapSettings::declared_keys();
    keys.push_back({"slo_ms", "number", "the tenant's slo_ms", "ms",
                    "the latency a batch may take twice over (Nexus's rule: a batch takes at most half the SLO)",
                    "20"});
    keys.push_back({"feedback", "boolean", "true", "",
                    "re-ask the model under cap x predicted / measured power when a reading leaves the band", "false"});
    return keys;
  }

  ServingKnobs initial() const override { return knobs_; }
  ServingKnobs decide(const GovernorReading& reading) override {
    if (!feedback_ || settings_.side(reading.power_w) == 0) return knobs_;
    // The prediction is of a GPU running batches back to back at this setting. A reading above it
    // says the model under-predicts; one below it says so only when the GPU was busy throughout
    // (a part-loaded GPU's readings average its idle gaps in, and its next burst draws the full power).
    const double predicted = context_.predicted_power_w(knobs_);
    const double ratio = predicted > 0 && reading.power_w > 0 ? reading.power_w / predicted : 1;
    if (ratio > 1 || reading.busy_share >= kBusyThroughout) scale_ = std::clamp(ratio, 0.25, 4.0);
    knobs_ = ask(settings_.cap_w / scale_);
    return knobs_;
  }
  double period_s() const override { return feedback_ ? settings_.period_s : 0; }
  std::optional<double> power_cap_w() const override { return settings_.cap_w; }
  std::vector<std::pair<std::string, int>> search_state() const override {
    return {{"power_scale_permille", static_cast<int>(scale_ * 1000 + 0.5)}};
  }
  void adopt(const ServingKnobs& knobs, const std::vector<std::pair<std::string, int>>&) override { knobs_ = knobs; }
  std::unique_ptr<Governor> clone() const override { return std::make_unique<ModelBased>(*this); }

 private:
  // The model's best setting under `cap_w`; where nothing fits, the least power it has (batch 1 at
  // the lowest clock), as a firmware power brake would.
  ServingKnobs ask(double cap_w) const {
    if (const auto best = context_.best_setting(cap_w, slo_ms_)) return *best;
    return {1, context_.clock_levels_mhz.empty() ? -1 : 0};
  }

  PowerCapSettings settings_;
  std::optional<double> slo_ms_;
  bool feedback_;
  GovernorContext context_;
  ServingKnobs knobs_;
  // measured / predicted power at the last reading that could tell (1: the model is right).
  double scale_ = 1;
};

}  // namespace

DSE_REGISTER_KEYED(
    Governor, ModelBased, "model_based",
    "dse's model picks the best (batch, clock) under the cap and SLO; measured power corrects it each period_s")

}  // namespace dse
