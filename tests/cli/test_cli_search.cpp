// The CLI's search end to end: the clock table searched for perf/W through `dse run`. In its own file
// so the ThreadSanitizer tree (DSE_TSAN, .ci/run) builds it beside the search tests without the rest
// of the CLI suite.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace dse::test {
namespace fs = std::filesystem;

TEST(Cli, SearchesTheClockTableForPerfPerWatt) {
  const fs::path out = fs::temp_directory_path() / ("dse_clock_search_" + std::to_string(::getpid()) + ".h5");
  const CliResult result = run_dse("run configs/experiments/search_gpu_clock.yaml --json -q -p output=" + out.string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["trials"].get<int>(), 87 * 7);  // 1,590 to 300 MHz in 15 MHz steps x batch 1..64
  const auto& best = json["best"];
  const double clock = std::stod(best["values"]["device.sm_clock_mhz"].get<std::string>());
  EXPECT_DOUBLE_EQ(best["metrics"]["sm_clock_mhz"].get<double>(), clock);  // a locked clock within the limit
  EXPECT_LT(clock, 1590);  // the most efficient clock is not the fastest
  EXPECT_LE(best["metrics"]["latency_ms"].get<double>(), 20);
  for (const char* suffix : {"", ".journal.jsonl", ".best.yaml"}) fs::remove(out.string() + suffix);
  fs::remove(fs::path(out).replace_extension(".journal.jsonl"));
  fs::remove(fs::path(out).replace_extension(".best.yaml"));
}
// A schedule search (search/schedule_space.h) over a three-model mix: never worse than the best
// baseline it was seeded with, and its best config re-runs through `dse run` to the same makespan.
TEST(Cli, ScheduleSearchBeatsOrTiesEveryBaselineAndItsBestReplays) {
  const fs::path dir = fs::temp_directory_path() / ("dse_schedule_search_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path config = dir / "mix.yaml";
  std::ofstream(config)
      << "name: mix\nworkload:\n  models:\n"
      << "    - {name: resnet18, batch: 4, dtype: fp16}\n"
      << "    - {name: mobilenet_v2, batch: 1, dtype: fp16}\n"
      << "    - {name: squeezenet1_1, batch: 1, dtype: fp16}\n"
      << "device: {gpu: v100_sxm2}\noutput: " << (dir / "mix.h5").string() << "\n"
      << "search:\n  space:\n    schedule: {schedule: {max_segments: 6, priorities: 2, host_threads: 3}}\n"
      << "  objective: {minimize: latency_ms}\n"
      << "  strategy: {name: aging_evolution, trials: 60, batch: 6, seed: 2, population: 12}\n";
  const CliResult search = run_dse("run " + config.string() + " --json -q");
  ASSERT_EQ(search.exit_code, 0) << search.err;
  const auto json = nlohmann::json::parse(search.out);
  const double best = json["best"]["metrics"]["latency_ms"].get<double>();
  for (const std::string policy : {"single_stream", "stream_per_model", "breadth_first", "priority", "realtime"}) {
    const CliResult baseline =
        run_dse("run " + config.string() + " --json -q -p search= -p output= -p 'schedule={policy: " + policy +
                ", host_threads: 3}'");
    ASSERT_EQ(baseline.exit_code, 0) << baseline.err;
    EXPECT_LE(best, nlohmann::json::parse(baseline.out)["metrics"]["latency_ms"].get<double>()) << policy;
  }
  const CliResult replay = run_dse("run " + (dir / "mix.best.yaml").string() + " --json -q -p output=");
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(replay.out)["metrics"]["latency_ms"].get<double>(), best);
  fs::remove_all(dir);
}

// The accelerator + serving co-design (a shorter search than the shipped config's): its best design
// meets the cap, the SLO and the load, and its best config re-run alone gives the same numbers.
TEST(Cli, AcceleratorServingCoDesignMeetsItsConstraintsAndItsBestReplays) {
  const fs::path dir = fs::temp_directory_path() / ("dse_coopt_serving_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string out = (dir / "coopt.h5").string();
  const CliResult search = run_dse("run configs/experiments/coopt_accel_serving.yaml --json -q -p output=" + out +
                                   " -p search.strategy.trials=160 -p workload.serving.duration_s=1.5");
  ASSERT_EQ(search.exit_code, 0) << search.err;
  const auto json = nlohmann::json::parse(search.out);
  ASSERT_TRUE(json["best"].is_object()) << search.out;
  const auto& best = json["best"]["metrics"];
  EXPECT_LE(best["power_peak_w"].get<double>(), 160);
  EXPECT_LE(best["latency_p99_ms"].get<double>(), 15);
  EXPECT_GE(best["throughput_per_s"].get<double>(), 4950);
  EXPECT_GT(best["energy_per_inference_j"].get<double>(), 0);
  EXPECT_GT(best["clock_mhz"].get<double>(), 0);
  const CliResult replay = run_dse("run " + (dir / "coopt.best.yaml").string() + " --json -q -p output=");
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  const auto again = nlohmann::json::parse(replay.out)["metrics"];
  EXPECT_DOUBLE_EQ(again["energy_per_inference_j"].get<double>(), best["energy_per_inference_j"].get<double>());
  EXPECT_DOUBLE_EQ(again["latency_p99_ms"].get<double>(), best["latency_p99_ms"].get<double>());
  fs::remove_all(dir);
}

}  // namespace dse::test
