// `dse calibrate` and `dse calibration validate` end to end on the simulated backend, and the
// calibration file used by `dse run`.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

namespace dse::test {
namespace fs = std::filesystem;

TEST(Cli, CalibrateRunsASessionWritesACalibrationAndDseRunUsesIt) {
  const fs::path dir = fs::temp_directory_path() / ("dse_calibrate_cli_" + std::to_string(::getpid()));
  const std::string file = (dir / "h100.yaml").string();
  const std::string small = " -p 'kernels.models=[mobilenet_v2]' -p 'kernels.gemm_sizes=[1024]' -p kernels.batch=1";
  const CliResult session = run_dse("calibrate --backend simulated --gpu h100_sxm --json -q --output " + file + small);
  ASSERT_EQ(session.exit_code, 0) << session.err;
  const auto json = nlohmann::json::parse(session.out);
  for (const char* key : {"speedup_vs_serial", "error_vs_serial_pct", "wall_s", "serial_estimate_s", "candidates",
                          "calibration", "check", "dop_by_chunk"})
    EXPECT_TRUE(json.contains(key)) << key;
  EXPECT_GT(json["speedup_vs_serial"].get<double>(), 0);
  EXPECT_EQ(json["calibration"], file);
  EXPECT_LT(json["check"]["held_out"]["fitted"]["mape_pct"].get<double>(), 10);
  // A second session on the same output needs --resume or --force.
  const CliResult again = run_dse("calibrate --backend simulated --gpu h100_sxm -q --output " + file + small);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("--resume continues it"), std::string::npos) << again.err;
  // --resume of a finished session measures nothing again and writes the same calibration.
  const CliResult resumed =
      run_dse("calibrate --backend simulated --gpu h100_sxm --json -q --resume --output " + file + small);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_TRUE(nlohmann::json::parse(resumed.out)["resumed"].get<bool>());
  // The file is a calibration `dse run` loads, and the run says which.
  const CliResult run = run_dse("run -q --json -p output= -p device.gpu=h100_sxm -p device.calibration=" + file);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(nlohmann::json::parse(run.out)["device"]["calibration"].get<std::string>().find(file), std::string::npos);
  const CliResult check = run_dse("calibration validate " + file + " --json -q");
  ASSERT_EQ(check.exit_code, 0) << check.err;
  EXPECT_EQ(nlohmann::json::parse(check.out)["check"], json["check"]);
  // --output: every row as a validation file that dse report draws (scatter and error by op).
  const std::string rows = (dir / "rows.h5").string();
  const CliResult written = run_dse("calibration validate " + file + " -q --output " + rows);
  ASSERT_EQ(written.exit_code, 0) << written.err;
  const CliResult report = run_dse("report " + rows + " --out " + (dir / "report").string());
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_TRUE(fs::exists(dir / "report" / "predicted_vs_measured.png")) << report.out;
  EXPECT_TRUE(fs::exists(dir / "report" / "error_by_op_gpu.png")) << report.out;
  // Bad input names the key.
  const CliResult bad = run_dse("calibrate --backend simulated -q -p parallel.beta=7 --output " + file);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("parallel.beta"), std::string::npos) << bad.err;
  const CliResult unknown = run_dse("calibrate --backend nosuch -q --output " + file);
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("backend.name"), std::string::npos) << unknown.err;
  fs::remove_all(dir);
}

// The session's journal is refused as the search's is: a symlink there was followed and its target
// overwritten, a FIFO blocked the session and a link to /dev/zero was read forever (issue 54).
TEST(Cli, CalibrateRefusesAJournalPathThatIsNotARegularFile) {
  const fs::path dir = fs::temp_directory_path() / ("dse_calibrate_journal_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string output = (dir / "h100.yaml").string(), journal = (dir / "h100.journal.jsonl").string();
  const auto calibrate = [&](const std::string& flags) {
    return run_dse("--version >/dev/null; timeout 60 '" + std::string(DSE_BINARY) +
                   "' calibrate --backend simulated --gpu h100_sxm -q --output " + output + flags);
  };
  std::ofstream(dir / "victim") << "precious";
  fs::create_symlink(dir / "victim", journal);
  const CliResult linked = calibrate("");
  EXPECT_EQ(linked.exit_code, 2);
  EXPECT_EQ(linked.err, "dse: error: " + journal +
                            ": cannot write: expected a regular file or a new path for the output, found a symbolic "
                            "link (results are written to a temporary file and renamed over the target)\n");
  EXPECT_EQ(read_text((dir / "victim").string()), "precious");
  fs::remove(journal);
  ASSERT_EQ(::mkfifo(journal.c_str(), 0600), 0);
  const CliResult fifo = calibrate(" --resume");
  EXPECT_EQ(fifo.exit_code, 2);  // 124: it blocked
  EXPECT_NE(fifo.err.find("found a FIFO"), std::string::npos) << fifo.err;
  fs::remove(journal);
  fs::create_symlink("/dev/zero", journal);
  const CliResult zero = calibrate(" --resume");
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.err.find("found a symbolic link"), std::string::npos) << zero.err;
  fs::remove_all(dir);
}

// Issue 54: a planted failure or hang naming no kernel of the session planted nothing, silently.
// It is an error at the name, with the closest kernels and a "did you mean".
TEST(Cli, CalibratePlantedFailuresMustNameAKernelOfTheSession) {
  const fs::path dir = fs::temp_directory_path() / ("dse_calibrate_planted_" + std::to_string(::getpid()));
  const std::string file = (dir / "h100.yaml").string();
  const std::string small = " -p 'kernels.models=[mobilenet_v2]' -p 'kernels.gemm_sizes=[1024]' -p kernels.batch=1";
  const CliResult bad = run_dse("calibrate --backend simulated --gpu h100_sxm -q --output " + file + small +
                                " -p 'backend.hang=[\"add fp16 4096x265\"]'");
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("backend.hang[0]: expected the name of one of the session's"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("found 'add fp16 4096x265'; did you mean 'add fp16 4096x256'?"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(file));
  fs::remove_all(dir);
}

}  // namespace dse::test
