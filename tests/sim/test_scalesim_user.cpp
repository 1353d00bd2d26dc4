// SCALE-Sim's bandwidth mode (InterfaceBandwidth: USER, sim/accel/scalesim_stalls.h) against
// SCALE-Sim v2's own runs (tests/data/scalesim_user: three arrays x ws/os/is x a conv and a GEMM
// topology x three bandwidths, and ample-bandwidth runs): every layer's total and stall cycles to the
// cycle; at a large bandwidth the stalls vanish and CALC's cycles return. The buffers by hand.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "models/base/csv_table.h"
#include "models/base/errors.h"
#include "models/import/scalesim_topology.h"
#include "sim/accel/scalesim_buffers.h"
#include "sim/accel/scalesim_stalls.h"

namespace dse {
namespace {

const std::string kRef = std::string(DSE_REFERENCE_DIR) + "/scalesim_user";

struct ReferenceRun {
  std::string name;
  ScaleSimConfig config;
  Graph graph;
  CsvTable report;
};

// Every run of runs.csv: its config, its topology as dse imports it, SCALE-Sim's COMPUTE_REPORT.
std::vector<ReferenceRun> reference_runs() {
  const CsvTable manifest = CsvTable::read(kRef + "/runs.csv");
  const auto run_column = manifest.column("run"), topology = manifest.column("topology"),
             form = manifest.column("form");
  std::vector<ReferenceRun> runs;
  for (const auto& row : manifest.rows()) {
    const std::string name = manifest.text(row, run_column), dir = kRef + "/runs/" + name;
    runs.push_back(
        {name, read_scalesim_config(dir + "/config.cfg"),
         import_scalesim_topology(kRef + "/inputs/" + manifest.text(row, topology),
                                  manifest.text(row, form) == "gemm" ? TopologyForm::gemm : TopologyForm::conv),
         CsvTable::read(dir + "/COMPUTE_REPORT.csv", true)});
  }
  return runs;
}

}  // namespace

TEST(ScaleSimUser, ReproducesEveryReferenceRunToTheCycle) {
  std::set<std::string> arrays, dataflows, topologies;
  std::size_t layers = 0, stalled = 0;
  for (const ReferenceRun& run : reference_runs()) {
    const auto& ops = run.graph.ops();
    ASSERT_EQ(run.report.rows().size(), ops.size()) << run.name;
    const auto total = run.report.column("Total Cycles"), stalls = run.report.column("Stall Cycles");
    for (std::size_t i = 0; i < ops.size(); ++i) {
      const auto& row = run.report.rows()[i];
      const ScaleSimCycles cycles = scalesim_layer_cycles(scalesim_layer(run.graph, ops[i]), run.config);
      EXPECT_EQ(cycles.total, run.report.integer(row, total)) << run.name << " layer " << i;
      EXPECT_EQ(cycles.stalls, run.report.integer(row, stalls)) << run.name << " layer " << i;
      ++layers;
      stalled += cycles.stalls > 0;
    }
    arrays.insert(std::to_string(run.config.array.rows) + "x" + std::to_string(run.config.array.cols));
    dataflows.insert(std::string(kDataflowNames.name(run.config.array.dataflow)));
    topologies.insert(ops[0].kind == OpKind::conv2d ? "conv" : "gemm");
  }
  EXPECT_GE(arrays.size(), 3u);
  EXPECT_EQ(dataflows.size(), 3u);
  EXPECT_EQ(topologies.size(), 2u);
  EXPECT_GT(stalled, layers / 2);  // most layers stall: the runs exercise the buffers
}

// Bandwidth 1024 words/cycle: SCALE-Sim reports no stalls on any layer of these runs, and its
// totals are then the CALC cycles (sim/accel/systolic_array.h), in dse as in SCALE-Sim.
TEST(ScaleSimUser, StallsVanishAtLargeBandwidthAndCalcCyclesReturn) {
  std::size_t checked = 0;
  for (const ReferenceRun& run : reference_runs()) {
    if (run.name.find("_bw1024") == std::string::npos) continue;
    ScaleSimConfig calc = run.config;
    calc.user_bandwidth = false;
    const auto total = run.report.column("Total Cycles"), stalls = run.report.column("Stall Cycles");
    for (std::size_t i = 0; i < run.graph.ops().size(); ++i) {
      const auto& row = run.report.rows()[i];
      const ScaleSimLayer layer = scalesim_layer(run.graph, run.graph.ops()[i]);
      const ScaleSimCycles user = scalesim_layer_cycles(layer, run.config);
      EXPECT_EQ(run.report.integer(row, stalls), 0) << run.name << " layer " << i;
      EXPECT_EQ(user.stalls, 0) << run.name << " layer " << i;
      EXPECT_EQ(user.total, run.report.integer(row, total)) << run.name << " layer " << i;
      EXPECT_EQ(user.total, scalesim_layer_cycles(layer, calc).total) << run.name << " layer " << i;
      EXPECT_EQ(user.total, run_gemm(run.graph.ops()[i].gemms.at(0), run.config.array).cycles);
      ++checked;
    }
  }
  EXPECT_GE(checked, 3u * 3 * 2 * 3);  // 3 arrays x 3 dataflows x 2 topologies, 3+ layers each
}

// A 200-word SRAM: 100-word active and prefetch halves; the prefetch order is cut into lines of
// ceil(200 / 100) = 2 elements. 300 addresses in order: 300 / 2 + 1 = 151 lines, a window of
// 100 / 2 = 50 of them moving 50 at a time; a prefetch takes ceil(100 / 4) + 1 = 26 cycles at
// 4 words/cycle, counted from the previous prefetch (the first active half lands at cycle -1).
TEST(ScaleSimUser, ReadBufferByHand) {
  const auto order = [](const std::function<void(std::int64_t)>& visit) {
    for (std::int64_t address = 0; address < 300; ++address) visit(address);
  };
  ScaleSimReadBuffer buffer(200, 4, 300, order);
  const std::int64_t first[] = {0, 1, 99};
  EXPECT_EQ(buffer.read(0, first), 0);  // lines 0..49: hits, served at the 1-cycle hit latency
  const std::int64_t next[] = {100};    // line 50: one prefetch, landing at -1 + 26 = 25
  EXPECT_EQ(buffer.read(10, next), 25 - 10 - 1);
  const std::int64_t later[] = {101};  // the same window: a hit
  EXPECT_EQ(buffer.read(40, later), 0);
  // Address 0 is behind the window (lines 50..99): it moves on 50 lines at a time, around the
  // operand's end, to 100..149, then 150, 0..48 (mod 151): two prefetches landing at
  // 25 + 2 x 26 = 77, though address 0 was fetched before. Read at cycle 50: 26 stalls.
  const std::int64_t back[] = {0};
  EXPECT_EQ(buffer.read(50, back), 77 - 50 - 1);
  // Prefetches are timed from the previous one, not from when the window moves: after a long idle
  // stretch one lands "in the past" and costs nothing (line 49 is one prefetch away: 49..98).
  const std::int64_t idle[] = {98};
  EXPECT_EQ(buffer.read(1000, idle), 0);
}

// An 8-word SRAM at 2 words/cycle: drains start once more than 8 - 4 = 4 words wait, and take
// ceil(4 / 2) = 2 rows, a row a cycle.
TEST(ScaleSimUser, WriteBufferByHand) {
  ScaleSimWriteBuffer buffer(8, 2);
  // 12 words at cycle 0: the 5th starts a drain of rows {2, 2} (the 5th word's row is closed short,
  // {1}, and stays), ending at cycle 1; the 12th finds no free word and waits for it: 1 stall.
  EXPECT_EQ(buffer.write(0, 12), 1);
  // At cycle 5 one more word (free -1) drains rows {1, 2}: 3 words leave, but SCALE-Sim counts the
  // short row as full and frees 4: it believes 3 words free where 2 are.
  EXPECT_EQ(buffer.write(5, 1), 0);
  // At cycle 6 a word drains rows {2, 2} (free 6 believed, 5 real) until cycle 7; 5 more words
  // in the same cycle fit the 6 believed free. Counted as it happens, the 5th would find none
  // free and wait a cycle.
  EXPECT_EQ(buffer.write(6, 1), 0);
  EXPECT_EQ(buffer.write(6, 5), 0);
}

TEST(ScaleSimUser, RefusesWhatScaleSimCannotRun) {
  const auto path = std::filesystem::temp_directory_path() / "dse_scalesim_user.cfg";
  const std::string head =
      "[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\nIfmapSramSzkB: 2\nFilterSramSzkB: 2\n"
      "Dataflow : ws\n";
  std::ofstream(path) << head << "OfmapSramSzkB: 1.5\nBandwidth : 4\n[run_presets]\nInterfaceBandwidth: USER\n";
  try {
    read_scalesim_config(path.string());
    FAIL() << "OfmapSramSzkB: 1.5 accepted in USER mode";
  } catch (const UserError& error) {
    EXPECT_EQ(std::string(error.what()), path.string() +
                                             ":7: [architecture_presets] OfmapSramSzkB: expected a whole number, at "
                                             "least 1, with InterfaceBandwidth: USER, found '1.5'");
  }
  std::ofstream(path) << head << "OfmapSramSzkB: 1\nBandwidth : 0.5\n[run_presets]\nInterfaceBandwidth: USER\n";
  EXPECT_THROW(read_scalesim_config(path.string()), UserError);
  // Bandwidth is a list of which SCALE-Sim uses the first value.
  std::ofstream(path) << head << "OfmapSramSzkB: 1\nBandwidth : 6, 3\n[run_presets]\nInterfaceBandwidth: USER\n";
  EXPECT_EQ(read_scalesim_config(path.string()).bandwidth_words_per_cycle, 6);
  std::filesystem::remove(path);
  // An operand of more than 2^30 prefetch slots: a clear error, not gigabytes of index.
  ScaleSimConfig config;
  config.array = {128, 128, Dataflow::weight_stationary};
  config.ifmap_sram_kib = config.filter_sram_kib = config.ofmap_sram_kib = 64;
  config.bandwidth_words_per_cycle = 10;
  config.user_bandwidth = true;
  const ScaleSimLayer huge{65536, 65536, 1, 65536, 1, 16, 1};  // GEMM M = K = 65536: 2^32 ifmap slots
  try {
    scalesim_layer_cycles(huge, config);
    FAIL() << "a 2^32-slot ifmap was accepted";
  } catch (const UserError& error) {
    EXPECT_NE(std::string(error.what()).find("ifmap prefetch matrix has 4294967296 slots"), std::string::npos)
        << error.what();
  }
}

}  // namespace dse
