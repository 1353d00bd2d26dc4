// Clipper's adaptive batching (Crankshaw et al., NSDI'17: additive increase, multiplicative
// decrease) adapted to a power cap as the BatchDVFS paper's baseline does it (github
// nabavinejad/BatchDVFS, f05286d, Clipper/*.py): every period the highest power reading since the
// last action is compared with the cap; below the dead band the batch index (batch - 1) grows by
// `step` (4), above the cap it becomes floor(`backoff` (0.9) x index). The SM clock is not touched.
// The paper's code stops growing only at index 255 exactly, which steps of 4 from 0 pass over; here
// the batch stops at max_batch (its recorded runs never went past index 236).
#include <cmath>

#include "sim/serving/governor.h"

namespace dse {
namespace {

class ClipperPower final : public Governor {
 public:
  ClipperPower(const ConfigNode& params, const GovernorContext& context)
      : settings_(PowerCapSettings::read(params)),
        top_(params.param<int>("max_batch")
                 .in_range(1, context.max_batch)
                 .with_default(std::min(255, context.max_batch)) -
             1),
        step_(params.param<int>("step").in_range(1, 4096).with_default(4)),
        backoff_(params.param<double>("backoff").in_range(0, 1).with_default(0.9)),
        best_(std::min(read_initial_batch(params, context, 1) - 1, top_)),
        clock_(context.default_clock_level) {}

  static std::vector<KeySpec> declared_keys() {
    std::vector<KeySpec> keys = PowerCapSettings::declared_keys();
    keys.push_back({"max_batch", "integer", "255", "",
                    "the largest batch it grows to (at most the batching policy's max_batch)", "64"});
    keys.push_back({"step", "integer", "4", "", "the batch grows by this below the band (additive increase)", "2"});
    keys.push_back({"backoff", "number", "0.9", "", "the batch is multiplied by this above the cap", "0.8"});
    keys.push_back(initial_batch_key("1"));
    return keys;
  }

  ServingKnobs initial() const override { return {best_ + 1, clock_}; }
  ServingKnobs decide(const GovernorReading& reading) override {
    const int side = settings_.side(reading.power_w);
    if (side < 0 && best_ < top_) best_ = std::min(best_ + step_, top_);
    // The small epsilon keeps floor(0.9 x 10) at 9 despite binary rounding, as Python's int() does.
    if (side > 0 && best_ > 0) best_ = static_cast<int>(std::floor(backoff_ * best_ + 1e-9));
    return {best_ + 1, clock_};
  }
  double period_s() const override { return settings_.period_s; }
  std::optional<double> power_cap_w() const override { return settings_.cap_w; }
  std::vector<std::pair<std::string, int>> search_state() const override { return {{"BestBS", best_}}; }
  void adopt(const ServingKnobs& knobs, const std::vector<std::pair<std::string, int>>&) override {
    best_ = std::clamp(knobs.batch - 1, 0, top_);
  }
  std::unique_ptr<Governor> clone() const override { return std::make_unique<ClipperPower>(*this); }

 private:
  PowerCapSettings settings_;
  int top_;
  int step_;
  double backoff_;
  int best_;
  int clock_;
};

}  // namespace

DSE_REGISTER_KEYED(
    Governor, ClipperPower, "clipper_power",
    "Clipper's AIMD batching under a power cap: batch index +step (4) below the band, x backoff (0.9) above")

}  // namespace dse
