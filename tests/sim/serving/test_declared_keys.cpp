// The keys each arrival process, batching policy and governor declares (KeySpec, `dse list FAMILY`,
// the tables of docs/serving.md) are exactly the keys its code reads, and a declared default given
// explicitly behaves as leaving the key out. A key read but not declared, declared but not read, or
// a default that drifted fails here.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>

#include "sim/config/config_loader.h"
#include "sim/serving/arrivals.h"
#include "sim/serving/batching.h"
#include "sim/serving/governor.h"
#include "sim/serving/serving_rng.h"

namespace dse {
namespace {

namespace fs = std::filesystem;

// A default that is a value (not "required", "none" or words such as "the highest level").
bool literal_default(const KeySpec& key) {
  return key.default_text != "required" && key.default_text != "none" &&
         key.default_text.find(' ') == std::string::npos;
}

// A block {name: NAME, KEY: VALUE...}: every required key at its example, plus `extra` keys.
ConfigNode block(const std::string& name, const std::vector<KeySpec>& keys,
                 const std::function<bool(const KeySpec&)>& include, const std::string& extra = "") {
  std::string yaml = "{name: " + name;
  for (const KeySpec& key : keys)
    if (key.default_text == "required" || include(key)) yaml += ", " + key.name + ": " + key.example;
  yaml += extra + "}";
  return load_config_text(yaml, "block.yaml");
}

std::set<std::string> names_of(const std::vector<KeySpec>& keys) {
  std::set<std::string> names = {"name"};
  for (const KeySpec& key : keys) names.insert(key.name);
  return names;
}

// Every entry of a family: it declares keys; a block with all of them at their examples builds and
// its code asked for exactly those; each literal default set explicitly gives what `same` sees.
template <class Family>
void check_family(const std::function<std::string(const std::string&, const ConfigNode&)>& behaviour,
                  const std::function<std::string(const KeySpec&)>& example_override = {}) {
  for (const auto& info : Registry<Family>::instance().infos()) {
    SCOPED_TRACE(std::string(Family::family_name) + " " + info.name);
    ASSERT_FALSE(info.keys.empty()) << "register it with DSE_REGISTER_KEYED and its declared_keys()";
    std::vector<KeySpec> keys = info.keys;
    if (example_override)
      for (KeySpec& key : keys)
        if (const std::string value = example_override(key); !value.empty()) key.example = value;
    const ConfigNode all = block(info.name, keys, [](const KeySpec&) { return true; });
    ASSERT_NO_THROW(behaviour(info.name, all));
    const std::vector<std::string> asked = all.asked_keys();
    EXPECT_EQ(std::set<std::string>(asked.begin(), asked.end()), names_of(keys));
    const auto none = [](const KeySpec&) { return false; };
    const std::string left_out = behaviour(info.name, block(info.name, keys, none));
    for (const KeySpec& key : keys) {
      if (!literal_default(key)) continue;
      const std::string given =
          behaviour(info.name, block(info.name, keys, none, ", " + key.name + ": " + key.default_text));
      EXPECT_EQ(given, left_out) << key.name << ": " << key.default_text;
    }
  }
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
  check_family<Governor>([](const std::string&, const ConfigNode& params) {
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
  });
}

TEST(DeclaredKeys, BatchingPoliciesReadExactlyTheKeysTheyDeclare) {
  check_family<BatchingPolicy>([](const std::string&, const ConfigNode& params) {
    auto policy = make_batching(params, 25.0);
    std::string seen = std::to_string(policy->max_batch()) + " " + std::to_string(policy->batch());
    for (const std::size_t queued : {1, 3, 8, 16, 40, 100}) {
      const BatchDecision d = policy->decide({queued, 0.0, 0.001, false});
      seen += " " + std::to_string(d.take) + "@" + std::to_string(d.wake_at_s.value_or(-1));
      policy->on_batch_done(std::max(1, d.take), queued > 20 ? 40.0 : 10.0, 5.0);
    }
    return seen + " " + std::to_string(policy->batch());
  });
}

TEST(DeclaredKeys, ArrivalProcessesReadExactlyTheKeysTheyDeclare) {
  const fs::path csv = fs::temp_directory_path() / ("dse_declared_keys_" + std::to_string(::getpid()) + ".csv");
  std::ofstream(csv) << "arrival_s\n0.5\n1.0\n1.25\n2\n";
  check_family<ArrivalProcess>(
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
      [&csv](const KeySpec& key) { return key.name == "file" ? csv.string() : std::string(); });
  fs::remove(csv);
}

// docs/serving.md's key tables are `dse list arrivals|batching|governor --json` as
// scripts/update_serving_doc.sh writes them.
TEST(DeclaredKeys, TheServingDocsTablesAreTheDeclarations) {
  std::ifstream in("docs/serving.md");
  ASSERT_TRUE(in) << "run from the repository root";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto check = [&doc](const std::string& family, const std::vector<RegistryEntryInfo>& infos) {
    for (const auto& info : infos)
      for (const KeySpec& key : info.keys) {
        const std::string row = "| `" + info.name + "` | `" + key.name + "` | " + key.type + " | " +
                                (key.default_text == "none" ? "optional" : key.default_text) + " | " + key.unit +
                                " | " + key.help + " |";
        EXPECT_NE(doc.find(row), std::string::npos) << family << ": " << row << "\nrun scripts/update_serving_doc.sh";
      }
  };
  check("arrivals", Registry<ArrivalProcess>::instance().infos());
  check("batching", Registry<BatchingPolicy>::instance().infos());
  check("governor", Registry<Governor>::instance().infos());
}

}  // namespace dse
