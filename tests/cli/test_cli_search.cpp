// The CLI's search end to end: the clock table searched for perf/W through `dse run`. In its own file
// so the ThreadSanitizer tree (DSE_TSAN, .ci/run) builds it beside the search tests without the rest
// of the CLI suite.
#include <gtest/gtest.h>

#include <filesystem>
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
}  // namespace dse::test
