// The GPU power model in a run: clocks under a power limit, energy as the integral of power.
#include <gtest/gtest.h>

#include <regex>

#include <algorithm>
#include <iterator>

#include "sim/config/config_loader.h"
#include "sim/config/overrides.h"
#include "sim/gpu/gpu_device.h"
#include "sim/gpu/kernel_timer.h"
#include "sim/metrics/power_series.h"
#include "sim/run/experiment.h"
#include "sim/run/simulation.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {
namespace {

// The quickstart (resnet50, batch 8, fp16) on another GPU or under other settings.
RunResult quickstart(const std::vector<std::string>& overrides) {
  ConfigNode root = load_config_file("embedded:configs/experiments/quickstart.yaml");
  apply_overrides(root, overrides);
  return run_experiment(read_experiment(root, "embedded:configs/experiments/quickstart.yaml"));
}

std::string setting(const RunResult& result, const std::string& key) {
  for (const auto& [k, v] : result.device_settings)
    if (k == key) return v;
  return "";
}

// The ConfigError the quickstart under `overrides` fails with ("no error" if it runs).
std::string config_error(const std::vector<std::string>& overrides) {
  try {
    quickstart(overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "no error";
}

// ResNet-50 at batch 64 on the H100 SXM with one more device setting (KEY=VALUE).
RunResult h100_b64(const std::string& setting) {
  return quickstart({"device.gpu=h100_sxm", "workload.models[0].batch=64", "device." + setting});
}

}  // namespace

TEST(GpuPower, EnergyIsTheIntegralOfThePowerSeries) {
  const RunResult result = quickstart({"workload.models[0].batch=64"});
  ASSERT_FALSE(result.power.empty());
  double joules = 0;
  for (std::size_t i = 0; i < result.power.size(); ++i) {
    const TimePs end = i + 1 < result.power.size() ? result.power[i + 1].time_ps : result.makespan_ps;
    joules += result.power[i].power_w * static_cast<double>(end - result.power[i].time_ps) * 1e-12;
  }
  EXPECT_NEAR(result.metrics.at("energy_j"), joules, 1e-12 * joules);
  EXPECT_NEAR(result.metrics.at("power_avg_w"), joules / (result.latency_ms() * 1e-3), 1e-9);
  EXPECT_NEAR(result.metrics.at("energy_per_inference_j"), joules / 64, 1e-12);
  EXPECT_GE(result.metrics.at("power_peak_w"), result.metrics.at("power_avg_w") - 1e-9);
  // Every sample draws at least what the GPU does between kernels with the process on it: the idle
  // draw (configs/hardware/gpu/h200.yaml idle_w) and the leakage at the clock.
  const double between_kernels_w = KernelTimer(test::catalog_gpu("h200"), KernelCalibration{})
                                       .power()
                                       .held_idle_w(result.metrics.at("sm_clock_mhz"));
  EXPECT_GT(between_kernels_w, 83.4 + 10);
  for (const auto& sample : result.power) {
    EXPECT_GE(sample.power_w, between_kernels_w - 1e-9);
    EXPECT_DOUBLE_EQ(sample.clock_mhz, result.metrics.at("sm_clock_mhz"));
  }
}

TEST(GpuPower, IdleAtZeroWorkIsTheSpecsIdleDraw) {
  const GpuSpec h200 = test::catalog_gpu("h200");
  const GpuPowerModel power(h200,
                            {KernelCalibration{}.simt_tensor_energy_ratio, KernelCalibration{}.active_sm_power_share});
  EXPECT_DOUBLE_EQ(power.idle_w(), *h200.idle_w);
  EXPECT_TRUE(power.idle_measured());
  const KernelLoad nothing{1e-3, 0, "fp16", true, 0, 0};
  EXPECT_DOUBLE_EQ(power.kernel_dynamic_w(nothing, h200.boost_clock_mhz), 0);
  // A spec without a measured idle draw gets the median idle / TDP of those with one.
  GpuSpec unmeasured = h200;
  unmeasured.idle_w.reset();
  EXPECT_DOUBLE_EQ(GpuPowerModel(unmeasured, {6, 0.3}).idle_w(), estimated_idle_w(unmeasured));
  EXPECT_FALSE(GpuPowerModel(unmeasured, {6, 0.3}).idle_measured());
}

TEST(GpuPower, ALowerPowerLimitLowersTheClockAndLengthensThePass) {
  const auto at = [](const std::string& limit) { return h100_b64("power_limit_w=" + limit); };
  const RunResult full = at("700"), capped = at("200");
  EXPECT_LT(capped.metrics.at("sm_clock_mhz"), full.metrics.at("sm_clock_mhz"));
  EXPECT_GT(capped.latency_ms(), full.latency_ms());
  // The power settles at the limit (to the firmware's 0.1 MHz), and the result says why.
  EXPECT_NEAR(capped.metrics.at("power_avg_w"), 200, 0.5);
  EXPECT_NE(setting(capped, "clock").find("held by the 200 W power limit"), std::string::npos)
      << setting(capped, "clock");
  EXPECT_NE(setting(full, "clock").find("the boost clock"), std::string::npos) << setting(full, "clock");
  // Below what nvidia-smi accepts (200 W on this GPU) it is a what-if, and the result says so.
  const RunResult what_if = at("150");
  EXPECT_LE(what_if.metrics.at("sm_clock_mhz"), capped.metrics.at("sm_clock_mhz"));
  EXPECT_GE(what_if.latency_ms(), capped.latency_ms());
  EXPECT_NE(setting(what_if, "clock").find("what-if"), std::string::npos) << setting(what_if, "clock");
}

TEST(GpuPower, ALockedClockIsKept) {
  const auto at = [](const std::string& clock) { return h100_b64("sm_clock_mhz=" + clock); };
  const RunResult fast = at("1500"), slow = at("750");
  EXPECT_DOUBLE_EQ(fast.metrics.at("sm_clock_mhz"), 1500);
  EXPECT_DOUBLE_EQ(slow.metrics.at("sm_clock_mhz"), 750);
  // Slower, but by less than the clock: part of the pass waits on DRAM, which the clock does not
  // slow (a compute-bound kernel doubles: tests/sim/test_kernel_model.cpp).
  EXPECT_GT(slow.latency_ms(), fast.latency_ms());
  EXPECT_LT(slow.latency_ms(), 2.0 * fast.latency_ms());
  EXPECT_LT(slow.metrics.at("power_avg_w"), fast.metrics.at("power_avg_w"));
  EXPECT_NE(setting(slow, "clock").find("the locked clock"), std::string::npos);
  // The H100 SXM's spec has no driver table to hold a locked clock to, and the result says so; the
  // H200's has one, which the clock passed.
  EXPECT_NE(setting(slow, "clock").find("not checked against a driver table: h100_sxm's spec has none"),
            std::string::npos)
      << setting(slow, "clock");
  const RunResult h200 = quickstart({"device.sm_clock_mhz=1500"});
  EXPECT_EQ(setting(h200, "clock").find("not checked"), std::string::npos) << setting(h200, "clock");
}

TEST(GpuPower, BadClocksAndLimitsNameTheKey) {
  EXPECT_THROW(quickstart({"device.power_limit_w=900"}), ConfigError);                   // above the H200's 700 W
  EXPECT_THROW(quickstart({"device.sm_clock_mhz=5000"}), ConfigError);                   // above boost
  EXPECT_THROW(quickstart({"device.gpu=t4", "device.sm_clock_mhz=1000"}), ConfigError);  // not in the T4's table
  const std::string t4 = config_error({"device.gpu=t4", "device.sm_clock_mhz=1001"});
  EXPECT_NE(t4.find("expected a clock of t4's driver table (300 to 1590 MHz in steps of 15"), std::string::npos) << t4;
  // The P100's list as its driver prints it: 1,278 is an entry, 1,277 (on a 12.65 MHz grid) is not.
  EXPECT_NO_THROW(quickstart({"device.gpu=p100_pcie", "device.sm_clock_mhz=1278"}));
  const std::string p100 = config_error({"device.gpu=p100_pcie", "device.sm_clock_mhz=1277"});
  EXPECT_NE(p100.find("(63 clocks from 1328 down to 544 MHz), found 1277 (nearest: 1278)"), std::string::npos) << p100;
}

TEST(GpuPower, APassLongerThanTheWindowGetsAClockPerWindow) {
  // GPT-2 prefill (dense GEMMs) then decode steps (memory-bound) on an H100 held to 300 W, the
  // firmware averaging over 1 ms windows: the prefill's windows are held below boost, the decode
  // runs faster again, and every full window's power stays at the limit.
  const auto run = [](const std::string& window_ms) {
    const std::string text =
        "name: prefill_then_decode\n"
        "workload:\n"
        "  models:\n"
        "    - {name: gpt2, batch: 8, dtype: fp16, phase: prefill, seq_len: 1024}\n"
        "    - {name: gpt2, batch: 8, dtype: fp16, phase: decode, past_len: 1000}\n"
        "device: {gpu: h100_sxm, timing_model: kernel, power_limit_w: 300, power_window_ms: " +
        window_ms + "}\n";
    return run_experiment(read_experiment(load_config_text(text, "prefill_then_decode.yaml"), ""));
  };
  const RunResult windowed = run("1");
  EXPECT_NE(setting(windowed, "clock").find("set per 1 ms window"), std::string::npos) << setting(windowed, "clock");
  const TimePs window = 1'000'000'000, end = windowed.makespan_ps;
  ASSERT_GT(end, 10 * window);
  // Every full window near the limit: within 10 % (an op runs at one clock, so one that straddles
  // two windows carries its power into the next), and all but one or two of the 18 within 5 %
  // (which ones depends on where the ops' ends fall: one at 316 W with the calibration before the
  // P4's DRAM activations were modelled, two at 315.5 and 317 W since).
  const StepIntegral joules(windowed.power, end);
  int windows = 0, within_5pct = 0;
  for (TimePs from = 0; from + window <= end; from += window) {
    const double watts = joules.between(from, from + window) / 1e-3;
    EXPECT_LE(watts, 300 * 1.10) << "window at " << from;
    ++windows;
    within_5pct += watts <= 300 * 1.05 ? 1 : 0;
  }
  EXPECT_GE(within_5pct, 0.85 * windows);
  EXPECT_LE(windowed.metrics.at("power_avg_w"), 300 * 1.01);
  // The clock over each model's ops: the decode's above the prefill's, which is below boost.
  const auto clock_of_model = [&](std::size_t model) {
    double weighted = 0, time = 0;
    for (const OpRecord& op : windowed.ops) {
      if (op.model_index != model) continue;
      const auto it = std::upper_bound(windowed.power.begin(), windowed.power.end(), op.start_ps,
                                       [](TimePs t, const PowerSample& s) { return t < s.time_ps; });
      weighted += std::prev(it)->clock_mhz * static_cast<double>(op.end_ps - op.start_ps);
      time += static_cast<double>(op.end_ps - op.start_ps);
    }
    return weighted / time;
  };
  EXPECT_LT(clock_of_model(0), 1980 - 100);
  EXPECT_GT(clock_of_model(1), clock_of_model(0) + 100);
  // A window longer than the pass: one clock for the whole pass, at the pass's average power.
  const RunResult whole = run("1000");
  EXPECT_NE(setting(whole, "clock").find("held by the 300 W power limit"), std::string::npos)
      << setting(whole, "clock");
  EXPECT_NEAR(whole.metrics.at("power_avg_w"), 300, 0.5);
  for (const auto& sample : whole.power) EXPECT_DOUBLE_EQ(sample.clock_mhz, whole.metrics.at("sm_clock_mhz"));
}

TEST(GpuPower, WindowsShorterThanAnOpCountTheClockTheOpRunsAt) {
  // 10 us windows under GPT-2's prefill GEMMs (each longer): an op keeps the clock of the window it
  // starts in, so the windows it runs on into count as held by the limit too, and the share of
  // windows the result names at boost is the share of the pass that ran at boost.
  const std::string text =
      "name: short_windows\n"
      "workload:\n"
      "  models:\n"
      "    - {name: gpt2, batch: 8, dtype: fp16, phase: prefill, seq_len: 1024}\n"
      "device: {gpu: h100_sxm, timing_model: kernel, power_limit_w: 300, power_window_ms: 0.01}\n";
  const RunResult result = run_experiment(read_experiment(load_config_text(text, "short_windows.yaml"), ""));
  const std::string clock = setting(result, "clock");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(clock, match, std::regex(R"((\d+) of (\d+) windows at the boost clock)"))) << clock;
  const double share_at_boost = std::stod(match[1].str()) / std::stod(match[2].str());
  double at_boost_ps = 0;
  for (std::size_t i = 0; i < result.power.size(); ++i) {
    const TimePs end = i + 1 < result.power.size() ? result.power[i + 1].time_ps : result.makespan_ps;
    if (result.power[i].clock_mhz >= 1980 - 1e-6) at_boost_ps += static_cast<double>(end - result.power[i].time_ps);
  }
  EXPECT_LT(share_at_boost, 0.5) << clock;
  EXPECT_NEAR(share_at_boost, at_boost_ps / static_cast<double>(result.makespan_ps), 0.05) << clock;
}

TEST(GpuPower, PeakOverAWindowOfAStepSeries) {
  // 100 W for 2 ms, then 300 W for 0.5 ms, then 100 W for 2 ms: the 1 ms peak holds the step.
  const std::vector<PowerSample> series{{0, 100, 0}, {2'000'000'000, 300, 0}, {2'500'000'000, 100, 0}};
  EXPECT_NEAR(series_energy_j(series, 4'500'000'000), 0.1 * 4e-3 * 1e3 * 0 + 100 * 4e-3 + 300 * 0.5e-3, 1e-12);
  EXPECT_NEAR(series_peak_w(series, 4'500'000'000, 1'000'000'000), (300 * 0.5 + 100 * 0.5), 1e-9);
  EXPECT_NEAR(series_peak_w(series, 500'000'000, 1'000'000'000), 100, 1e-9);  // shorter than the window
}

}  // namespace dse
