// End-to-end tests of the `dse` binary: exit codes, JSON on stdout, and every broken config in
// tests/bad_configs/ failing with exactly the message in its .expected file.
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

TEST(Cli, BadConfigsFailWithTheirExactMessage) {
  const fs::path dir = source_path("tests/bad_configs");
  std::vector<fs::path> cases;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".yaml") cases.push_back(entry.path());
  std::sort(cases.begin(), cases.end());
  ASSERT_GE(cases.size(), 15u);
  for (const auto& path : cases) {
    const std::string relative = "tests/bad_configs/" + path.filename().string();
    const std::string expected = read_text(path.parent_path() / (path.stem().string() + ".expected"));
    ASSERT_FALSE(expected.empty()) << "no .expected file for " << relative;
    const CliResult result = run_dse("run " + relative);
    EXPECT_EQ(result.exit_code, 2) << relative;
    EXPECT_EQ(result.err, expected) << relative;
    EXPECT_EQ(result.out, "") << relative;
  }
}

TEST(Cli, RunJsonIsOneObjectAndByteIdenticalAcrossRuns) {
  const std::string args = "run configs/experiments/quickstart.yaml --json -p output=";
  const CliResult first = run_dse(args);
  const CliResult second = run_dse(args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, second.out);
  const auto summary = nlohmann::json::parse(first.out);
  EXPECT_EQ(summary["experiment"], "quickstart");
  EXPECT_GT(summary["metrics"]["latency_ms"].get<double>(), 0.0);
  EXPECT_NE(first.err.find("latency_ms"), std::string::npos);  // human text went to stderr
}

TEST(Cli, QuietPrintsNothingAndDefaultIsTheEmbeddedQuickstart) {
  const CliResult result = run_dse("run -q -p output=");
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "");
}

TEST(Cli, OverridesMayComeBeforeTheConfigPath) {
  const CliResult result = run_dse(
      "run -p output= -p 'workload.models[0].batch=2' "
      "configs/experiments/quickstart.yaml --json -q");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out)["models"][0]["batch"], 2);
}

TEST(Cli, TraceAndResultFilesAreWritten) {
  const fs::path dir = fs::temp_directory_path() / ("dse_cli_outputs_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const CliResult result =
      run_dse("run -q -p output=" + (dir / "r.h5").string() + " --trace " + (dir / "t.json").string());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::exists(dir / "r.h5"));
  const auto trace = nlohmann::json::parse(read_text((dir / "t.json").string()));
  EXPECT_GT(trace["traceEvents"].size(), 100u);
  fs::remove_all(dir);
}

TEST(Cli, ExitCodesForBadCommandLines) {
  EXPECT_EQ(run_dse("").exit_code, 2);
  EXPECT_EQ(run_dse("frobnicate").exit_code, 2);
  EXPECT_EQ(run_dse("run --no-such-flag").exit_code, 2);
  const CliResult missing = run_dse("run no/such/file.yaml");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "dse: error: no/such/file.yaml: cannot read: no such file or not readable\n");
  const CliResult directory = run_dse("run configs");
  EXPECT_EQ(directory.exit_code, 2);
  EXPECT_EQ(directory.err, "dse: error: configs: cannot read: is a directory, expected a YAML file\n");
  const CliResult bad_override = run_dse("run -p 'workload.models[0].batch=eight'");
  EXPECT_EQ(bad_override.exit_code, 2);
  EXPECT_EQ(bad_override.err,
            "dse: error: (-p #1):1:26: workload.models[0].batch: expected an integer in [1, 65536], found \"eight\"\n");
  const CliResult bad_family = run_dse("list modle");
  EXPECT_EQ(bad_family.exit_code, 2);
  EXPECT_NE(bad_family.err.find("did you mean 'model'?"), std::string::npos);
}

// DVFS as a search knob: the T4's clock table as choices, inferences per watt as the objective.
// Inputs within every documented range whose counts pass 64 bits: exit 2 naming what, never a
// negative MAC count, byte count, cycle count or time with exit 0.
TEST(Cli, CountsTooLargeFor64BitsAreRefused) {
  const CliResult vit = run_dse(
      "run configs/experiments/quickstart.yaml -q -p output= -p 'workload.models=[{name: vit_b16, batch: 65536, "
      "resolution: 8192, dtype: fp16}]'");
  EXPECT_EQ(vit.exit_code, 2) << vit.err;
  EXPECT_NE(vit.err.find("workload.models[0]: expected a model dse can count"), std::string::npos) << vit.err;
  EXPECT_NE(vit.err.find("exceeds what a 64-bit count holds"), std::string::npos) << vit.err;
  const fs::path topology = fs::temp_directory_path() / ("dse_huge_" + std::to_string(::getpid()) + ".csv");
  std::ofstream(topology) << "Layer,M,N,K,\nhuge,1000000,1000000,1000000000,\n";
  const std::string ref = std::string(DSE_REFERENCE_DIR) + "/scalesim/inputs/";
  const CliResult scalesim = run_dse("scalesim -c " + ref + "google.cfg -t " + topology.string() + " -i gemm -q");
  EXPECT_EQ(scalesim.exit_code, 2) << scalesim.err << scalesim.out;
  EXPECT_NE(scalesim.err.find("exceeds what a 64-bit count holds"), std::string::npos) << scalesim.err;
  EXPECT_NE(scalesim.err.find(topology.string() + ": "), std::string::npos) << scalesim.err;  // names the file
  fs::remove(topology);
}

// Issue 54: `dse run` refuses models over the device's memory (exit 2, naming the model, its batch
// and the bytes) and FP8 on a GPU without FP8 units, before simulating anything.
TEST(Cli, ModelsOverMemoryAndFp8WithoutFp8UnitsAreRefused) {
  const CliResult llama = run_dse(
      "run configs/experiments/quickstart.yaml -q -p output= -p device.gpu=t4 -p 'workload.models=[{name: llama2_7b, "
      "batch: 256, dtype: fp16, phase: decode, past_len: 4000}]'");
  EXPECT_EQ(llama.exit_code, 2) << llama.err;
  EXPECT_NE(llama.err.find("workload.models[0].batch: expected a model that fits in t4's 16 GiB"), std::string::npos)
      << llama.err;
  EXPECT_NE(llama.err.find("llama2_7b at batch 256 needs"), std::string::npos) << llama.err;
  const CliResult fp8 = run_dse(
      "run configs/experiments/quickstart.yaml -q -p output= -p device.gpu=a100_sxm4_80gb -p "
      "'workload.models[0].dtype=fp8'");
  EXPECT_EQ(fp8.exit_code, 2) << fp8.err;
  EXPECT_NE(fp8.err.find("workload.models[0].dtype: expected a dtype a100_sxm4_80gb has units for"), std::string::npos)
      << fp8.err;
}

// A result that cannot be written in full (a full disk; here a 20 KiB file-size limit, SIGXFSZ
// ignored) is an error with the system's reason, and nothing is left under either name; an output
// that cannot be created stops the run before it simulates.
TEST(Cli, FailedResultWritesAreReportedAndLeaveNothing) {
  const fs::path dir = fs::temp_directory_path() / ("dse_full_disk_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string out = (dir / "q.h5").string();
  const CliResult full = run_dse("--version >/dev/null; trap '' XFSZ; ulimit -f 40; '" + std::string(DSE_BINARY) +
                                 "' run configs/experiments/quickstart.yaml -q -p output=" + out);
  EXPECT_EQ(full.exit_code, 2) << full.err;  // was SIGSEGV in HDF5's close at exit
  EXPECT_NE(full.err.find(out + ": cannot write: writing " + out + ".tmp-"), std::string::npos) << full.err;
  EXPECT_NE(full.err.find("File too large"), std::string::npos) << full.err;
  EXPECT_TRUE(fs::is_empty(dir));
  const CliResult unwritable = run_dse("run configs/experiments/quickstart.yaml -q -p output=/proc/dse_test.h5");
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_NE(unwritable.err.find("/proc/dse_test.h5: cannot write: cannot create"), std::string::npos) << unwritable.err;
  fs::remove_all(dir);
}

TEST(Cli, ScaleSimPrintsScaleSimsCycles) {
  const std::string ref = std::string(DSE_REFERENCE_DIR) + "/scalesim/inputs/";
  const CliResult result = run_dse("scalesim -c " + ref + "google.cfg -t " + ref + "alexnet.csv --json -q");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["total_cycles"], 7581 + 12949 + 15965 + 24835 + 12417);  // SCALE-Sim's COMPUTE_REPORT
  EXPECT_EQ(json["layers"][0]["name"], "Conv1");
  EXPECT_EQ(run_dse("scalesim -c " + ref + "google.cfg -t " + ref + "gpt2.csv -i conv").exit_code, 2);
}

// InterfaceBandwidth: USER: SCALE-Sim's own total and stall cycles (tests/data/scalesim_user); a
// bandwidth SCALE-Sim cannot read is refused, naming the file, line and key.
TEST(Cli, ScaleSimUserModePrintsScaleSimsStalls) {
  const std::string ref = std::string(DSE_REFERENCE_DIR) + "/scalesim_user/";
  const CliResult result =
      run_dse("scalesim -c " + ref + "runs/mbconv_16x48_is_bw4/config.cfg -t " + ref + "inputs/mbconv.csv --json -q");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto json = nlohmann::json::parse(result.out);
  EXPECT_EQ(json["total_cycles"], 1870 + 1258 + 28034 + 1183);  // SCALE-Sim's COMPUTE_REPORT
  EXPECT_EQ(json["layers"][2]["stall_cycles"], 24363);
  const fs::path config = fs::temp_directory_path() / ("dse_user_" + std::to_string(::getpid()) + ".cfg");
  std::ofstream(config) << "[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\nIfmapSramSzkB: 2\n"
                           "FilterSramSzkB: 2\nOfmapSramSzkB: 1\nDataflow : ws\nBandwidth : 2.5\n"
                           "[run_presets]\nInterfaceBandwidth: USER\n";
  const CliResult bad = run_dse("scalesim -c " + config.string() + " -t " + ref + "inputs/mbconv.csv -q");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find(config.string() + ":8: [architecture_presets] Bandwidth: expected a whole number"),
            std::string::npos)
      << bad.err;
  fs::remove(config);
}

TEST(Cli, KilledSearchResumesToTheSameResult) {
  const fs::path dir = fs::temp_directory_path() / ("dse_kill_resume_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto write_experiment = [&](const std::string& name) {
    const fs::path path = dir / (name + ".yaml");
    std::ofstream(path) << "name: " << name << "\nworkload:\n  models:\n    - {name: resnet50, batch: 8, dtype: fp16}\n"
                        << "device: {gpu: t4, timing_model: kernel}\noutput: " << (dir / (name + ".h5")).string()
                        << "\n"
                        << "search:\n  space:\n    workload.models[0].batch: {int: [1, 256]}\n"
                        << "    device.gpu: {choice: [t4, l4, a10, a100_pcie_40gb, h100_sxm, v100_pcie]}\n"
                        << "  objective: {maximize: throughput_per_s}\n  constraints: {latency_ms: {le: 20}}\n"
                        << "  strategy: {name: random, trials: 4000, batch: 16, seed: 3}\n";
    return path.string();
  };
  const std::string killed = write_experiment("killed"), whole = write_experiment("whole");
  // kill -9 part way (once the journal holds 50 trials, however slow the build: a fixed delay killed
  // the ASan build before its first trial), then resume.
  const std::string journal_path = (dir / "killed.journal.jsonl").string();
  run_dse("run " + killed + " -q & pid=$!; for i in $(seq 6000); do [ $(cat " + journal_path +
          " 2>/dev/null | wc -l) -ge 51 ] && break; sleep 0.01; done; kill -9 $pid; wait $pid");
  std::ifstream journal(dir / "killed.journal.jsonl");
  const auto lines_before = std::count(std::istreambuf_iterator<char>(journal), std::istreambuf_iterator<char>(), '\n');
  const CliResult resumed = run_dse("run " + killed + " --resume --json -q");
  const CliResult uninterrupted = run_dse("run " + whole + " --json -q");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  ASSERT_EQ(uninterrupted.exit_code, 0) << uninterrupted.err;
  auto a = nlohmann::json::parse(resumed.out), b = nlohmann::json::parse(uninterrupted.out);
  EXPECT_EQ(a["best"], b["best"]);
  EXPECT_EQ(a["trials"], 4000);
  EXPECT_EQ(a["status_counts"], b["status_counts"]);
  // Every trial is in the journal once: none lost, none run twice.
  std::ifstream full(dir / "killed.journal.jsonl");
  std::set<std::int64_t> ids;
  std::string line;
  std::getline(full, line);  // header
  std::size_t rows = 0;
  while (std::getline(full, line)) {
    const auto json = nlohmann::json::parse(line, nullptr, false);
    if (json.is_discarded()) continue;  // the line the kill cut short, if any
    ids.insert(json["id"].get<std::int64_t>());
    ++rows;
  }
  EXPECT_EQ(ids.size(), 4000u);
  EXPECT_EQ(rows, 4000u);
  EXPECT_GT(lines_before, 1);     // the kill left some work done ...
  EXPECT_LT(lines_before, 4001);  // ... and some undone
  // The resumed run simulated at most what the journal lacked (repeated points reuse earlier results).
  EXPECT_LE(a["evaluated_this_run"].get<std::int64_t>(), 4000 - (static_cast<std::int64_t>(lines_before) - 1))
      << "lines before the resume: " << lines_before;
  EXPECT_GT(a["evaluated_this_run"].get<std::int64_t>(), 0);
  fs::remove_all(dir);
}

TEST(Cli, EverySubcommandHasHelpAndJson) {
  for (const char* subcommand : {"run", "list", "version", "models list", "models show", "validate kernels",
                                 "validate e2e", "validate gemm", "validate batchdvfs", "scalesim"}) {
    const CliResult help = run_dse(std::string(subcommand) + " --help");
    EXPECT_EQ(help.exit_code, 0) << subcommand;
    EXPECT_NE(help.out.find("--json"), std::string::npos) << subcommand;
  }
  const CliResult list = run_dse("list --json");
  ASSERT_EQ(list.exit_code, 0);
  const auto families = nlohmann::json::parse(list.out)["families"];
  std::vector<std::string> models;
  for (const auto& entry : families["model"]["entries"]) models.push_back(entry["name"]);
  EXPECT_NE(std::find(models.begin(), models.end(), "resnet50"), models.end());
  std::vector<std::string> gpus;
  std::map<std::string, std::string> gpu_descriptions;
  for (const auto& entry : families["gpu"]["entries"]) {
    gpus.push_back(entry["name"]);
    gpu_descriptions[entry["name"]] = entry["description"];
  }
  // Each GPU says which driver readings its spec holds (the clock table a locked clock is checked against).
  EXPECT_NE(gpu_descriptions["p100_pcie"].find("(nvidia-smi: clock table, power limits, idle draw)"), std::string::npos)
      << gpu_descriptions["p100_pcie"];
  EXPECT_NE(gpu_descriptions["p4"].find("(no nvidia-smi readings)"), std::string::npos) << gpu_descriptions["p4"];
  EXPECT_NE(std::find(gpus.begin(), gpus.end(), "h200"), gpus.end());
  EXPECT_GE(gpus.size(), 15u);
  const CliResult version = run_dse("version --json");
  ASSERT_EQ(version.exit_code, 0);
  EXPECT_TRUE(nlohmann::json::parse(version.out).contains("git_commit"));
  EXPECT_EQ(run_dse("--help").exit_code, 0);
}

}  // namespace dse::test

namespace dse::test {

TEST(Cli, UnknownSubcommandSaysSoAndListsTheValidOnes) {
  const CliResult result = run_dse("rnu configs/experiments/quickstart.yaml");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown subcommand 'rnu'"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("validate"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("did you mean 'run'?"), std::string::npos) << result.err;
  const CliResult none = run_dse("");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("run, list"), std::string::npos) << none.err;
}

TEST(Cli, GraphFileModelsReportTheDtypeTheirGraphComputesIn) {
  const fs::path dir = fs::temp_directory_path() / ("dse_graph_dtype_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string graph = (dir / "r18.yaml").string();
  ASSERT_EQ(run_dse("models show resnet18 --dtype fp16 --save " + graph + " -q").exit_code, 0);
  const CliResult result = run_dse("run -p output= -p 'workload.models=[{graph: " + graph + "}]' --json -q");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(nlohmann::json::parse(result.out)["models"][0]["dtype"], "fp16");
  fs::remove_all(dir);
}

}  // namespace dse::test
