// End-to-end tests of `dse validate kernels|e2e|gemm|batchdvfs`: what each prints beside the
// measurements, and the file, line or cell it names for input it cannot use.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "models/base/csv_table.h"
#include "sim/gpu/kernel_timer.h"
#include "tests/cli/cli_runner.h"

namespace dse::test {
namespace fs = std::filesystem;

TEST(Cli, ValidateKernelsReportsErrorsPerDeviceAndOp) {
  const std::string ref = std::string(DSE_REFERENCE_DIR) + "/neusight/test_ln.csv";
  const fs::path predictions = fs::temp_directory_path() / ("dse_predictions_" + std::to_string(::getpid()) + ".csv");
  const CliResult result = run_dse("validate kernels " + ref + " --json -q --predictions " + predictions.string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  const auto& t4 = json["devices"]["t4"]["ln"];
  EXPECT_EQ(t4["rows"], 75);
  // The MAPE equals the mean of the per-row errors written to --predictions.
  const CsvTable table = CsvTable::read(predictions.string());
  double sum = 0;
  int rows = 0;
  for (const auto& row : table.rows()) {
    if (table.text(row, table.column("device")) != "t4") continue;
    sum += std::abs(table.number(row, table.column("error_pct")));
    // dse's launch beside the measured one: one block per row for layer norm, as PyTorch launches.
    EXPECT_EQ(table.integer(row, table.column("predicted_blocks")),
              table.integer(row, table.column("measured_blocks")));
    // At the boost clock with no limit a loop draws at least what it draws where the limit holds it,
    // and the board idles at the T4's measured 26.8 W (configs/hardware/gpu/t4.yaml).
    EXPECT_GE(table.number(row, table.column("power_at_boost_w")), table.number(row, table.column("power_w")) - 0.1);
    EXPECT_DOUBLE_EQ(table.number(row, table.column("idle_w")), 26.8);
    ++rows;
  }
  EXPECT_NEAR(t4["mape_pct"].get<double>(), sum / rows, 0.01);
  fs::remove(predictions);
  // The floor covers a subset of the rows, and dse is reported on that same subset.
  const auto& floor = json["batch_scaling_floor"];
  const auto floor_rows = floor["floor"]["t4"]["ln"]["rows"].get<int>();
  EXPECT_GT(floor_rows, 0);
  EXPECT_LE(floor_rows, 75);
  EXPECT_EQ(floor["model"]["t4"]["ln"]["rows"].get<int>(), floor_rows);
  // The fixed-plus-per-item floor takes short rows too (every T4 layer-norm shape ran at 3+ batch sizes).
  const auto& affine = json["affine_floor"];
  EXPECT_GT(affine["floor"]["t4"]["ln"]["rows"].get<int>(), floor_rows);
  EXPECT_EQ(affine["model"]["t4"]["ln"]["rows"], affine["floor"]["t4"]["ln"]["rows"]);
  EXPECT_LE(affine["floor"]["t4"]["ln"]["mape_pct"].get<double>(),
            affine["model"]["t4"]["ln"]["mape_pct"].get<double>());
  // The clocks behind the predictions: the T4's SGEMM is held between its 585 MHz base and 1,590 MHz
  // boost by its 70 W limit, its FP16 tensor-core GEMMs (near the heaviest load) near the base
  // clock; the P100 has no tensor cores.
  const auto& clocks = json["clocks_mhz"];
  EXPECT_GT(clocks["t4"]["sgemm"].get<double>(), 585);
  EXPECT_LT(clocks["t4"]["sgemm"].get<double>(), 1590);
  EXPECT_NEAR(clocks["t4"]["fp16_tensor"].get<double>(), 585, 60);
  EXPECT_TRUE(clocks["p100_pcie"]["fp16_tensor"].is_null());
  EXPECT_LE(floor["floor"]["t4"]["ln"]["mape_pct"].get<double>(), floor["model"]["t4"]["ln"]["mape_pct"].get<double>());
  EXPECT_EQ(run_dse("validate kernels no_such.csv").exit_code, 2);
}

TEST(Cli, ValidateKernelsNamesTheFileAndLineOfAnUnsupportedOp) {
  const fs::path csv = fs::temp_directory_path() / ("dse_bad_op_" + std::to_string(::getpid()) + ".csv");
  std::ofstream(csv) << "OPName,Latency,Device,Kernel Name,Grid x,Grid y,Grid z,Block x,Block y,Block z,B,H\n"
                        "conv,0.8,Tesla T4,k,1,1,1,32,1,1,64,1024\n";
  const CliResult result = run_dse("validate kernels " + csv.string());
  fs::remove(csv);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(
      result.err.find(csv.string() +
                      ":2: OPName: expected linear, bmm, conv2d, ln, softmax, reduce, launch or an elementwise op"),
      std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("found 'conv'"), std::string::npos) << result.err;
}

TEST(Cli, ValidateKernelsRefusesRowsItCannotUse) {
  const fs::path csv = fs::temp_directory_path() / ("dse_devices_" + std::to_string(::getpid()) + ".csv");
  const std::string header = "OPName,Latency,Device,Kernel Name,Grid x,Grid y,Grid z,Block x,Block y,Block z,B,H\n";
  // No spec lists the device: nothing to validate or fit.
  std::ofstream(csv) << header << "ln,0.8,Tesla K80,k,64,1,1,32,4,1,64,1024\n";
  const CliResult unknown = run_dse("validate kernels " + csv.string() + " --fit");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no row's Device is listed in a GPU spec's device_names (found 'Tesla K80')"),
            std::string::npos)
      << unknown.err;
  // Leaving one GPU out needs another to fit on.
  std::ofstream(csv) << header << "ln,0.8,Tesla T4,k,64,1,1,32,4,1,64,1024\n";
  const CliResult one = run_dse("validate kernels " + csv.string() + " --leave-one-out");
  fs::remove(csv);
  EXPECT_EQ(one.exit_code, 2);
  EXPECT_NE(one.err.find("--leave-one-out: the rows cover one GPU (t4); it needs measurements of two or more"),
            std::string::npos)
      << one.err;
}

TEST(Cli, ValidateKernelsPredictsWithASavedCalibration) {
  const std::string ref = std::string(DSE_REFERENCE_DIR) + "/neusight/test_ln.csv";
  const fs::path saved = fs::temp_directory_path() / ("dse_saved_cal_" + std::to_string(::getpid()) + ".yaml");
  // The defaults saved and read back predict what the defaults do.
  const CliResult defaults = run_dse("validate kernels " + ref + " --json -q --save-calibration " + saved.string());
  ASSERT_EQ(defaults.exit_code, 0) << defaults.err;
  const CliResult again = run_dse("validate kernels " + ref + " --json -q --calibration " + saved.string());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const auto before = nlohmann::json::parse(defaults.out), after = nlohmann::json::parse(again.out);
  EXPECT_EQ(after["devices"], before["devices"]);
  EXPECT_EQ(after["calibration_file"], saved.string());
  // A file's parameters replace the defaults: a 1 ms harness floor makes every short row slow.
  std::ofstream(saved) << "calibration: kernel_timer\nparameters: {timing_floor_us: 1000}\n";
  const CliResult slow = run_dse("validate kernels " + ref + " --json -q --calibration " + saved.string());
  ASSERT_EQ(slow.exit_code, 0) << slow.err;
  const auto json = nlohmann::json::parse(slow.out);
  EXPECT_DOUBLE_EQ(json["calibration"]["timing_floor_us"].get<double>(), 1000);
  EXPECT_GT(json["devices"]["t4"]["ln"]["mape_pct"].get<double>(),
            before["devices"]["t4"]["ln"]["mape_pct"].get<double>() + 20);
  // A fit to one GPU describes that GPU: predicting others with it is said.
  std::ofstream(saved) << "calibration: kernel_timer\nfitted_on: [t4]\nparameters: {timing_floor_us: 20}\n";
  const CliResult t4_only = run_dse("validate kernels " + ref + " -q --calibration " + saved.string());
  EXPECT_EQ(t4_only.exit_code, 0) << t4_only.err;
  EXPECT_NE(
      t4_only.err.find(
          "was fitted on t4 only; the rows of a100_pcie_40gb, l4, p100_pcie, p4, v100_pcie are predicted with it too"),
      std::string::npos)
      << t4_only.err;
  // Saved again, it keeps the GPUs it was fitted on, not the rows' it was checked on.
  const fs::path resaved = saved.string() + ".again.yaml";
  ASSERT_EQ(run_dse("validate kernels " + ref + " -q --calibration " + saved.string() + " --save-calibration " +
                    resaved.string())
                .exit_code,
            0);
  std::ifstream resaved_file(resaved);
  const std::string resaved_text((std::istreambuf_iterator<char>(resaved_file)), std::istreambuf_iterator<char>());
  fs::remove(resaved);
  EXPECT_NE(resaved_text.find("fitted_on: [t4]"), std::string::npos) << resaved_text;
  // A fit starts from the defaults: a saved calibration beside it is refused, as is a bad file.
  EXPECT_EQ(run_dse("validate kernels " + ref + " --fit --calibration " + saved.string()).exit_code, 2);
  std::ofstream(saved) << "calibration: kernel_timer\nparameters: {timing_floor_us: -3}\n";
  const CliResult bad = run_dse("validate kernels " + ref + " --calibration " + saved.string());
  fs::remove(saved);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(saved.string() + ":2:"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("timing_floor_us: expected a number in [0, 100000], found -3"), std::string::npos) << bad.err;
}

TEST(Cli, ValidateE2eNamesTheCellOfABadConfigOrLatency) {
  const fs::path csv = fs::temp_directory_path() / ("dse_bad_e2e_" + std::to_string(::getpid()) + ".csv");
  const std::string header = "device,config,num_layer,e2e_latency_ms\n";
  std::ofstream(csv) << header << "NVIDIA_L4,bert_base-inf-x-8,12,10.0\n";
  const CliResult bad_seq = run_dse("validate e2e " + csv.string() + " -q");
  std::ofstream(csv) << header << "NVIDIA_L4,bert_base-inf-128-8,12,0\n";
  const CliResult bad_latency = run_dse("validate e2e " + csv.string() + " -q");
  fs::remove(csv);
  EXPECT_EQ(bad_seq.exit_code, 2);
  EXPECT_NE(bad_seq.err.find(csv.string() + ":2:11: config: expected MODEL-inf-SEQ-BATCH"), std::string::npos)
      << bad_seq.err;
  EXPECT_EQ(bad_latency.exit_code, 2);
  EXPECT_NE(bad_latency.err.find(csv.string() + ":2:34: e2e_latency_ms: expected a latency in ms > 0, found '0'"),
            std::string::npos)
      << bad_latency.err;
}

TEST(Cli, ValidateE2eSimulatesTheZooModels) {
  const std::string ref = std::string(DSE_REFERENCE_DIR) + "/neusight/e2e_labels.csv";
  const CliResult result = run_dse("validate e2e " + ref + " --json -q");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  // BERT-large, GPT-2-large, GPT-3 2.7B, OPT-1.3B, NeuSight's GPT-3 XL and Switch Transformer on six
  // NVIDIA GPUs.
  EXPECT_GE(json["rows"].size(), 55u);
  std::set<std::string> models;
  for (const auto& row : json["rows"]) {
    const auto config = row["config"].get<std::string>();
    models.insert(config.substr(0, config.find('-')));
  }
  EXPECT_EQ(models, (std::set<std::string>{"bert_large", "gpt2_large", "gpt3_27", "gpt3_xl", "opt_13", "switchxl4"}));
  double sum = 0;
  for (const auto& row : json["rows"]) sum += std::abs(row["error_pct"].get<double>());
  EXPECT_NEAR(json["mape_pct"].get<double>(), sum / static_cast<double>(json["rows"].size()), 1e-9);
  // Rows it cannot simulate are listed with their line and why; none is dropped silently.
  std::size_t lines = 0;
  {
    std::ifstream in(ref);
    for (std::string line; std::getline(in, line);) lines += line.empty() ? 0 : 1;
  }
  EXPECT_EQ(json["rows"].size() + json["skipped"].size(), lines - 1);  // less the header
  bool amd = false, zoo = false, multi_gpu = false, forward = false;
  for (const auto& skip : json["skipped"]) {
    const auto reason = skip["reason"].get<std::string>();
    amd |= reason.find("no GPU spec in the catalog reports the device name 'AMD Instinct") != std::string::npos;
    zoo |= reason.find("is not in dse's zoo") != std::string::npos;
    multi_gpu |= reason.find("a run across GPUs") != std::string::npos;
    EXPECT_GT(skip["line"].get<int>(), 1);
  }
  for (const auto& row : json["rows"]) forward |= row["measured"] == "fw_latency_ms";
  EXPECT_TRUE(amd && zoo && multi_gpu && forward);
}

namespace {
// `dse validate e2e --json -q` on a labels file holding `text` (`tag` names the temporary file).
CliResult validate_e2e_text(const std::string& tag, const std::string& text) {
  const fs::path csv = fs::temp_directory_path() / ("dse_e2e_" + tag + "_" + std::to_string(::getpid()) + ".csv");
  std::ofstream(csv) << text;
  CliResult result = run_dse("validate e2e " + csv.string() + " --json -q");
  fs::remove(csv);
  return result;
}
}  // namespace

// NeuSight's other model names map to the zoo (bert, gpt2_med, gpt3_67, llama2_7b) or to its
// configuration (gpt3_13); a model neither covers (switch4: no published configuration) is skipped.
TEST(Cli, ValidateE2eBuildsNeuSightsModelNames) {
  const CliResult result = validate_e2e_text("names",
                                             "device,config,num_layer,e2e_latency_ms\n"
                                             "NVIDIA_A100-PCIE-40GB,bert-inf-128-1,12,10\n"
                                             "NVIDIA_A100-PCIE-40GB,gpt2_med-inf-1024-1,24,10\n"
                                             "NVIDIA_A100-PCIE-40GB,gpt3_67-inf-2048-1,32,10\n"
                                             "NVIDIA_A100-PCIE-40GB,gpt3_13-inf-2048-1,40,10\n"
                                             "NVIDIA_A100-PCIE-40GB,llama2_7b-inf-2048-1,32,10\n"
                                             "NVIDIA_A100-PCIE-40GB,switch4-inf-512-1,0,10\n");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  ASSERT_EQ(json["rows"].size(), 5u);
  // Larger models take longer: GPT-3 13B (40 x 5,120) above 6.7B above GPT-2 medium above BERT-base.
  for (std::size_t i = 1; i < 4; ++i)
    EXPECT_GT(json["rows"][i]["predicted_ms"].get<double>(), json["rows"][i - 1]["predicted_ms"].get<double>());
  ASSERT_EQ(json["skipped"].size(), 1u);
  EXPECT_EQ(json["skipped"][0]["config"], "switch4-inf-512-1");
}

// A training row's forward pass is the training model's with its dropouts: BERT-large as
// BertForPreTraining (the masked-LM head onto 30,522 words) is predicted slower than BertModel's
// inference pass of the same batch, GPT-2-large (the same model in both) by its dropouts alone.
TEST(Cli, ValidateE2eTrainingRowsRunTheTrainingForwardPass) {
  const CliResult result = validate_e2e_text("train",
                                             "device,config,num_layer,e2e_latency_ms,fw_latency_ms\n"
                                             "NVIDIA_H100_80GB_HBM3,bert_large-inf-512-8,24,70,\n"
                                             "NVIDIA_H100_80GB_HBM3,bert_large-train-512-8,24,236,88\n"
                                             "NVIDIA_H100_80GB_HBM3,gpt2_large-inf-1024-4,36,215,\n"
                                             "NVIDIA_H100_80GB_HBM3,gpt2_large-train-1024-4,36,639,226\n");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  ASSERT_EQ(json["rows"].size(), 4u);
  const auto predicted = [&](std::size_t i) { return json["rows"][i]["predicted_ms"].get<double>(); };
  // The BERT decoder: 2 x 4,096 x 1,024 x 30,522 flops, about 5 ms at the H100's FP32 rate.
  EXPECT_GT(predicted(1), predicted(0) + 4.0);
  // GPT-2: 36 layers' attention-probability dropouts of 4 x 20 x 1,024^2 floats, 9 bytes each, at
  // no more than the H100 SXM's 3.35 TB/s (configs/hardware/gpu/h100_sxm.yaml, dram_bandwidth_gbps).
  EXPECT_GT(predicted(3), predicted(2) + 36 * 4 * 20 * 1024.0 * 1024 * 9 / 3.35e9);
  EXPECT_LT(predicted(3), 1.15 * predicted(2));
}

// A row of more tokens than the model has positions, of a run spread across GPUs, or of counts
// beyond 64 bits is listed as skipped with why (they were an internal error, a silent one-GPU
// prediction and an error naming no row); with no row simulated there is no MAPE.
TEST(Cli, ValidateE2eSkipsShapesAndMultiGpuRuns) {
  const fs::path csv = fs::temp_directory_path() / ("dse_e2e_skips_" + std::to_string(::getpid()) + ".csv");
  std::ofstream(csv) << "device,config,num_layer,e2e_latency_ms\n"
                        "NVIDIA_A100-PCIE-40GB,gpt2_large-inf-2048-1,36,10\n"
                        "NVIDIA_A100-PCIE-40GB,gpt2_large-inf-1024-1-tp4,36,10\n"
                        "NVIDIA_A100-PCIE-40GB,switchxl4-inf-1000000-65536,0,10\n";
  const fs::path h5 = fs::temp_directory_path() / ("dse_e2e_skips_" + std::to_string(::getpid()) + ".h5");
  const CliResult result = run_dse("validate e2e " + csv.string() + " --json --output " + h5.string());
  fs::remove(csv);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // The report of a validation without rows is an index without figures, not a traceback.
  const fs::path report = fs::temp_directory_path() / ("dse_e2e_skips_report_" + std::to_string(::getpid()));
  const CliResult plotted = run_dse("report " + h5.string() + " --out " + report.string() + " -q");
  EXPECT_EQ(plotted.exit_code, 0) << plotted.err;
  EXPECT_TRUE(fs::exists(report / "index.html"));
  fs::remove(h5);
  fs::remove_all(report);
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_TRUE(json["rows"].empty());
  EXPECT_TRUE(json["mape_pct"].is_null());
  ASSERT_EQ(json["skipped"].size(), 3u);
  EXPECT_NE(json["skipped"][0]["reason"].get<std::string>().find("cannot take this shape"), std::string::npos);
  EXPECT_NE(json["skipped"][1]["reason"].get<std::string>().find("a run across GPUs ('tp4')"), std::string::npos);
  EXPECT_NE(json["skipped"][2]["reason"].get<std::string>().find("exceeds what a 64-bit count holds"),
            std::string::npos);
  EXPECT_NE(result.err.find("no row dse could simulate"), std::string::npos) << result.err;
}

TEST(Cli, ValidateGemmPredictsTensorCoreGemms) {
  const std::string ref = std::string(DSE_REFERENCE_DIR) + "/llmcompass/a100_fp16_matmul.csv";
  const CliResult result = run_dse("validate gemm " + ref + " --json -q");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["rows"].size(), 20u);
  EXPECT_EQ(json["gpu"], "a100_sxm4_80gb");
  EXPECT_EQ(json["rows"][0]["m"], 64);
  // A large FP16 tensor-core GEMM, near the heaviest load, is held by the 400 W limit a little
  // above the A100 SXM4 80GB's 1,275 MHz base clock (the base clock is where activity 1 draws the
  // TDP), and the board draws the limit.
  EXPECT_GT(json["clock_mhz"].get<double>(), 1275);
  EXPECT_LT(json["clock_mhz"].get<double>(), 1410);
  EXPECT_NEAR(json["rows"][19]["power_w"].get<double>(), 400, 0.01);
  EXPECT_EQ(run_dse("validate gemm " + ref + " --gpu a100_sxm80").exit_code, 2);
  // A spec file of one's own (here the catalog's own file, by path) predicts as its name does.
  const std::string own = source_path("configs/hardware/gpu/a100_sxm4_80gb.yaml");
  const CliResult by_file = run_dse("validate gemm " + ref + " --gpu " + own + " --json -q");
  ASSERT_EQ(by_file.exit_code, 0) << by_file.err;
  EXPECT_EQ(nlohmann::json::parse(by_file.out)["mape_pct"], json["mape_pct"]);
  const CliResult missing = run_dse("validate gemm " + ref + " --gpu no_such_gpu.yaml");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "dse: error: --gpu: expected an existing GPU spec file, found no file 'no_such_gpu.yaml'\n");
}

// A benchmark's loop of launches pays no harness floor: --back-to-back predicts each row without it,
// --calibration predicts with a saved file's parameters.
TEST(Cli, ValidateGemmTimesLoopsAndReadsACalibration) {
  const std::string ref = std::string(DSE_REFERENCE_DIR) + "/public/rtx_a6000_cublas_sgemm.csv";
  const std::string gpu = " --gpu rtx_a6000 --dtype fp32 --json -q";
  const fs::path saved = fs::temp_directory_path() / ("dse_gemm_cal_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(saved) << "calibration: kernel_timer\nparameters: {timing_floor_us: 500}\n";
  const CliResult alone = run_dse("validate gemm " + ref + gpu + " --calibration " + saved.string());
  const CliResult loop = run_dse("validate gemm " + ref + gpu + " --calibration " + saved.string() + " --back-to-back");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  ASSERT_EQ(loop.exit_code, 0) << loop.err;
  const auto a = nlohmann::json::parse(alone.out), b = nlohmann::json::parse(loop.out);
  EXPECT_EQ(a["timing"], "alone");
  EXPECT_EQ(b["timing"], "back_to_back");
  EXPECT_EQ(b["calibration_file"], saved.string());
  ASSERT_EQ(a["rows"].size(), 4u);
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_NEAR(a["rows"][i]["predicted_ms"].get<double>() - b["rows"][i]["predicted_ms"].get<double>(), 0.5, 1e-9);
  // The default calibration's loop prediction differs from the file's only by what else the file sets (nothing).
  const CliResult defaults = run_dse("validate gemm " + ref + gpu + " --back-to-back");
  ASSERT_EQ(defaults.exit_code, 0) << defaults.err;
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(defaults.out)["rows"][3]["predicted_ms"].get<double>(),
                   b["rows"][3]["predicted_ms"].get<double>());
  std::ofstream(saved) << "calibration: kernel_timer\nparameters: {gemm_efficiency: 2}\n";
  const CliResult bad = run_dse("validate gemm " + ref + gpu + " --calibration " + saved.string());
  fs::remove(saved);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find(saved.string() + ":2:"), std::string::npos) << bad.err;
}

// One of the BatchDVFS paper's recorded runs beside dse's simulation of it: the same keys on both
// sides; a model the zoo lacks is skipped with its reason (exit 0); a file that is not a recorded
// run exits 2 naming it and what was expected.
TEST(Cli, ValidateBatchDvfsPrintsRecordedBesideSimulated) {
  const std::string run = std::string(DSE_REFERENCE_DIR) + "/batchdvfs/dvfs256/13_ResNetV2_50_DVFS.csv";
  const CliResult result = run_dse("validate batchdvfs " + run + " --json -q");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["run"], "13_ResNetV2_50_DVFS");
  EXPECT_EQ(json["model"], "resnet_v2_50");
  EXPECT_EQ(json["controller"], "dvfs_only");
  EXPECT_EQ(json["power_cap_w"], 143.0);
  const std::set<std::string> keys = {"power_mean_w", "over_cap_share", "batch_mean", "images_per_s",
                                      "clock_time_share"};
  for (const char* side : {"recorded", "simulated"}) {
    ASSERT_TRUE(json.contains(side)) << side;
    std::set<std::string> found;
    for (const auto& [key, value] : json[side].items()) found.insert(key);
    EXPECT_EQ(found, keys) << side;
    double share = 0;
    for (const auto& [mhz, value] : json[side]["clock_time_share"].items()) share += value.get<double>();
    EXPECT_NEAR(share, 1.0, 1e-9) << side;
  }
  const CliResult text = run_dse("validate batchdvfs " + run);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  for (const char* line : {"recorded  simulated", "power_mean_w", "over_cap_share", "batch_mean",
                           "images / wall time, gaps between calls included", "1063 MHz"})
    EXPECT_NE(text.out.find(line), std::string::npos) << line << "\n" << text.out;

  const std::string nasnet = std::string(DSE_REFERENCE_DIR) + "/batchdvfs/clipper/10_NASNet_A_Large_331_Clipper.csv";
  const CliResult skipped = run_dse("validate batchdvfs " + nasnet + " --json -q");
  ASSERT_EQ(skipped.exit_code, 0) << skipped.err;
  EXPECT_EQ(nlohmann::json::parse(skipped.out),
            nlohmann::json({{"run", "10_NASNet_A_Large_331_Clipper"},
                            {"skipped", "dse's zoo has no NASNet-A Large (dse list model)"}}));
  const CliResult skipped_text = run_dse("validate batchdvfs " + nasnet);
  EXPECT_EQ(skipped_text.exit_code, 0);
  EXPECT_EQ(skipped_text.out,
            "10_NASNet_A_Large_331_Clipper: skipped: dse's zoo has no NASNet-A Large (dse list model)\n");

  const fs::path dir = fs::temp_directory_path() / ("dse_validate_batchdvfs_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string bad = (dir / "13_ResNetV2_50_BatchDVFS.csv").string();
  std::ofstream(bad) << "latency_ms,batch\n1.5,8\n";
  const CliResult not_a_run = run_dse("validate batchdvfs " + bad + " --json");
  const std::string unnamed = (dir / "results.csv").string();
  std::ofstream(unnamed) << "latency_ms,batch\n1.5,8\n";
  const CliResult bad_name = run_dse("validate batchdvfs " + unnamed);
  fs::remove_all(dir);
  EXPECT_EQ(not_a_run.exit_code, 2);
  EXPECT_EQ(not_a_run.out, "");
  EXPECT_NE(not_a_run.err.find(bad + ":1:1: expected a recorded run of the paper's BatchDVFS controller "
                                     "(tests/data/batchdvfs/README.md) with the columns time stamp, power, batch size, "
                                     "power cap, DVFS; found columns latency_ms, batch"),
            std::string::npos)
      << not_a_run.err;
  EXPECT_EQ(bad_name.exit_code, 2);
  EXPECT_NE(bad_name.err.find(unnamed + ": expected a recorded run named NN_MODEL_CONTROLLER.csv"), std::string::npos)
      << bad_name.err;
}

}  // namespace dse::test
