// A fixed operating point: `batch` and `clock_mhz` (one of the clock levels; default the GPU's
// default), held for the whole run; it never acts (a `power_cap_w` here is only measured against).
// The exhaustive best static setting of the BatchDVFS study is a grid search over these two keys.
#include "sim/serving/governor.h"

namespace dse {
namespace {

class StaticSetting final : public Governor {
 public:
  StaticSetting(const ConfigNode& params, const GovernorContext& context)
      : knobs_{params.param<int>("batch").in_range(1, context.max_batch).required(), context.default_clock_level},
        // A cap here only measures (periods and batches over it); nothing acts on it.
        cap_w_(params.param<double>("power_cap_w").in_range(1, 100000).optional()) {
    if (params.has("clock_mhz")) require_clock_levels(params, context, "static");
    knobs_.clock_level = read_clock_level(params, "clock_mhz", context);
  }
  static std::vector<KeySpec> declared_keys() {
    return {{"batch", "integer", "required", "", "the batch size held (at most the batching policy's max_batch)", "8"},
            clock_level_key("clock_mhz", "the clock held"),
            {"power_cap_w", "number", "none", "W",
             "a cap measured against (periods and batches over it); nothing acts on it", "150"}};
  }
  ServingKnobs initial() const override { return knobs_; }
  ServingKnobs decide(const GovernorReading&) override { return knobs_; }
  double period_s() const override { return 0; }
  std::optional<double> power_cap_w() const override { return cap_w_; }
  void adopt(const ServingKnobs& knobs, const std::vector<std::pair<std::string, int>>&) override { knobs_ = knobs; }
  std::unique_ptr<Governor> clone() const override { return std::make_unique<StaticSetting>(*this); }

 private:
  ServingKnobs knobs_;
  std::optional<double> cap_w_;
};

}  // namespace

DSE_REGISTER_KEYED(Governor, StaticSetting, "static", "A fixed batch and clock_mhz for the whole run")

}  // namespace dse
