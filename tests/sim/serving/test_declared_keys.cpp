// The keys each arrival process, batching policy and governor declares (KeySpec, `dse list FAMILY`,
// the tables of docs/serving.md) are exactly the keys its code reads, and a declared default given
// explicitly behaves as leaving the key out. A key read but not declared, declared but not read, or
// a default that drifted fails here.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/config/config_loader.h"
#include "sim/serving/arrivals.h"
#include "sim/serving/batching.h"
#include "sim/serving/governor.h"
#include "sim/serving/serving_rng.h"
#include "tests/declared_keys.h"

namespace dse {
namespace {

namespace fs = std::filesystem;
using test::check_declared_keys;
using test::check_key_table;

// Their makers read `name`; every implementation takes keys.
test::KeyCheckOptions serving_options() {
  test::KeyCheckOptions options;
  options.caller_reads = {"name"};
  options.keys_required = true;
  return options;
}

GovernorContext governor_context() {
  GovernorContext context;
  context.max_batch = 256;
  context.clock_levels_mhz = {544, 632, 734, 835, 949, 1063, 1189, 1303, 1430, 1531};
  context.default_clock_level = 9;
  context.slo_ms = 50;
  context.best_setting = [](double cap_w, std::optional<double>) {
    return std::optional<ServingKnobs>(ServingKnobs{static_cast<int>(cap_w / 10), 3});
  };
  context.predicted_power_w = [](const ServingKnobs& k) { return 50.0 + k.batch + 10 * k.clock_level; };
  return context;
}

}  // namespace

TEST(DeclaredKeys, GovernorsReadExactlyTheKeysTheyDeclare) {
  check_declared_keys<Governor>(
      [](const std::string&, const ConfigNode& params) {
        auto governor = make_governor(params, governor_context());
        std::string seen =
            std::to_string(governor->period_s()) + " " + std::to_string(governor->power_cap_w().value_or(-1));
        ServingKnobs knobs = governor->initial();
        seen += " " + std::to_string(knobs.batch) + "/" + std::to_string(knobs.clock_level);
        double now = 0;
        for (const double share : {0.5, 1.2, 0.9, 0.7, 1.5, 0.3, 0.85}) {
          GovernorReading reading;
          now += 3.5;
          reading.now_s = now;
          reading.power_w = share * governor->power_cap_w().value_or(150);
          reading.current = knobs;
          reading.latency_p99_ms = 10 * share;
          knobs = governor->decide(reading);
          seen += " " + std::to_string(knobs.batch) + "/" + std::to_string(knobs.clock_level);
        }
        return seen;
      },
      serving_options());
}

TEST(DeclaredKeys, BatchingPoliciesReadExactlyTheKeysTheyDeclare) {
  check_declared_keys<BatchingPolicy>(
      [](const std::string&, const ConfigNode& params) {
        auto policy = make_batching(params, 25.0);
        std::string seen = std::to_string(policy->max_batch()) + " " + std::to_string(policy->batch());
        for (const std::size_t queued : {1, 3, 8, 16, 40, 100}) {
          const BatchDecision d = policy->decide({queued, 0.0, 0.001, false});
          seen += " " + std::to_string(d.take) + "@" + std::to_string(d.wake_at_s.value_or(-1));
          policy->on_batch_done(std::max(1, d.take), queued > 20 ? 40.0 : 10.0, 5.0);
        }
        return seen + " " + std::to_string(policy->batch());
      },
      serving_options());
}

TEST(DeclaredKeys, ArrivalProcessesReadExactlyTheKeysTheyDeclare) {
  const fs::path csv = fs::temp_directory_path() / ("dse_declared_keys_" + std::to_string(::getpid()) + ".csv");
  std::ofstream(csv) << "arrival_s\n0.5\n1.0\n1.25\n2\n";
  test::KeyCheckOptions options = serving_options();
  options.example_override = [&csv](const KeySpec& key) { return key.name == "file" ? csv.string() : std::string(); };
  check_declared_keys<ArrivalProcess>(
      [](const std::string&, const ConfigNode& params) {
        auto arrivals = make_arrivals(params, "config.yaml");
        ServingRng rng(3);
        std::string seen;
        for (const double t : arrivals->initial_s(rng)) seen += " " + std::to_string(t);
        double now = 0.1;
        for (int i = 0; i < 20; ++i) {
          const auto next = arrivals->after_arrival_s(now, rng);
          const auto after = arrivals->after_completion_s(now, rng);
          seen += " " + std::to_string(next.value_or(-1)) + "," + std::to_string(after.value_or(-1));
          now = next.value_or(now + 0.1);
        }
        return seen;
      },
      options);
  fs::remove(csv);
}

// docs/serving.md's key tables are `dse list arrivals|batching|governor --json` as
// scripts/update_key_tables.sh writes them, row for row.
TEST(DeclaredKeys, TheServingDocsTablesAreTheDeclarations) {
  check_key_table<ArrivalProcess>("docs/serving.md");
  check_key_table<BatchingPolicy>("docs/serving.md");
  check_key_table<Governor>("docs/serving.md");
}

}  // namespace dse
