// Serving input the run refuses, each at the key that asks for it: bad trace rows, bad serving
// blocks, runs too large to keep in memory, clock levels off a driver table, a tenant's largest
// batch over the device's memory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "models/base/errors.h"
#include "sim/config/config_loader.h"
#include "sim/run/device_memory.h"
#include "sim/run/simulation.h"
#include "sim/serving/serving_spec.h"
#include "sim/serving/serving_trace.h"
#include "tests/sim/catalog_gpu.h"
#include "tests/sim/serving/serving_yaml.h"

namespace dse {
namespace {

using test::poisson_yaml;
using test::serving_experiment;

TEST(ServingSim, ATraceWithABadRowNamesFileAndLine) {
  const auto dir = std::filesystem::temp_directory_path() / "dse_serving_trace_test";
  std::filesystem::create_directories(dir);
  {
    std::ofstream csv(dir / "arrivals.csv");
    csv << "arrival_s\n0.1\n0.2\nsoon\n";
  }
  const std::string yaml =
      "name: t\nworkload:\n  models: [{name: resnet50}]\n  serving:\n    requests: 3\n    tenants:\n"
      "      - arrivals: {name: trace, file: arrivals.csv}\n        batching: {name: fixed, batch: 1}\n"
      "device: {gpu: h200}\noutput: ~\n";
  const std::string config = (dir / "serving.yaml").string();
  try {
    serving_experiment(yaml, config);
    FAIL() << "expected an error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("arrivals.csv:4"), std::string::npos) << e.what();
  }
  // A time past the longest run dse simulates (it would not fit the engine's picosecond clock).
  {
    std::ofstream csv(dir / "arrivals.csv");
    csv << "arrival_s\n0.1\n1e20\n";
  }
  try {
    serving_experiment(yaml, config);
    FAIL() << "expected an error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("arrivals.csv:3:1: arrival_s: expected times within 1e+06 s of 0"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(dir);
  // A requests-bounded run whose arrivals would outlast that is refused, naming the serving block.
  const Experiment slow = serving_experiment(poisson_yaml(1e-6, "{name: fixed, batch: 1}"), "slow.yaml");
  try {
    run_experiment(slow);
    FAIL() << "expected an error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("slow.yaml: workload.serving: tenant 0's requests arrive past 1e+06"),
              std::string::npos)
        << e.what();
  }
}

TEST(ServingSim, BadServingBlocksNameTheKey) {
  const auto error_of = [](const std::string& yaml) -> std::string {
    try {
      serving_experiment(yaml);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  const std::string head = "name: t\nworkload:\n  models: [{name: resnet50}]\n  serving:\n";
  const std::string tail = "device: {gpu: h200}\noutput: ~\n";
  const std::string tenant =
      "    tenants: [{arrivals: {name: poisson, rate_per_s: 10}, batching: {name: fixed, batch: 1}}]\n";
  EXPECT_NE(error_of(head + tenant + tail).find("duration_s"), std::string::npos);
  EXPECT_NE(error_of(head + "    duration_s: 1\n    requests: 5\n" + tenant + tail).find("found both"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    duration_s: 1\n    tenants: []\n" + tail).find("one tenant per model"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    duration_s: 1\n    clock_levels_mhz: [900, 800]\n" + tenant + tail).find("ascending"),
            std::string::npos);
  EXPECT_NE(error_of(head + "    duration_s: 1\n    tenant_count: 1\n" + tenant + tail).find("tenant_count"),
            std::string::npos);
}

// A run keeps every request and sensor reading in memory (sim/serving/serving_budget.h): what would
// need more than the budgets is refused when read, at the key that asks for it, before any of it is
// allocated (each of these ended in std::bad_alloc).
TEST(ServingSim, RunsTooLargeToKeepInMemoryAreRefusedAtTheirKey) {
  const auto error_of = [](const std::string& serving, const std::string& tenant) -> std::string {
    try {
      serving_experiment("name: t\nworkload:\n  models: [{name: resnet50}]\n  serving:\n" + serving +
                         "    tenants:\n      - {batching: {name: fixed, batch: 1}, " + tenant +
                         "}\ndevice: {gpu: h200}\noutput: ~\n");
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "(accepted)";
  };
  const std::string poisson = "arrivals: {name: poisson, rate_per_s: 100}";
  EXPECT_NE(error_of("    requests: 1000000000\n", poisson)
                .find("test.yaml:5:15: workload.serving.requests: expected at most 10 million requests"),
            std::string::npos)
      << error_of("    requests: 1000000000\n", poisson);
  EXPECT_EQ(error_of("    requests: 10000000\n", poisson), "(accepted)");  // the budget itself
  // 1e9/s for 60 s: 6e10 requests.
  const std::string fast = error_of("    duration_s: 60\n", "arrivals: {name: poisson, rate_per_s: 1e9}");
  EXPECT_NE(fast.find("workload.serving.tenants[0].arrivals.rate_per_s: expected arrivals that bring at most 10 "
                      "million requests in duration_s (60 s"),
            std::string::npos)
      << fast;
  EXPECT_NE(fast.find("found about 6e+10"), std::string::npos) << fast;
  // 1e6 s read every 1e-4 s: 1e10 readings.
  const std::string sensor =
      error_of("    duration_s: 1000000\n    sensor_period_s: 0.0001\n", "arrivals: {name: poisson, rate_per_s: 1}");
  EXPECT_NE(sensor.find("test.yaml:6:22: workload.serving.sensor_period_s: expected at most 20 million "
                        "power-sensor readings over the run"),
            std::string::npos)
      << sensor;
  EXPECT_EQ(error_of("    duration_s: 1000000\n", "arrivals: {name: poisson, rate_per_s: 1}"), "(accepted)");
  // A host stage of 1,000 s per request on one worker: 10,000 requests take 1e7 s.
  const std::string host = "host: {per_item_ms: 1000000, workers: 1}";
  const std::string slow = error_of("    duration_s: 100\n", poisson + ", " + host);
  EXPECT_NE(slow.find("workload.serving.tenants[0].host: expected a host stage that keeps up with its arrivals, "
                      "found one that needs 1e+07 s"),
            std::string::npos)
      << slow;
  // 1,000 requests of 500 s each take 5e5 s: within the longest run, but not read every 10 ms.
  const std::string read_often = error_of("    duration_s: 100\n    sensor_period_s: 0.01\n",
                                          "arrivals: {name: poisson, rate_per_s: 10}, "
                                          "host: {per_item_ms: 500000, workers: 1}");
  EXPECT_NE(read_often.find("workload.serving.tenants[0].host: expected a host stage that keeps up with its "
                            "arrivals, found one that needs 5e+05 s"),
            std::string::npos)
      << read_often;
  EXPECT_NE(read_often.find("takes 5e+07 readings"), std::string::npos) << read_often;
}

// Issue 54: a clock level on a GPU whose spec has its driver table must be one of its entries (it
// was simulated at a clock nvidia-smi would refuse); one within half a MHz is that entry. Without a
// table in the spec (the P40's), any clock in range is taken as given, as device.sm_clock_mhz is.
TEST(ServingSim, ClockLevelsMustBeEntriesOfADriverTable) {
  const auto levels = [](const std::string& gpu, const std::string& list) {
    return serving_experiment(
               "name: t\nworkload:\n  models: [{name: resnet50, dtype: fp16}]\n  serving:\n"
               "    duration_s: 1\n    clock_levels_mhz: " +
               list +
               "\n    tenants: [{arrivals: {name: poisson, rate_per_s: 10}, batching: {name: fixed, "
               "batch: 1}}]\ndevice: {gpu: " +
               gpu + "}\noutput: ~\n")
        .serving->clock_levels_mhz;
  };
  try {
    levels("h200", "[990, 1000]");
    FAIL() << "a clock outside the H200's driver table was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("workload.serving.clock_levels_mhz[1]: expected a clock of h200's driver "
                                         "table (110 clocks from 345 to 1980 MHz; around 1000: 990 and 1005), found "
                                         "1000"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(levels("h200", "[990, 1005.3]"), (std::vector<double>{990, 1005}));
  EXPECT_EQ(levels("p40", "[544, 1000.3]"), (std::vector<double>{544, 1000.3}));
}

// Issue 54: a batch the power limit holds below its clock level is reported at the clock it ran
// at, not at the level (the P40 at a 100 W limit cannot run at 1,531 MHz).
TEST(ServingSim, ABatchHeldBelowItsLevelByThePowerLimitReportsTheClockItRanAt) {
  const RunResult r = run_experiment(serving_experiment(
      "name: t\nworkload:\n  models: [{name: mobilenet_v1_050, dtype: fp32}]\n  serving:\n    duration_s: 2\n"
      "    clock_levels_mhz: [544, 1531]\n    tenants:\n      - arrivals: {name: closed_loop, clients: 16}\n"
      "        batching: {name: fixed, batch: 8}\n"
      "    governor: {name: static, batch: 8, clock_mhz: 1531}\ndevice: {gpu: p40, power_limit_w: 100}\noutput: ~\n"));
  const double ran_mhz = r.serving->batches.front().clock_mhz;
  ASSERT_LT(ran_mhz, 1530);
  EXPECT_NEAR(r.metrics.at("sm_clock_mhz"), ran_mhz, 5.0);  // it was 1,531
}

// Issue 54: models over the device's memory are refused at the key that sets the batch: a serving
// tenant's batching (its largest batch) here. ResNet-50 fp32 keeps ~9 MB of activations per
// request at its peak: 4,096 of them need ~37 GiB, beyond the P4's 8 GiB.
TEST(ServingSim, ATenantsLargestBatchMustFitInTheDevicesMemory) {
  const auto yaml = [](const std::string& batching) {
    return "name: t\nworkload:\n  models: [{name: resnet50, dtype: fp32}]\n  serving:\n    duration_s: 1\n"
           "    tenants:\n      - arrivals: {name: poisson, rate_per_s: 10}\n        batching: " +
           batching + "\ndevice: {gpu: p4}\noutput: ~\n";
  };
  try {
    serving_experiment(yaml("{name: fixed, batch: 4096, max_batch: 4096}"));
    FAIL() << "a batch over the P4's memory was accepted";
  } catch (const DeviceMemoryError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("workload.serving.tenants[0].batching: expected a model that fits in p4's 8 GiB"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("resnet50 at batch 4096 (the largest its batching forms)"), std::string::npos) << message;
  }
  // A fixed batch of 8 is charged at 8, not at the max_batch (256) only a governor could set.
  EXPECT_NO_THROW(serving_experiment(yaml("{name: fixed, batch: 8, max_batch: 4096}")));
}

}  // namespace
}  // namespace dse
