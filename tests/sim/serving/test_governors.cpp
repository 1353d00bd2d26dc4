// Governors on scripted power sequences, against decisions worked out by hand from the BatchDVFS
// paper's code (github nabavinejad/BatchDVFS, f05286d), and their replay of the paper's recorded runs.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "sim/config/overrides.h"
#include "sim/serving/governor.h"
#include "sim/serving/governor_replay.h"

namespace dse {
namespace {

// The paper's P40 setting: batch 1..255 (BatchDVFS, Clipper) or 256, ten clock levels, 1063 MHz.
GovernorContext p40_context() {
  GovernorContext context;
  context.max_batch = 256;
  context.clock_levels_mhz = batch_dvfs_p40_clock_levels_mhz();
  context.default_clock_level = 5;
  return context;
}

std::unique_ptr<Governor> governor(const std::vector<std::string>& assignments,
                                   const GovernorContext& context = p40_context()) {
  ConfigNode block = ConfigNode::map({"test", 1, 1});
  apply_overrides(block, assignments);
  auto g = make_governor(block, context);
  block.check_unknown_keys();
  return g;
}

// Feeds power readings (W) one per period; returns the knobs after each.
std::vector<ServingKnobs> feed(Governor& g, const std::vector<double>& powers_w) {
  std::vector<ServingKnobs> out;
  ServingKnobs knobs = g.initial();
  double now = 0;
  for (const double p : powers_w) {
    now += g.period_s() + 0.1;
    knobs = g.decide({now, p, std::nullopt, 1.0, knobs});
    out.push_back(knobs);
  }
  return out;
}

std::vector<int> batches(const std::vector<ServingKnobs>& knobs) {
  std::vector<int> out;
  for (const auto& k : knobs) out.push_back(k.batch);
  return out;
}
std::vector<int> clocks(const std::vector<ServingKnobs>& knobs) {
  std::vector<int> out;
  for (const auto& k : knobs) out.push_back(k.clock_level);
  return out;
}

}  // namespace

TEST(Governors, BatchDvfsBinarySearchWorkedByHand) {
  // Cap 100 W, band 80..100 W. Indices: best 0 -> below: min 0, max 254 == ... best != max, so
  // min = 0, best = ceil(254/2) = 127 (batch 128); above: max = 127, best = floor(127/2) = 63;
  // dead band: unchanged; below: min = 63, best = ceil((63+127)/2) = 95; above: max = 95,
  // best = floor((63+95)/2) = 79; above: max = 79, best = 71.
  auto g = governor({"name=batch_dvfs", "power_cap_w=100"});
  EXPECT_EQ(g->initial(), (ServingKnobs{1, 5}));
  const auto knobs = feed(*g, {50, 120, 90, 70, 101, 100.5});
  EXPECT_EQ(batches(knobs), (std::vector<int>{128, 64, 64, 96, 80, 72}));
  EXPECT_EQ(clocks(knobs), (std::vector<int>{5, 5, 5, 5, 5, 5}));
  const auto state = g->search_state();
  EXPECT_EQ(state[0], (std::pair<std::string, int>{"minBS", 63}));
  EXPECT_EQ(state[1], (std::pair<std::string, int>{"maxBS", 79}));
}

TEST(Governors, BatchDvfsStepsTheClockOnlyAtTheBatchLimits) {
  // Always far below the cap: best climbs 127, 191, 223, 239, 247, 251, 253, 254 (ceil), then the
  // clock goes up one level per period until the highest (9), and stays.
  auto g = governor({"name=batch_dvfs", "power_cap_w=250"});
  const auto up = feed(*g, std::vector<double>(14, 10.0));
  EXPECT_EQ(batches(up), (std::vector<int>{128, 192, 224, 240, 248, 252, 254, 255, 255, 255, 255, 255, 255, 255}));
  EXPECT_EQ(clocks(up), (std::vector<int>{5, 5, 5, 5, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9}));
  // Now always above: best == min (254 after min = max = 254)? min is 253, best 254 != min, so
  // max = 254, best = floor((253+254)/2) = 253; then best == min (253): max = 253, min = 0,
  // best = 126; then max = 126, best 63; ... down to 0, then the clock steps down.
  const auto down = feed(*g, std::vector<double>(14, 400.0));
  EXPECT_EQ(batches(down), (std::vector<int>{254, 127, 64, 32, 16, 8, 4, 2, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(clocks(down), (std::vector<int>{9, 9, 9, 9, 9, 9, 9, 9, 9, 8, 7, 6, 5, 4}));
}

TEST(Governors, ClipperPowerIsAdditiveUpMultiplicativeDown) {
  auto g = governor({"name=clipper_power", "power_cap_w=100"});
  // index 0 -> 4 -> 8 -> 12 -> (above) floor(10.8) = 10 -> floor(9) = 9 -> (band) 9 -> 13.
  const auto knobs = feed(*g, {10, 10, 10, 150, 150, 85, 10});
  EXPECT_EQ(batches(knobs), (std::vector<int>{5, 9, 13, 11, 10, 10, 14}));
  // It never moves the clock, and stops at max_batch.
  auto capped = governor({"name=clipper_power", "power_cap_w=100", "max_batch=10"});
  EXPECT_EQ(batches(feed(*capped, {10, 10, 10, 10})), (std::vector<int>{5, 9, 10, 10}));
  EXPECT_EQ(clocks(feed(*capped, {150})), (std::vector<int>{5}));
}

TEST(Governors, DvfsOnlyStepsTheClockWithinTheTable) {
  auto g = governor({"name=dvfs_only", "power_cap_w=100"});
  EXPECT_EQ(g->initial(), (ServingKnobs{256, 5}));
  const auto knobs = feed(*g, {10, 10, 10, 10, 10, 90, 200, 200});
  EXPECT_EQ(clocks(knobs), (std::vector<int>{6, 7, 8, 9, 9, 9, 8, 7}));
  EXPECT_EQ(batches(knobs), (std::vector<int>(8, 256)));
  auto low = governor({"name=dvfs_only", "power_cap_w=100", "initial_clock_mhz=632", "batch=1"});
  EXPECT_EQ(clocks(feed(*low, {200, 200})), (std::vector<int>{0, 0}));
}

TEST(Governors, StaticNeverMovesAndModelBasedMovesToTheModelsBest) {
  auto s = governor({"name=static", "batch=32", "clock_mhz=1303"});
  EXPECT_EQ(s->initial(), (ServingKnobs{32, 7}));
  EXPECT_EQ(s->period_s(), 0);
  // The model's best under a cap: the batch is cap / 2 W and the clock level is cap / 100 W; its
  // predicted power is 2 W per batch item. A reading 25 % over that makes it ask for 80 % of the cap.
  GovernorContext context = p40_context();
  context.best_setting = [](double cap, std::optional<double>) {
    return std::optional<ServingKnobs>(ServingKnobs{static_cast<int>(cap / 2), static_cast<int>(cap / 100)});
  };
  context.predicted_power_w = [](const ServingKnobs& k) { return 2.0 * k.batch; };
  auto m = governor({"name=model_based", "power_cap_w=200"}, context);
  EXPECT_EQ(m->initial(), (ServingKnobs{100, 2}));
  const auto knobs = feed(*m, {250, 180});
  EXPECT_EQ(knobs[0], (ServingKnobs{80, 1}));  // 200 W / (250 / 200): asks for 160 W
  EXPECT_EQ(knobs[1], (ServingKnobs{80, 1}));  // 180 W is inside the band: stays
  // The correction is measured / predicted at the current setting, not compounded over periods:
  // 250 W read where 160 W was predicted asks for 200 / (250 / 160) = 128 W.
  EXPECT_EQ(feed(*m, {250})[0], (ServingKnobs{64, 1}));
  // A low reading from a GPU idle half the period says nothing about its power when busy.
  auto low = governor({"name=model_based", "power_cap_w=200"}, context);
  EXPECT_EQ(low->decide({1, 100, std::nullopt, 0.5, low->initial()}), (ServingKnobs{100, 2}));
  // Busy throughout, it says the model over-predicts by 2x: ask for 400 W.
  EXPECT_EQ(low->decide({2, 100, std::nullopt, 1.0, low->initial()}), (ServingKnobs{200, 4}));
  // Without the model (a replay) it says why.
  try {
    governor({"name=model_based", "power_cap_w=200"});
    FAIL() << "expected an error";
  } catch (const UserError& error) {
    EXPECT_NE(std::string(error.what()).find("needs the serving simulation's model"), std::string::npos);
  }
}

TEST(Governors, BadGovernorKeysNameTheKey) {
  try {
    governor({"name=batch_dvfs"});
    FAIL() << "expected an error";
  } catch (const UserError& error) {
    EXPECT_NE(std::string(error.what()).find("power_cap_w"), std::string::npos) << error.what();
  }
  try {
    governor({"name=dvfs_only", "power_cap_w=100", "initial_clock_mhz=1000"});
    FAIL() << "expected an error";
  } catch (const UserError& error) {
    EXPECT_NE(std::string(error.what()).find("expected one of the clock levels (544, 632"), std::string::npos)
        << error.what();
  }
  try {
    governor({"name=clipper_power", "power_cap_w=100", "stepp=3"});
    FAIL() << "expected an error";
  } catch (const UserError& error) {
    EXPECT_NE(std::string(error.what()).find("stepp"), std::string::npos) << error.what();
  }
}

// Every recorded run of the paper's three controllers: dse's governor reproduces every decision.
TEST(GovernorReplay, ReproducesEveryRecordedDecisionOfThePapersRuns) {
  const std::filesystem::path root = std::filesystem::path(DSE_SOURCE_DIR) / "tests/data/batchdvfs";
  int files = 0, transitions = 0;
  for (const auto& [folder, name] : {std::pair{"batchdvfs", "batch_dvfs"}, std::pair{"clipper", "clipper_power"},
                                     std::pair{"dvfs256", "dvfs_only"}}) {
    for (const auto& entry : std::filesystem::directory_iterator(root / folder)) {
      if (entry.path().extension() != ".csv") continue;
      ReplayOptions options;
      options.governor = name;
      const ReplayReport report = replay_governor(entry.path().string(), options);
      EXPECT_TRUE(report.mismatches.empty()) << entry.path() << ": first at line " << report.mismatches[0].line;
      EXPECT_EQ(report.matched, report.transitions) << entry.path();
      EXPECT_GT(report.decisions, 10) << entry.path();
      transitions += report.transitions;
      ++files;
    }
  }
  EXPECT_EQ(files, 45);
  EXPECT_GT(transitions, 1000);
}

// The replay can fail: another dead band, or another controller, does not explain the runs.
TEST(GovernorReplay, AWrongGovernorIsCaught) {
  const std::string file =
      std::string(DSE_SOURCE_DIR) + "/tests/data/batchdvfs/batchdvfs/05_MobilenetV1_1_BatchDVFS.csv";
  ReplayOptions options;
  options.governor = "batch_dvfs";
  options.assignments = {"band_low=0.7"};
  const ReplayReport narrow = replay_governor(file, options);
  EXPECT_FALSE(narrow.mismatches.empty());
  options.assignments = {};
  options.governor = "clipper_power";
  EXPECT_GT(replay_governor(file, options).mismatches.size(), 3u);
  const std::string clipper =
      std::string(DSE_SOURCE_DIR) + "/tests/data/batchdvfs/clipper/05_MobilenetV1_1_Clipper.csv";
  options.governor = "batch_dvfs";
  EXPECT_FALSE(replay_governor(clipper, options).mismatches.empty());
}

// A long control period holds a reading for every row since the start (each could be the one the
// governor acted at): a 10,000-row log inside one period took 98 s when every row visited and
// compared all of them (issue 54); a row now visits only the readings whose period is up.
TEST(GovernorReplay, ManyRowsInsideOnePeriodReplayQuickly) {
  const auto path = std::filesystem::temp_directory_path() / ("dse_long_period_" + std::to_string(::getpid()) + ".csv");
  {
    std::ofstream out(path);
    out << "time stamp,power cap,power,DVFS\n";
    // 0.1 s apart, inside the dead band (0.8-1.0 x cap): acting changes nothing, so every row is ambiguous.
    for (int i = 0; i < 10000; ++i) out << 1000 + 0.1 * i << ",100,90,1063\n";
  }
  ReplayOptions options;
  options.governor = "dvfs_only";
  options.assignments = {"period_s=3600"};
  const auto start = std::chrono::steady_clock::now();
  const ReplayReport report = replay_governor(path.string(), options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::filesystem::remove(path);
  EXPECT_LT(seconds, 10);  // 0.01 s in a release build
  EXPECT_EQ(report.rows, 10000);
  EXPECT_EQ(report.ambiguous, 9999);
  EXPECT_TRUE(report.mismatches.empty());
}

// Batch indices beyond 32 bits were cut to an int unchecked; clock levels may not be negative or repeated.
TEST(GovernorReplay, RefusesBatchIndicesAndClockLevelsOutOfRange) {
  const auto path = std::filesystem::temp_directory_path() / ("dse_bad_replay_" + std::to_string(::getpid()) + ".csv");
  const auto error = [&](const std::string& rows, const std::vector<double>& levels = {}) -> std::string {
    std::ofstream(path) << "time stamp,power,minBS,maxBS,BestBS,power cap,DVFS\n" << rows;
    ReplayOptions options;
    options.governor = "batch_dvfs";
    options.clock_levels_mhz = levels;
    try {
      replay_governor(path.string(), options);
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  const std::string good = "1.0,100,0,254,0,131,1063\n4.0,120,0,254,0,131,1063\n";
  EXPECT_EQ(error(good), "");
  EXPECT_EQ(error("1.0,100,4294967296,254,0,131,1063\n4.0,120,0,254,0,131,1063\n"),
            path.string() + ":2:9: minBS: expected a batch index in [0, 100000], found 4294967296");
  EXPECT_EQ(error("1.0,100,0,254,0,131,1063\n4.0,120,0,-1,0,131,1063\n"),
            path.string() + ":3:11: maxBS: expected a batch index in [0, 100000], found -1");
  EXPECT_EQ(error(good, {-544, 1063}), "--clock-levels: expected clock levels in MHz > 0, found -544");
  EXPECT_EQ(error(good, {544, 1063, 1063}),
            "--clock-levels: expected clock levels in ascending order, each once, found 1063 after 1063");
  std::filesystem::remove(path);
}

}  // namespace dse
