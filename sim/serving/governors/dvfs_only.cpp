// DVFS alone at a fixed batch, the BatchDVFS paper's third baseline (github nabavinejad/BatchDVFS,
// f05286d, DVFS/DVFS_256/*.py): every period the highest power reading since the last action is
// compared with the cap; below the dead band the SM clock goes one level up, above the cap one
// level down, within the clock table. The batch (`batch`, default 256 as in the paper) never moves.
#include "sim/serving/governor.h"

namespace dse {
namespace {

class DvfsOnly final : public Governor {
 public:
  DvfsOnly(const ConfigNode& params, const GovernorContext& context)
      : settings_(PowerCapSettings::read(params)),
        batch_(
            params.param<int>("batch").in_range(1, context.max_batch).with_default(std::min(256, context.max_batch))),
        levels_(static_cast<int>(context.clock_levels_mhz.size())) {
    require_clock_levels(params, context, "dvfs_only");
    clock_ = read_clock_level(params, "initial_clock_mhz", context);
  }
  static std::vector<KeySpec> declared_keys() {
    std::vector<KeySpec> keys = PowerCapSettings::declared_keys();
    keys.push_back({"batch", "integer", "256", "", "the fixed batch (at most the batching policy's max_batch)", "16"});
    keys.push_back(clock_level_key("initial_clock_mhz", "the clock it starts at"));
    return keys;
  }

  ServingKnobs initial() const override { return {batch_, clock_}; }
  ServingKnobs decide(const GovernorReading& reading) override {
    const int side = settings_.side(reading.power_w);
    if (side < 0 && clock_ < levels_ - 1) ++clock_;
    if (side > 0 && clock_ > 0) --clock_;
    return {batch_, clock_};
  }
  double period_s() const override { return settings_.period_s; }
  std::optional<double> power_cap_w() const override { return settings_.cap_w; }
  void adopt(const ServingKnobs& knobs, const std::vector<std::pair<std::string, int>>&) override {
    if (knobs.clock_level >= 0) clock_ = std::clamp(knobs.clock_level, 0, levels_ - 1);
  }
  std::unique_ptr<Governor> clone() const override { return std::make_unique<DvfsOnly>(*this); }

 private:
  PowerCapSettings settings_;
  int batch_;
  int levels_;
  int clock_ = 0;
};

}  // namespace

DSE_REGISTER_KEYED(Governor, DvfsOnly, "dvfs_only",
                   "SM clock one level up below the band, one down above the cap, at a fixed batch (default 256)")

}  // namespace dse
