// BatchDVFS (Nabavinejad et al., "Coordinated Batching and DVFS for DNN Inference on GPU
// Accelerators", TPDS 2022), as its published code does it (github nabavinejad/BatchDVFS, f05286d,
// BatchDVFS/*.py): every period (3 s) the highest power reading since the last action is compared
// with the cap. Inside the dead band (0.8-1.0 x cap) nothing changes. Otherwise a binary search on
// the batch index (batch - 1, 0 .. max_batch - 1) moves one step, and the SM clock moves one level
// only when the search is pinned at an end of the batch range:
//   below the band: best == top        -> clock one level up (if not at the highest)
//                   best == max        -> min = max, max = top, best = ceil((min + max) / 2)
//                   otherwise          -> min = best,           best = ceil((min + max) / 2)
//   above the cap:  best == 0          -> clock one level down (if not at the lowest)
//                   best == min        -> max = min, min = 0,   best = floor((min + max) / 2)
//                   otherwise          -> max = best,           best = floor((min + max) / 2)
// Checked against the paper's 15 recorded P40 runs by `dse replay` (tests/data/batchdvfs).
#include <fmt/format.h>

#include "sim/serving/governor.h"

namespace dse {
namespace {

class BatchDvfs final : public Governor {
 public:
  BatchDvfs(const ConfigNode& params, const GovernorContext& context)
      : settings_(PowerCapSettings::read(params)),
        // The paper's code searches indices 0..254 (batch 1..255).
        top_(params.param<int>("max_batch")
                 .in_range(1, context.max_batch)
                 .with_default(std::min(255, context.max_batch)) -
             1),
        levels_(static_cast<int>(context.clock_levels_mhz.size())) {
    require_clock_levels(params, context, "batch_dvfs");
    max_ = top_;
    best_ = read_initial_batch(params, context, 1) - 1;
    if (best_ > top_) params.find("initial_batch")->fail(fmt::format("expected at most max_batch ({})", top_ + 1));
    clock_ = read_clock_level(params, "initial_clock_mhz", context);
  }

  static std::vector<KeySpec> declared_keys() {
    std::vector<KeySpec> keys = PowerCapSettings::declared_keys();
    keys.push_back({"max_batch", "integer", "255", "",
                    "the largest batch its binary search reaches (at most the batching policy's max_batch)", "64"});
    keys.push_back(initial_batch_key("1"));
    keys.push_back(clock_level_key("initial_clock_mhz", "the clock it starts at"));
    return keys;
  }

  ServingKnobs initial() const override { return {best_ + 1, clock_}; }

  ServingKnobs decide(const GovernorReading& reading) override {
    const int side = settings_.side(reading.power_w);
    if (side < 0) {
      if (best_ == top_) {
        if (clock_ < levels_ - 1) ++clock_;
      } else {
        if (best_ == max_) {
          min_ = max_;
          max_ = top_;
        } else {
          min_ = best_;
        }
        best_ = (min_ + max_ + 1) / 2;
      }
    } else if (side > 0) {
      if (best_ == 0) {
        if (clock_ > 0) --clock_;
      } else {
        if (best_ == min_) {
          max_ = min_;
          min_ = 0;
        } else {
          max_ = best_;
        }
        best_ = (min_ + max_) / 2;
      }
    }
    return {best_ + 1, clock_};
  }

  double period_s() const override { return settings_.period_s; }
  std::optional<double> power_cap_w() const override { return settings_.cap_w; }
  std::vector<std::pair<std::string, int>> search_state() const override {
    return {{"minBS", min_}, {"maxBS", max_}, {"BestBS", best_}};
  }
  void adopt(const ServingKnobs& knobs, const std::vector<std::pair<std::string, int>>& state) override {
    best_ = std::clamp(knobs.batch - 1, 0, top_);
    if (knobs.clock_level >= 0) clock_ = std::clamp(knobs.clock_level, 0, levels_ - 1);
    for (const auto& [name, value] : state) {
      if (name == "minBS") min_ = std::clamp(value, 0, top_);
      if (name == "maxBS") max_ = std::clamp(value, 0, top_);
    }
  }
  std::unique_ptr<Governor> clone() const override { return std::make_unique<BatchDvfs>(*this); }

 private:
  PowerCapSettings settings_;
  int top_;     // the highest batch index (max_batch - 1)
  int levels_;  // clock levels
  int min_ = 0, max_ = 0, best_ = 0;
  int clock_ = 0;
};

}  // namespace

DSE_REGISTER_KEYED(
    Governor, BatchDvfs, "batch_dvfs",
    "BatchDVFS (TPDS'22): binary search on the batch, one clock step at the batch limits, every period_s")

}  // namespace dse
