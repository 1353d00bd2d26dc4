#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "sim/config/config_loader.h"
#include "sim/output/atomic_file.h"
#include "sim/output/chrome_trace.h"
#include "sim/output/hdf5_file.h"
#include "sim/output/hdf5_result.h"
#include "sim/output/summary_json.h"
#include "sim/run/simulation.h"
#include "tests/cli/cli_runner.h"

namespace dse {
namespace fs = std::filesystem;

namespace {
Experiment quickstart() {
  return read_experiment(load_config_file("embedded:configs/experiments/quickstart.yaml"),
                         "embedded:configs/experiments/quickstart.yaml");
}
}  // namespace

TEST(ChromeTrace, HasOneSliceperOpOnItsStreamTrack) {
  const RunResult result = run_experiment(quickstart());
  const auto trace = nlohmann::json::parse(chrome_trace_json(result));
  std::size_t slices = 0;
  for (const auto& event : trace["traceEvents"]) {
    if (event["ph"] == "X") {
      ++slices;
      EXPECT_GE(event["dur"].get<double>(), 0.0);
      EXPECT_EQ(event["tid"], 0);
    }
  }
  EXPECT_EQ(slices, result.ops.size());
}

TEST(SummaryJson, CarriesTheDocumentedKeys) {
  const Experiment experiment = quickstart();
  const auto summary = summary_json(experiment, run_experiment(experiment));
  for (const char* key : {"experiment", "device", "schedule", "schedule_summary", "models", "metrics", "output"})
    EXPECT_TRUE(summary.contains(key)) << key;
  EXPECT_EQ(summary.size(), 7u);
  EXPECT_EQ(summary["schedule"], "single_stream");
  EXPECT_EQ(summary["schedule_summary"],
            "single_stream: 1 tenant on 1 stream, 1 segment, 0 sync points, 1 host thread");
  EXPECT_EQ(summary["metrics"]["tdp_w"], 700);                 // configs/hardware/gpu/h200.yaml
  EXPECT_GT(summary["metrics"]["energy_j"].get<double>(), 0);  // the GPU power model
  EXPECT_NE(summary["device"]["clock"].get<std::string>().find("MHz"), std::string::npos);
  EXPECT_EQ(summary["device"]["kind"], "gpu");
  EXPECT_EQ(summary["device"]["name"], "h200");
  EXPECT_EQ(summary["device"]["timing_model"], "kernel");
  EXPECT_EQ(summary["device"]["calibration"], "default calibration (fitted to NeuSight FP32 kernels)");
  EXPECT_EQ(summary["models"][0]["params"], 25'557'032);
}

// A result renamed over /dev/null (as root) replaced the device node with a file: anything but a
// regular file or a new path is refused before work starts.
TEST(AtomicFile, RefusesToReplaceWhatIsNotARegularFile) {
  const auto message = [](const std::string& path) -> std::string {
    try {
      AtomicFile file(path);
    } catch (const UserError& error) {
      return error.what();
    }
    return "";
  };
  EXPECT_NE(message("/dev/null")
                .find("/dev/null: cannot write: expected a regular file or a new path for the output, "
                      "found a character device"),
            std::string::npos);
  const fs::path dir = fs::temp_directory_path() / ("dse_special_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "real.h5") << "x";
  fs::create_symlink(dir / "real.h5", dir / "link.h5");
  EXPECT_NE(message((dir / "link.h5").string()).find("found a symbolic link"), std::string::npos);
  EXPECT_EQ(message((dir / "real.h5").string()), "");  // a regular file is replaced as before
  EXPECT_EQ(message((dir / "new.h5").string()), "");
  fs::remove_all(dir);
}

TEST(AtomicFile, NothingAppearsUnderTheFinalNameUntilCommit) {
  const fs::path dir = fs::temp_directory_path() / "dse_atomic_test" / "nested";
  fs::remove_all(dir.parent_path());
  const std::string target = (dir / "out.txt").string();
  {
    AtomicFile file(target);
    std::FILE* partial = file.create_temporary();
    std::fputs("partial", partial);
    std::fclose(partial);
    EXPECT_FALSE(fs::exists(target));
  }  // destroyed without commit: as if the run crashed
  EXPECT_FALSE(fs::exists(target));
  EXPECT_TRUE(fs::is_empty(dir));
  write_file_atomically(target, "done");
  EXPECT_EQ(test::read_text(target), "done");
  fs::remove_all(dir.parent_path());
}

// PATH.tmp-PID is predictable: a symlink planted there was followed and its target truncated
// (issue 54). The temporary file is created new and never through a link; a plain file there (a
// killed run whose PID this process now has) is replaced.
TEST(AtomicFile, NeverWritesThroughALinkPlantedAtTheTemporaryName) {
  const fs::path dir = fs::temp_directory_path() / ("dse_planted_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "victim") << "precious";
  const std::string pid = std::to_string(::getpid());
  const auto error = [](const std::function<void()>& write) -> std::string {
    try {
      write();
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  fs::create_symlink(dir / "victim", dir / ("out.txt.tmp-" + pid));
  const std::string target = (dir / "out.txt").string();
  EXPECT_EQ(error([&] { write_file_atomically(target, "new"); }),
            target + ": cannot write: " + target + ".tmp-" + pid +
                ", the temporary file's name, is taken by a symbolic link that dse did not create; remove it");
  EXPECT_NE(error([&] { AtomicFile(target).check_writable(); }).find("is taken by a symbolic link"), std::string::npos);
  fs::create_symlink(dir / "victim", dir / ("r.h5.tmp-" + pid));
  EXPECT_NE(error([&] { Hdf5File file((dir / "r.h5").string()); }).find("is taken by a symbolic link"),
            std::string::npos);
  fs::create_hard_link(dir / "victim", dir / ("hard.txt.tmp-" + pid));
  EXPECT_NE(error([&] { write_file_atomically((dir / "hard.txt").string(), "new"); }).find("(a hard link)"),
            std::string::npos);
  EXPECT_EQ(test::read_text((dir / "victim").string()), "precious");
  EXPECT_TRUE(fs::is_symlink(dir / ("out.txt.tmp-" + pid)));  // left as found
  std::ofstream(dir / ("left.txt.tmp-" + pid)) << "half a file";
  write_file_atomically((dir / "left.txt").string(), "whole");
  EXPECT_EQ(test::read_text((dir / "left.txt").string()), "whole");
  EXPECT_FALSE(fs::exists(dir / ("left.txt.tmp-" + pid)));
  fs::remove_all(dir);
}

TEST(Hdf5Result, WritesAFileAndLeavesNoTemporary) {
  const fs::path dir = fs::temp_directory_path() / "dse_hdf5_test";
  fs::remove_all(dir);
  const Experiment experiment = quickstart();
  write_hdf5_result((dir / "r.h5").string(), experiment, run_experiment(experiment));
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, (std::vector<std::string>{"r.h5"}));
  // HDF5 signature: \x89HDF\r\n\x1a\n
  EXPECT_EQ(test::read_text((dir / "r.h5").string()).substr(0, 4), "\x89HDF");
  fs::remove_all(dir);
}

TEST(Hdf5Result, UnwritablePlaceIsAUserError) {
  const Experiment experiment = quickstart();
  const RunResult result = run_experiment(experiment);
  EXPECT_THROW(write_hdf5_result("/proc/dse_cannot_write_here/r.h5", experiment, result), UserError);
}

}  // namespace dse
