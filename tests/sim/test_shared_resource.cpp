// One executor and one sharing rule for every kind of concurrent work: the rules' speeds by hand,
// and the same two works timed through the GPU executor, a serving run and the simulated
// calibration backend, each under the rule its config names, against SharedResource itself.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "hwcal/measure/backend.h"
#include "hwcal/measure/suite.h"
#include "hwcal/measured_op.h"
#include "hwcal/row_prediction.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_timing_model.h"
#include "sim/run/simulation.h"
#include "sim/runtime/shared_resource.h"
#include "sim/runtime/streams.h"
#include "sim/serving/serving_trace.h"

namespace dse {
namespace {

std::vector<double> speeds_of(const std::string& rule, const std::vector<ShareDemand>& running, double bandwidth,
                              double* occupancy = nullptr) {
  std::vector<double> speeds;
  const double held = make_sharing_rule(rule)->grant(running, bandwidth, speeds);
  if (occupancy) *occupancy = held;
  return speeds;
}

// Two works started together on a fresh device under `rule`: when each ends, ps.
std::vector<TimePs> finish_together(std::shared_ptr<const SharingRule> rule, double bandwidth,
                                    const std::vector<SharedResource::Work>& works) {
  Engine engine;
  SharedResource device(engine, std::move(rule), bandwidth);
  std::vector<TimePs> end(works.size(), -1);
  engine.schedule_at(0, [&] {
    for (std::size_t i = 0; i < works.size(); ++i) device.start(works[i], [&end, i](TimePs, TimePs e) { end[i] = e; });
  });
  engine.run();
  return end;
}

}  // namespace

TEST(SharingRules, TwoWorksOfShareSixTenths) {
  const std::vector<ShareDemand> equal = {{0.6, 0, 1e-3, 0}, {0.6, 0, 1e-3, 0}};
  double held = 0;
  auto s = speeds_of("leftover", equal, 1e12, &held);
  EXPECT_DOUBLE_EQ(s[0], 1.0);
  EXPECT_NEAR(s[1], 0.4 / 0.6, 1e-12);
  EXPECT_NEAR(held, 1.0, 1e-12);
  s = speeds_of("proportional", equal, 1e12, &held);
  EXPECT_NEAR(s[0], 1 / 1.2, 1e-12);
  EXPECT_NEAR(s[1], 1 / 1.2, 1e-12);
  EXPECT_NEAR(held, 1.0, 1e-12);
  // A higher priority goes first under either rule (the running list is in priority order).
  const std::vector<ShareDemand> ranked = {{0.6, 0, 1e-3, 1}, {0.6, 0, 1e-3, 0}};
  for (const char* rule : {"leftover", "proportional", "proportional_dram"}) {
    s = speeds_of(rule, ranked, 1e12);
    EXPECT_DOUBLE_EQ(s[0], 1.0) << rule;
    EXPECT_NEAR(s[1], 0.4 / 0.6, 1e-12) << rule;
  }
  // Small works fit side by side under every rule.
  for (const char* rule : {"leftover", "proportional", "proportional_dram"})
    for (const double speed : speeds_of(rule, {{0.3, 0, 1e-3, 0}, {0.3, 0, 1e-3, 0}}, 1e12)) EXPECT_EQ(speed, 1.0);
}

TEST(SharingRules, DramBandwidthScalesAllButAWorkAlone) {
  // Each pulls 0.8 TB/s alone (0.8 GB in 1 ms) from a 1 TB/s device.
  const std::vector<ShareDemand> two = {{0.3, 0.8e9, 1e-3, 0}, {0.3, 0.8e9, 1e-3, 0}};
  for (const char* rule : {"leftover", "proportional_dram"})
    for (const double speed : speeds_of(rule, two, 1e12)) EXPECT_NEAR(speed, 1 / 1.6, 1e-12) << rule;
  for (const double speed : speeds_of("proportional", two, 1e12)) EXPECT_EQ(speed, 1.0);
  for (const char* rule : {"leftover", "proportional", "proportional_dram"})
    EXPECT_EQ(speeds_of(rule, {{0.3, 5e9, 1e-3, 0}}, 1e12).front(), 1.0) << rule;
}

TEST(SharedResource, AWorkAloneTakesItsSoloTimeAndPowerFollowsSpeed) {
  Engine engine;
  SharedResource device(engine, make_sharing_rule("proportional"), 1e12);
  std::vector<std::pair<TimePs, double>> power;
  device.load_changed.connect([&](TimePs now, const SharedResource::Load& load) {
    power.push_back({now, load.dynamic_w});
  });
  TimePs end_a = 0, end_b = 0;
  engine.schedule_at(0, [&] { device.start({1000, 1.0, 0, 100, 0}, [&](TimePs, TimePs e) { end_a = e; }); });
  engine.schedule_at(5000, [&] { device.start({1000, 1.0, 0, 100, 0}, [&](TimePs, TimePs e) { end_b = e; }); });
  engine.schedule_at(5500, [&] { device.start({1000, 1.0, 0, 60, 0}, [](TimePs, TimePs) {}); });
  engine.run();
  EXPECT_EQ(end_a, 1000);
  // b runs alone for 500 ps, then at half speed beside the third: its last 500 ps of work take 1000.
  EXPECT_EQ(end_b, 6500);
  ASSERT_GE(power.size(), 4u);
  EXPECT_EQ(power[0], (std::pair<TimePs, double>{0, 100.0}));
  EXPECT_EQ(power[1], (std::pair<TimePs, double>{1000, 0.0}));
  EXPECT_EQ(power[3], (std::pair<TimePs, double>{5500, 0.5 * 100 + 0.5 * 60}));
}

// The same two concurrent works through the three users of the executor, under each rule their
// configs can name: the GPU executor (two kernels on two streams), a serving run (two tenants'
// batches of 8 ResNet-50 images started together on an H200) and the simulated calibration backend
// (one GEMM measured by two workers at once), each against SharedResource given the same works.
TEST(SharedResource, TheExecutorServingAndTheCalibrationBackendShareByOneRule) {
  for (const std::string rule : {"leftover", "proportional", "proportional_dram"}) {
    SCOPED_TRACE(rule);
    // The GPU executor.
    {
      const KernelWork kernel{"k", 1'000'000, 0.6, 4e5, "compute"};
      const std::vector<SharedResource::Work> works(2, {1'000'000, 0.6, 4e5, 0, 0});
      const auto expected = finish_together(make_sharing_rule(rule), 5e11, works);
      Engine engine;
      GpuExecutor gpu(engine, 5e11, make_sharing_rule(rule));
      StreamRuntime runtime(engine, gpu);
      std::vector<TimePs> end(2, -1);
      for (int s = 0; s < 2; ++s) {
        const int stream = runtime.create_stream();
        runtime.launch(stream, kernel, [&end, s](TimePs, TimePs e) { end[static_cast<std::size_t>(s)] = e; });
      }
      engine.schedule_at(0, [&runtime] { runtime.start(); });
      engine.run();
      EXPECT_EQ(end, expected);
    }
    // A serving run: 16 requests at once, 8 per tenant, one batch each.
    {
      const std::string device = "{gpu: h200, sharing: " + rule + "}";
      const std::string tenant =
          "      - {arrivals: {name: closed_loop, clients: 8}, batching: {name: fixed, batch: 8}}\n";
      const ConfigNode root = load_config_text(
          "name: s\nworkload:\n  models: [{name: resnet50, dtype: fp16}, {name: resnet50, dtype: fp16}]\n"
          "  serving:\n    requests: 16\n    tenants:\n" +
              tenant + tenant + "device: " + device + "\nschedule: {policy: stream_per_model}\noutput: ~\n",
          "s.yaml");
      const Experiment e = read_experiment(root, "s.yaml");
      const RunResult r = run_experiment(e);
      ASSERT_EQ(r.serving->batches.size(), 2u);
      const ConfigNode pass_root = load_config_text(
          "name: p\nworkload: {models: [{name: resnet50, dtype: fp16, batch: 8}]}\ndevice: " + device + "\noutput: ~\n",
          "p.yaml");
      const Experiment pass = read_experiment(pass_root, "p.yaml");
      const PassProfile p = pass.device->profile(pass, std::nullopt, std::nullopt);
      ASSERT_GT(p.device_share, 0.5);  // the two overlap
      const SharedResource::Work work{checked_ps(std::round(p.latency_s * 1e12), "latency"), p.device_share,
                                      p.dram_bytes, p.dynamic_w, 0};
      const auto expected = finish_together(e.device->sharing().passes, e.device->dram_bytes_per_s(), {work, work});
      for (std::size_t b = 0; b < 2; ++b) {
        EXPECT_DOUBLE_EQ(r.serving->batches[b].start_s, 0.0);
        EXPECT_NEAR(r.serving->batches[b].end_s, static_cast<double>(expected[b]) * 1e-12, 1e-12) << b;
      }
    }
    // The simulated calibration backend: one GEMM timed by two workers at once, no noise or set-up.
    {
      const GpuSpec spec = read_gpu_spec(load_config_file("embedded:configs/hardware/gpu/h200.yaml"));
      const std::vector<Candidate> candidates = read_kernel_suite(
          load_config_text("{dtypes: [fp16], gemm_sizes: [2048], models: [], vector_ops: [], launch: false, pairs: 0}",
                           "kernels.yaml"),
          "t");
      ASSERT_FALSE(candidates.empty());
      const Candidate& c = candidates.front();
      const ConfigNode block = load_config_text(
          "{name: simulated, noise_pct: 0.0001, interference_pct: 0, outlier_rate: 0, failure_rate: 0, setup_ms: 0, "
          "sharing: " +
              rule + "}",
          "backend.yaml");
      auto backend = MeasurementBackendRegistry::instance().find("simulated")->factory(block, spec);
      const MeasureSettings settings;
      const ChunkResult measured = backend->measure({&c, &c}, settings);
      // The same windows on SharedResource: the loop alone, its share and DRAM traffic.
      const KernelTimer timer(spec, KernelCalibration{});
      const double latency_s = predict_latency_s(c.op, timer);
      double dram_bytes = 0;
      for (const auto& kernel : predict_kernels(c.op, timer)) dram_bytes += kernel.dram_bytes;
      const double window_s = timed_runs_s(latency_s * 1e3, settings);
      const TimePs solo_ps = checked_ps(window_s * 1e12, "window");
      const SharedResource::Work loop{solo_ps, predict_gpu_share(c.op, timer), dram_bytes * window_s / latency_s, 0, 0};
      const auto expected = finish_together(read_sharing(block).passes, timer.dram_bytes_per_s(), {loop, loop});
      ASSERT_EQ(measured.measurements.size(), 2u);
      for (std::size_t k = 0; k < 2; ++k) {
        const double slowdown = static_cast<double>(expected[k]) / static_cast<double>(solo_ps);
        EXPECT_NEAR(measured.measurements[k].latency_ms / (latency_s * 1e3 * slowdown), 1.0, 1e-4) << k;
      }
    }
  }
}

}  // namespace dse

namespace dse {

// Why `auto` shares whole passes proportionally: two passes run together kernel by kernel (two
// streams, a host thread each, `leftover` between kernels) finish where proportional sharing of
// their time-averaged shares puts them, and not where leftover between whole passes would.
TEST(SharedResource, PassesShareAsTheirKernelsDo) {
  struct Pair {
    std::string label, a, b;
  };
  const std::vector<Pair> pairs = {
      {"resnet50 b16 + bert b32", "{name: resnet50, dtype: fp16, batch: 16}",
       "{name: bert_base, seq_len: 128, dtype: fp16, batch: 32}"},
      {"resnet50 b8 + resnet50 b8", "{name: resnet50, dtype: fp16, batch: 8}",
       "{name: resnet50, dtype: fp16, batch: 8}"},
      {"resnet50 b2 + bert b4", "{name: resnet50, dtype: fp16, batch: 2}",
       "{name: bert_base, seq_len: 128, dtype: fp16, batch: 4}"},
      {"mobilenet_v2 b4 + resnet18 b4", "{name: mobilenet_v2, dtype: fp16, batch: 4}",
       "{name: resnet18, dtype: fp16, batch: 4}"},
      {"bert b8 + bert b8", "{name: bert_base, seq_len: 128, dtype: fp16, batch: 8}",
       "{name: bert_base, seq_len: 128, dtype: fp16, batch: 8}"},
  };
  const auto experiment = [](const std::string& models, const std::string& schedule) {
    const ConfigNode root = load_config_text(
        "name: p\nworkload: {models: [" + models + "]}\ndevice: {gpu: a100_sxm4_40gb}\n" + schedule + "output: ~\n",
        "p.yaml");
    return read_experiment(root, "p.yaml");
  };
  std::map<std::string, double> error_sum;
  for (const auto& [label, a, b] : pairs) {
    SCOPED_TRACE(label);
    std::vector<SharedResource::Work> works;
    for (const std::string& model : {a, b}) {
      const Experiment e = experiment(model, "");
      const PassProfile p = e.device->profile(e, std::nullopt, std::nullopt);
      works.push_back({checked_ps(std::round(p.latency_s * 1e12), "latency"), p.device_share, 0, 0, 0});
    }
    const RunResult together =
        run_experiment(experiment(a + ", " + b, "schedule: {policy: stream_per_model, host_threads: 2}\n"));
    const double measured[2] = {together.metrics.at("completion_ms_model0"),
                                together.metrics.at("completion_ms_model1")};
    for (const std::string rule : {"leftover", "proportional"}) {
      const auto end = finish_together(make_sharing_rule(rule), 1e15, works);
      for (std::size_t m = 0; m < 2; ++m) {
        const double error = std::abs(static_cast<double>(end[m]) * 1e-9 / measured[m] - 1);
        error_sum[rule] += error;
        std::printf("%-30s %-12s model %zu: kernel by kernel %.3f ms, passes shared %.3f ms (%+.1f %%)\n",
                    label.c_str(), rule.c_str(), m, measured[m], static_cast<double>(end[m]) * 1e-9,
                    100 * (static_cast<double>(end[m]) * 1e-9 / measured[m] - 1));
      }
    }
  }
  const double n = 2.0 * static_cast<double>(pairs.size());
  std::printf("mean |error|: leftover %.1f %%, proportional %.1f %%\n", 100 * error_sum["leftover"] / n,
              100 * error_sum["proportional"] / n);
  EXPECT_LT(error_sum["proportional"] / n, 0.15);
  EXPECT_LT(error_sum["proportional"], 0.75 * error_sum["leftover"]);
}

}  // namespace dse
