// `dse` under an address-space limit: input that would need more memory than there is ends in an
// error naming the key or file (exit 2), and text inputs under their size limit are read in memory
// proportional to their size. Each case below ended in std::bad_alloc (exit 1) before.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/cli/cli_runner.h"

namespace dse::test {
namespace fs = std::filesystem;
namespace {

// Every case runs under this limit (dse itself maps about 150 MB).
constexpr std::size_t kLimitMib = 1024;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("dse_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

}  // namespace

// A serving run keeps every request and sensor reading (sim/serving/serving_budget.h).
TEST(CliMemory, ServingRunsThatWouldNotFitAreRefusedAtTheirKey) {
  if (!address_space_limits_work()) GTEST_SKIP() << "no address-space limit under a sanitizer";
  const std::string example = "run configs/experiments/serving_resnet50_dynamic.yaml -q -p output= ";
  const auto refused = [&](const std::string& arguments, const std::string& message) {
    const CliResult result = run_dse_within(kLimitMib, arguments);
    EXPECT_EQ(result.exit_code, 2) << arguments << "\n" << result.err;
    EXPECT_NE(result.err.find(message), std::string::npos) << result.err;
  };
  refused(example + "-p 'workload.serving.tenants[0].arrivals.rate_per_s=1e9'",
          "workload.serving.tenants[0].arrivals.rate_per_s: expected arrivals that bring at most 10 million requests");
  refused(example +
              "-p workload.serving.duration_s=1e6 -p workload.serving.sensor_period_s=1e-4 "
              "-p 'workload.serving.tenants[0].arrivals.rate_per_s=1'",
          "workload.serving.sensor_period_s: expected at most 20 million power-sensor readings");
  refused(example + "-p 'workload.serving.tenants[0].host={per_item_ms: 1000000, workers: 1}'",
          "workload.serving.tenants[0].host: expected a host stage that keeps up with its arrivals");
  const fs::path dir = fresh_dir("serving_budget");
  const std::string config = (dir / "requests.yaml").string();
  std::ofstream(config) << "name: requests\nworkload:\n  models: [{name: resnet50, dtype: fp16}]\n  serving:\n"
                           "    requests: 1000000000\n    tenants:\n"
                           "      - {arrivals: {name: poisson, rate_per_s: 4000}, batching: {name: fixed, batch: 8}}\n"
                           "device: {gpu: h200}\noutput: ~\n";
  refused("run -q " + config, config + ":5:15: workload.serving.requests: expected at most 10 million requests");
  fs::remove_all(dir);
}

// A 63 MB arrival trace of one-character rows (31 million of them) took 3.5 GB: 56x its size.
TEST(CliMemory, AnArrivalTraceNearTheSizeLimitIsReadInMemoryProportionalToIt) {
  if (!address_space_limits_work()) GTEST_SKIP() << "no address-space limit under a sanitizer";
  const fs::path dir = fresh_dir("big_trace");
  {
    std::ofstream csv(dir / "arrivals.csv", std::ios::binary);
    csv << "arrival_s\n";
    std::string block;
    for (int i = 0; i < 1 << 20; ++i) block += "0\n";
    for (int i = 0; i < 30; ++i) csv << block;
  }
  ASSERT_EQ(fs::file_size(dir / "arrivals.csv"), 10 + 60u * (1 << 20));
  const auto config = [&](const std::string& length) {
    const fs::path path = dir / "serving.yaml";
    std::ofstream(path) << "name: trace\nworkload:\n  models: [{name: resnet50, dtype: fp16}]\n  serving:\n    " +
                               length +
                               "\n    tenants:\n      - {arrivals: {name: trace, file: arrivals.csv}, batching: "
                               "{name: fixed, batch: 1}}\ndevice: {gpu: h200}\noutput: ~\n";
    return path.string();
  };
  const CliResult few = run_dse_within(kLimitMib, "run -q " + config("requests: 10"));
  EXPECT_EQ(few.exit_code, 0) << few.err;
  // Served whole, its 31 million requests are more than a run keeps: refused at the file.
  const CliResult all = run_dse_within(kLimitMib, "run -q " + config("duration_s: 1"));
  EXPECT_EQ(all.exit_code, 2) << all.err;
  EXPECT_NE(all.err.find("workload.serving.tenants[0].arrivals.file: expected arrivals that bring at most 10 million "
                         "requests in duration_s (1 s"),
            std::string::npos)
      << all.err;
  fs::remove_all(dir);
}

// A 30 MB YAML flow sequence of 15 million numbers: yaml-cpp built all of them (7 GB) before the
// loader's node budget refused the millionth; now they are counted first.
TEST(CliMemory, AYamlFileOfMillionsOfNodesIsRefusedBeforeItIsBuilt) {
  if (!address_space_limits_work()) GTEST_SKIP() << "no address-space limit under a sanitizer";
  const fs::path dir = fresh_dir("big_yaml");
  const std::string config = (dir / "big.yaml").string();
  {
    std::ofstream yaml(config, std::ios::binary);
    yaml << "name: q\nworkload: {models: [{name: resnet50}]}\ndevice: {gpu: h200}\nx: [";
    std::string block;
    for (int i = 0; i < 1'000'000; ++i) block += "0,";
    for (int i = 0; i < 15; ++i) yaml << block;
    yaml << "0]\n";
  }
  const CliResult result = run_dse_within(kLimitMib, "run -q " + config);
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find(config + ":4:1999987: x[999991]: expected at most 1000000 nodes"), std::string::npos)
      << result.err;
  fs::remove_all(dir);
}

}  // namespace dse::test
