#include "sim/serving/governor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dse {

PowerCapSettings PowerCapSettings::read(const ConfigNode& params) {
  PowerCapSettings s;
  s.cap_w = params.param<double>("power_cap_w").in_range(1, 100000).required();
  // 3 s and 0.8-1.0 x cap: the BatchDVFS paper's code (github nabavinejad/BatchDVFS, f05286d).
  s.period_s = params.param<double>("period_s").in_range(0.001, 3600).with_default(3.0);
  s.band_low = params.param<double>("band_low").in_range(0, 1).with_default(0.8);
  s.band_high = params.param<double>("band_high").in_range(s.band_low, 10).with_default(1.0);
  return s;
}

int PowerCapSettings::side(double power_w) const {
  if (power_w > band_high * cap_w) return 1;
  if (power_w < band_low * cap_w) return -1;
  return 0;
}

std::vector<KeySpec> PowerCapSettings::declared_keys() {
  return {{"power_cap_w", "number", "required", "W", "the cap the power readings are held to", "150"},
          {"period_s", "number", "3", "s", "seconds between actions (the BatchDVFS paper's 3 s)", "2"},
          {"band_low", "number", "0.8", "", "below band_low x cap the governor steps up", "0.7"},
          {"band_high", "number", "1.0", "", "above band_high x cap it steps down (from band_low to 10)", "1.05"}};
}

KeySpec clock_level_key(std::string name, std::string help) {
  return {std::move(name), "number", "the highest level", "MHz", std::move(help) + " (one of the clock levels)",
          "1063"};
}

KeySpec initial_batch_key(std::string default_text) {
  return {"initial_batch", "integer", std::move(default_text), "", "the batch size it starts at", "4"};
}

void require_clock_levels(const ConfigNode& params, const GovernorContext& context, const std::string& governor) {
  if (context.clock_levels_mhz.empty())
    params.fail(fmt::format("the governor '{}' sets the SM clock, but this device has no clock levels", governor));
}

int read_clock_level(const ConfigNode& params, std::string_view key, const GovernorContext& context) {
  const auto mhz = params.param<double>(key).in_range(1, 100000).optional();
  if (!mhz) return context.default_clock_level;
  const auto& levels = context.clock_levels_mhz;
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (std::abs(levels[i] - *mhz) <= 0.5) return static_cast<int>(i);
  std::string list;
  for (const double level : levels) list += fmt::format("{}{:g}", list.empty() ? "" : ", ", level);
  params.find(key)->fail(fmt::format("expected one of the clock levels ({}), found {:g}", list, *mhz));
}

int read_initial_batch(const ConfigNode& params, const GovernorContext& context, int fallback) {
  return params.param<int>("initial_batch")
      .in_range(1, context.max_batch)
      .with_default(std::min(fallback, context.max_batch));
}

std::unique_ptr<Governor> make_governor(const ConfigNode& params, const GovernorContext& context) {
  params.expect_map("a governor: {name, power_cap_w, period_s, ...}");
  const std::string name =
      params.param<std::string>("name").one_of(GovernorRegistry::instance().names(), "a governor").required();
  return GovernorRegistry::instance().find(name)->factory(params, context);
}

}  // namespace dse
