// Robustness: thousands of mangled versions of real configs must each either run or fail with a
// UserError (exit 2) — never another exception, never a crash (the suite also runs under ASan and
// UBSan). Mutations are deterministic (fixed seed), so a failure reproduces.
#include <gtest/gtest.h>

#include <random>

#include "sim/accel/accel_device.h"
#include "sim/config/config_loader.h"
#include "sim/gpu/gpu_spec.h"
#include "sim/run/experiment.h"
#include "sim/run/simulation.h"
#include "tests/cli/cli_runner.h"

namespace dse {
namespace {

std::string mutate(std::string text, std::mt19937_64& rng) {
  static const std::string alphabet = "{}[]:,-#&*!|>'\"\t\n ~?%@`0123456789abcxyz.\\";
  static const std::vector<std::string> tokens = {"!include ", "&a ",         "*a",     "null", "-1",
                                                  "1e309",     "99999999999", "\n  - ", ": ",   "{",
                                                  "}",         "[",           "]",      "\xff", std::string(1, '\0')};
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    const std::size_t at = rng() % text.size();
    switch (rng() % 4) {
      case 0: text.erase(at, 1 + rng() % 8); break;
      case 1: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
      case 2: text[at] = alphabet[rng() % alphabet.size()]; break;
      default: text.insert(at, tokens[rng() % tokens.size()]); break;
    }
  }
  return text;
}

}  // namespace

TEST(ConfigMutations, EveryMangledConfigRunsOrFailsAsAUserError) {
  const std::string original = test::read_text(test::source_path("configs/experiments/quickstart.yaml"));
  ASSERT_FALSE(original.empty());
  std::mt19937_64 rng(20261130);
  int ran = 0, rejected = 0;
  const auto cache = std::make_shared<RunCache>();  // shared by the mutations, as by a search's trials
  for (int trial = 0; trial < 3000; ++trial) {
    const std::string text = mutate(original, rng);
    const std::string name = test::source_path("configs/experiments/mutated.yaml");
    try {
      ConfigNode root = load_config_text(text, name);
      Experiment experiment = read_experiment(root, name, cache);
      experiment.models[0].params.batch = std::min(experiment.models[0].params.batch, 64);  // keep it quick
      run_experiment(experiment);
      ++ran;
    } catch (const UserError& error) {
      ++rejected;
      const std::string message = error.what();
      EXPECT_TRUE(message.starts_with(name) || message.starts_with("embedded:") ||
                  message.starts_with(test::source_path("")))
          << message << "\n--- config ---\n"
          << text;
    } catch (const std::exception& error) {
      ADD_FAILURE() << "internal error: " << error.what() << "\n--- config ---\n" << text;
    }
  }
  EXPECT_GT(ran, 0);
  EXPECT_GT(rejected, 1000);
}

TEST(ConfigMutations, EveryMangledGpuSpecLoadsOrFailsAsAUserError) {
  const std::string original = test::read_text(test::source_path("configs/hardware/gpu/h200.yaml"));
  ASSERT_FALSE(original.empty());
  std::mt19937_64 rng(7);
  int loaded = 0, rejected = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::string text = mutate(original, rng);
    try {
      const GpuSpec spec = read_gpu_spec(load_config_text(text, "spec.yaml"));
      EXPECT_GT(spec.sm_count, 0);
      EXPECT_GT(spec.dram_bandwidth_gbps, 0);
      ++loaded;
    } catch (const UserError& error) {
      ++rejected;
      EXPECT_TRUE(std::string(error.what()).starts_with("spec.yaml:")) << error.what();
    } catch (const std::exception& error) {
      ADD_FAILURE() << "internal error: " << error.what() << "\n--- spec ---\n" << text;
    }
  }
  EXPECT_GT(loaded, 0);
  EXPECT_GT(rejected, 0);
}

// Mangled accelerator experiments (device overrides included) and specs: each runs (the whole
// accelerator path: mapping, every fusion plan, engine, metrics) or fails as a UserError.
TEST(ConfigMutations, EveryMangledAcceleratorConfigRunsOrFailsAsAUserError) {
  const std::string experiment = R"(name: m
workload:
  models:
    - {name: mobilenet_v2, batch: 2, dtype: bf16}
device:
  accelerator: tpu_v3_like
  fusion: exact
  array: {rows: 32, cols: 64, dataflow: os}
  cores: {x: 2, y: 1}
  global_buffer_kib: 4096
  noc_bandwidth_gbps: 512
schedule: {policy: stream_per_model}
output: ~
)";
  std::mt19937_64 rng(5);
  int ran = 0, rejected = 0;
  const std::string name = test::source_path("configs/experiments/mutated_accel.yaml");
  const auto cache = std::make_shared<RunCache>();  // shared by the mutations, as by a search's trials
  for (int trial = 0; trial < 1500; ++trial) {
    const std::string text = mutate(experiment, rng);
    try {
      ConfigNode root = load_config_text(text, name);
      Experiment e = read_experiment(root, name, cache);
      for (auto& model : e.models) model.params.batch = std::min(model.params.batch, 8);
      if (static_cast<const AcceleratorDevice&>(*e.device).fusion() == FusionMode::ilp) continue;  // own tests; slower
      run_experiment(e);
      ++ran;
    } catch (const UserError& error) {
      ++rejected;
      const std::string message = error.what();
      EXPECT_TRUE(message.starts_with(name) || message.starts_with("embedded:")) << message << "\n--- config ---\n"
                                                                                 << text;
    } catch (const std::exception& error) {
      ADD_FAILURE() << "internal error: " << error.what() << "\n--- config ---\n" << text;
    }
  }
  EXPECT_GT(ran, 0);
  EXPECT_GT(rejected, 0);

  const std::string spec = test::read_text(test::source_path("configs/hardware/accel/datacenter_large.yaml"));
  int loaded = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const std::string text = mutate(spec, rng);
    try {
      const AcceleratorSpec s = read_accelerator_spec(load_config_text(text, "accel.yaml"));
      EXPECT_GT(s.peak_macs_per_s(), 0);
      ++loaded;
    } catch (const UserError& error) {
      EXPECT_TRUE(std::string(error.what()).starts_with("accel.yaml:")) << error.what();
    } catch (const std::exception& error) {
      ADD_FAILURE() << "internal error: " << error.what() << "\n--- spec ---\n" << text;
    }
  }
  EXPECT_GT(loaded, 0);
}

}  // namespace dse
