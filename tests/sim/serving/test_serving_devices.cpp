// Serving runs on every device kind through Device::profile: each reports its energy, power and
// the clock it ran at; a governor moves an accelerator's V-f level under a power cap.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "sim/config/config_loader.h"
#include "sim/device/device.h"
#include "sim/run/simulation.h"
#include "sim/serving/serving_trace.h"

namespace dse {
namespace {

// A device block and a model entry it runs, per registered device kind: a new kind must add its own.
const std::map<std::string, std::pair<std::string, std::string>> kDeviceOfKind = {
    {"gpu", {"{gpu: h200}", "{name: resnet18, dtype: fp16}"}},
    {"accelerator", {"{accelerator: tpu_v3_like}", "{name: resnet18, dtype: bf16}"}},
};

std::string serving_yaml(const std::string& device, const std::string& model, const std::string& serving) {
  return "name: s\nworkload:\n  models: [" + model + "]\n  serving:\n" + serving + "device: " + device +
         "\noutput: ~\n";
}

Experiment experiment_of(const std::string& yaml) {
  const ConfigNode root = load_config_text(yaml, "s.yaml");
  return read_experiment(root, "s.yaml");
}

RunResult run_yaml(const std::string& yaml) { return run_experiment(experiment_of(yaml)); }

TEST(ServingDevices, EveryDeviceKindServesWithItsEnergyPowerAndClock) {
  for (const std::string& kind : DeviceRegistry::instance().names()) {
    SCOPED_TRACE(kind);
    const auto found = kDeviceOfKind.find(kind);
    ASSERT_NE(found, kDeviceOfKind.end()) << "add a device block for the kind '" << kind << "' to this test";
    const auto& [device, model] = found->second;
    const Experiment e = experiment_of(serving_yaml(
        device, model,
        "    duration_s: 1\n    tenants:\n      - {arrivals: {name: poisson, rate_per_s: 400}, batching: {name: "
        "fixed, batch: 4}}\n"));
    const RunResult r = run_experiment(e);
    EXPECT_GT(r.metrics.at("requests"), 300);
    EXPECT_GT(r.metrics.at("energy_j"), 0);
    EXPECT_GT(r.metrics.at("power_avg_w"), 0);
    EXPECT_GT(r.metrics.at("power_peak_w"), 0);
    EXPECT_GT(r.metrics.at("perf_per_w"), 0);
    // The clock under the device's own name, one of its operating points (none set: its fastest).
    const auto points = e.device->operating_points();
    ASSERT_FALSE(points.empty());
    EXPECT_GE(r.metrics.at(e.device->clock_metric()), points.front().clock_mhz);
    EXPECT_LE(r.metrics.at(e.device->clock_metric()), points.back().clock_mhz + 1e-9);
    ASSERT_FALSE(r.power.empty());
  }
}

// Kept busy (a closed loop of many clients, no think time), a serving run draws what one pass at
// the same batch draws: its energy per request is the one-pass run's energy per inference.
TEST(ServingDevices, ABusyServerSpendsTheOnePassEnergyPerInference) {
  for (const auto& [kind, setup] : kDeviceOfKind) {
    SCOPED_TRACE(kind);
    const auto& [device, model] = setup;
    std::string one_pass_model = model;
    one_pass_model.insert(one_pass_model.size() - 1, ", batch: 8");
    const RunResult pass =
        run_yaml("name: p\nworkload: {models: [" + one_pass_model + "]}\ndevice: " + device + "\noutput: ~\n");
    const RunResult served = run_yaml(serving_yaml(
        device, model,
        "    duration_s: 2\n    warmup_s: 0.2\n    tenants:\n      - {arrivals: {name: closed_loop, clients: 64}, "
        "batching: {name: fixed, batch: 8}}\n"));
    EXPECT_NEAR(served.metrics.at("energy_per_inference_j") / pass.metrics.at("energy_per_inference_j"), 1.0, 0.02);
  }
}

// dvfs_only on the accelerator with a cap between what a busy pass draws at its lowest and at its
// highest level: the governor steps the level down and back, the power series records the
// clocks it set, and past the start the readings keep near the cap.
TEST(ServingDevices, AGovernorMovesTheAcceleratorsClockLevelUnderAPowerCap) {
  const auto& [device, model] = kDeviceOfKind.at("accelerator");
  const std::string base =
      "    duration_s: 6\n    sensor_period_s: 0.05\n    tenants:\n      - {arrivals: {name: closed_loop, "
      "clients: 64}, batching: {name: fixed, batch: 8}}\n";
  // One batch of 8 alone at the lowest and the highest level.
  const Experiment one = experiment_of(
      "name: p\nworkload: {models: [{name: resnet18, dtype: bf16, batch: 8}]}\ndevice: " + device + "\noutput: ~\n");
  const auto points = one.device->operating_points();
  ASSERT_GE(points.size(), 4u);
  for (std::size_t i = 1; i < points.size(); ++i) EXPECT_GE(points[i].supply_v, points[i - 1].supply_v);
  const PassProfile low = one.device->profile(one, points.front().clock_mhz, std::nullopt);
  const PassProfile high = one.device->profile(one, points.back().clock_mhz, std::nullopt);
  ASSERT_LT(low.power_w(), high.power_w());
  EXPECT_GT(low.latency_s, high.latency_s);
  EXPECT_LT(low.idle_w + low.static_w, high.idle_w + high.static_w);  // leakage follows the supply
  const double cap = 0.5 * (low.power_w() + high.power_w());

  const RunResult r = run_yaml(serving_yaml(
      device, model,
      base + "    governor: {name: dvfs_only, batch: 8, power_cap_w: " + std::to_string(cap) + ", period_s: 0.2}\n"));
  const ServingTrace& t = *r.serving;
  std::set<double> clocks_set;
  for (const GovernorAction& a : t.actions) clocks_set.insert(a.clock_after_mhz);
  EXPECT_GE(clocks_set.size(), 2u);
  std::set<double> series_clocks;
  for (const PowerSample& s : r.power) series_clocks.insert(s.clock_mhz);
  EXPECT_GE(series_clocks.size(), 2u);
  EXPECT_LT(*series_clocks.begin(), points.back().clock_mhz);
  EXPECT_GT(r.metrics.at("clock_mhz"), points.front().clock_mhz);
  EXPECT_LT(r.metrics.at("clock_mhz"), points.back().clock_mhz);
  // Past the first second the power stays within the dead band below the cap, over it at most for
  // a period after each step up.
  double over = 0, counted = 0;
  for (const PowerSample& s : t.sensor) {
    if (s.time_s() < 1) continue;
    counted += 1;
    over += s.power_w > cap;
    EXPECT_GT(s.power_w, 0.7 * cap) << s.time_s();
  }
  EXPECT_LT(over / counted, 0.5);
  EXPECT_LE(r.metrics.at("power_avg_w"), 1.02 * cap);
}

}  // namespace
}  // namespace dse
