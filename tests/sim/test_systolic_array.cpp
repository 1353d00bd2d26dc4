// dse's systolic-array cycles against SCALE-Sim v2's own outputs (tests/data/scalesim):
// every layer of its three reference runs, and every row of LLMCompass's SCALE-Sim tables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/base/csv_table.h"
#include "models/base/errors.h"
#include "models/import/scalesim_topology.h"
#include "sim/accel/scalesim_config.h"
#include "sim/accel/systolic_array.h"

namespace dse {
namespace {

const std::string kRef = std::string(DSE_REFERENCE_DIR) + "/scalesim";

void expect_run_matches(const std::string& config, const std::string& topology, const std::string& report) {
  const ScaleSimConfig cfg = read_scalesim_config(kRef + "/inputs/" + config);
  const Graph graph = import_scalesim_topology(kRef + "/inputs/" + topology);
  const CsvTable expected = CsvTable::read(kRef + "/outputs/" + report + "/COMPUTE_REPORT.csv", true);
  ASSERT_EQ(expected.rows().size(), graph.ops().size());
  const auto cycles = expected.column("Total Cycles"), util = expected.column("Overall Util %"),
             mapping = expected.column("Mapping Efficiency %");
  for (std::size_t i = 0; i < graph.ops().size(); ++i) {
    const auto& row = expected.rows()[i];
    const SystolicRun run = run_gemm(graph.ops()[i].gemms.at(0), cfg.array);
    EXPECT_EQ(run.cycles, expected.integer(row, cycles)) << report << " layer " << i;
    EXPECT_NEAR(100 * run.utilization, expected.number(row, util), 1e-9) << report << " layer " << i;
    EXPECT_NEAR(100 * run.mapping_efficiency, expected.number(row, mapping), 1e-9) << report << " layer " << i;
  }
}

}  // namespace

TEST(SystolicArray, MatchesScaleSimRunsExactly) {
  expect_run_matches("google.cfg", "alexnet.csv", "alexnet_google_ws256");
  expect_run_matches("scale.cfg", "Resnet18.csv", "resnet18_scale_os32");
  expect_run_matches("google.cfg", "gpt2.csv", "gpt2gemm_google_ws256");
}

TEST(SystolicArray, MatchesEveryRowOfTheScaleSimTables) {
  for (const char* table :
       {"systolic_array_model_look_up_table_16_16.csv", "systolic_array_model_look_up_table_32_32.csv"}) {
    std::ifstream in(kRef + "/" + table);
    std::string line;
    std::size_t rows = 0, mismatches = 0;
    while (std::getline(in, line)) {
      std::stringstream fields(line);
      std::string m, n, k, h, w, df, cycles, util;
      std::getline(fields, m, ',');
      std::getline(fields, n, ',');
      std::getline(fields, k, ',');
      std::getline(fields, h, ',');
      std::getline(fields, w, ',');
      std::getline(fields, df, ',');
      std::getline(fields, cycles, ',');
      std::getline(fields, util, ',');
      ASSERT_EQ(df, "os") << line;
      const SystolicRun run = run_gemm({1, std::stoll(m), std::stoll(n), std::stoll(k)},
                                       {std::stoll(h), std::stoll(w), Dataflow::output_stationary});
      ++rows;
      if (run.cycles != std::stoll(cycles) || std::abs(100 * run.utilization - std::stod(util)) > 0.001) {
        if (++mismatches < 5) ADD_FAILURE() << table << ": " << line << " -> " << run.cycles;
      }
    }
    EXPECT_GT(rows, 18000u) << table;
    EXPECT_EQ(mismatches, 0u) << table;
  }
}

TEST(SystolicArray, HandComputedFolds) {
  // 512 x 512 x 512 on a 128 x 128 weight-stationary array: ceil(512/128)^2 = 16 folds of
  // 512 + 2 x 128 + 128 - 2 = 894 cycles, minus 1.
  const SystolicRun ws = run_gemm({1, 512, 512, 512}, {128, 128, Dataflow::weight_stationary});
  EXPECT_EQ(ws.folds, 16);
  EXPECT_EQ(ws.cycles, 16 * 894 - 1);
  EXPECT_DOUBLE_EQ(ws.mapping_efficiency, 1.0);
  // Input stationary mirrors it with the roles of Sr and Sc swapped.
  EXPECT_EQ(run_gemm({1, 512, 256, 512}, {128, 128, Dataflow::input_stationary}).cycles,
            run_gemm({1, 256, 512, 512}, {128, 128, Dataflow::weight_stationary}).cycles);
  // A batch of two runs twice the folds.
  EXPECT_EQ(run_gemm({2, 512, 512, 512}, {128, 128, Dataflow::weight_stationary}).cycles, 32 * 894 - 1);
}

TEST(ScaleSimConfig, ReadsTheReferenceConfigsAndRejectsBadOnes) {
  const ScaleSimConfig google = read_scalesim_config(kRef + "/inputs/google.cfg");
  EXPECT_EQ(google.array.rows, 256);
  EXPECT_EQ(google.array.dataflow, Dataflow::weight_stationary);
  EXPECT_FALSE(google.user_bandwidth);
  const auto path = std::filesystem::temp_directory_path() / "dse_bad_scalesim.cfg";
  std::ofstream(path)
      << "[architecture_presets]\nArrayHeight: 32\nArrayWidth: 32\nIfmapSramSzkB: 64\nFilterSramSzkB: 64\n"
         "OfmapSramSzkB: 64\nDataflow : wss\n";
  try {
    read_scalesim_config(path.string());
    FAIL();
  } catch (const UserError& error) {
    EXPECT_EQ(
        std::string(error.what()),
        path.string() + ":7: [architecture_presets] Dataflow: expected os, ws or is, found 'wss'; did you mean 'ws'?");
  }
  // NaN passed the range check (cycles -1, and Bandwidth: nan gave INT64_MIN words per cycle).
  std::ofstream(path) << "[architecture_presets]\nArrayHeight: 32\nArrayWidth: nan\nIfmapSramSzkB: 64\n"
                         "FilterSramSzkB: 64\nOfmapSramSzkB: 64\nDataflow : ws\n";
  try {
    read_scalesim_config(path.string());
    FAIL() << "ArrayWidth: nan was accepted";
  } catch (const UserError& error) {
    EXPECT_NE(std::string(error.what())
                  .find(":3: [architecture_presets] ArrayWidth: expected a number in [1, 65536], found 'nan'"),
              std::string::npos)
        << error.what();
  }
  std::filesystem::remove(path);
}

}  // namespace dse
