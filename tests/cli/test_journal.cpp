// The search journal as the output's guard: no silent overwrite, no two runs at once, no silent
// re-simulation of a corrupt line, and a failed write stops the search (search/journal.h).
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace dse {
namespace {

namespace fs = std::filesystem;
using test::CliResult;
using test::run_dse;

// A small grid search (27 trials) writing into its own folder.
class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dse_journal_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    config_ = (dir_ / "s.yaml").string();
    std::ofstream(config_) << "name: s\nworkload:\n  models:\n    - {name: resnet18, batch: 8, dtype: fp16}\n"
                           << "device: {gpu: t4}\noutput: " << (dir_ / "s.h5").string() << "\n"
                           << "search:\n  space:\n    workload.models[0].batch: {choice: [1, 2, 4]}\n"
                           << "    device.gpu: {choice: [t4, l4, a10]}\n"
                           << "    device.timing_model: {choice: [kernel, roofline, kernel]}\n"
                           << "  objective: {maximize: throughput_per_s}\n"
                           << "  strategy: {name: grid, trials: 27, batch: 4, seed: 1}\n";
    journal_ = (dir_ / "s.journal.jsonl").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> journal_lines() const {
    std::ifstream in(journal_);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }
  void write_journal(const std::vector<std::string>& lines, bool last_newline = true) const {
    std::ofstream out(journal_, std::ios::trunc);
    for (std::size_t i = 0; i < lines.size(); ++i)
      out << lines[i] << (i + 1 < lines.size() || last_newline ? "\n" : "");
  }

  fs::path dir_;
  std::string config_, journal_;
};

}  // namespace

TEST_F(JournalTest, AnEarlierJournalIsNeitherOverwrittenNorMixed) {
  ASSERT_EQ(run_dse("run " + config_ + " -q").exit_code, 0);
  const CliResult again = run_dse("run " + config_ + " -q");
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find(journal_ + ": a journal of an earlier search is here; --resume continues it, --force"),
            std::string::npos)
      << again.err;
  EXPECT_EQ(run_dse("run " + config_ + " -q --force").exit_code, 0);
  EXPECT_EQ(journal_lines().size(), 28u);  // started over: the header and 27 trials
  EXPECT_EQ(run_dse("run " + config_ + " -q --resume --force").exit_code, 2);
  // A journal another search wrote is refused on --resume.
  std::vector<std::string> lines = journal_lines();
  lines[0] = nlohmann::json{{"search", "another"}}.dump();
  write_journal(lines);
  const CliResult other = run_dse("run " + config_ + " -q --resume");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find(journal_ + ":1: expected the journal of this search"), std::string::npos) << other.err;
}

TEST_F(JournalTest, TwoRunsOnOneOutputDoNotInterleave) {
  // Another process holds the output (its journal's lock): this run stops before any trial.
  const int fd = ::open(journal_.c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const CliResult locked = run_dse("run " + config_ + " -q");
  ::close(fd);
  EXPECT_EQ(locked.exit_code, 2);
  EXPECT_NE(locked.err.find("another dse run is writing this output"), std::string::npos) << locked.err;
  EXPECT_EQ(run_dse("run " + config_ + " -q").exit_code, 0);  // the lock went with the process
}

TEST_F(JournalTest, ACorruptLineIsNamedAndACutLastLineIsDropped) {
  ASSERT_EQ(run_dse("run " + config_ + " -q").exit_code, 0);
  const std::vector<std::string> full = journal_lines();
  ASSERT_EQ(full.size(), 28u);
  // A line that is not a record before the end: edited, or two writers. Named, not re-simulated.
  std::vector<std::string> corrupt = full;
  corrupt[3] = "{\"id\": 2, \"values\": [";
  write_journal(corrupt);
  const CliResult refused = run_dse("run " + config_ + " -q --resume");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find(journal_ + ":4: expected a trial record"), std::string::npos) << refused.err;
  // The last line cut short, as a kill leaves it: dropped, its trial run again, the journal whole.
  std::vector<std::string> cut(full.begin(), full.end() - 5);
  cut.back() = cut.back().substr(0, cut.back().size() / 2);
  write_journal(cut, false);
  const CliResult resumed = run_dse("run " + config_ + " --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE((resumed.out + resumed.err).find(journal_ + ":23: the journal's last line was cut short"),
            std::string::npos)
      << resumed.out << resumed.err;
  const std::vector<std::string> after = journal_lines();
  EXPECT_EQ(after.size(), 28u);
  for (const auto& line : after) EXPECT_FALSE(nlohmann::json::parse(line, nullptr, false).is_discarded()) << line;
}

// Found by fuzz_journal: a header whose "search" is a number (or an object, or missing) made the
// reader throw nlohmann's type_error, which escaped as a crash instead of naming the file.
TEST_F(JournalTest, AHeaderOfAnotherKindIsRefusedByName) {
  ASSERT_EQ(run_dse("run " + config_ + " -q").exit_code, 0);
  std::vector<std::string> lines = journal_lines();
  for (const std::string header : {"{\"search\":0.006}", "{\"search\":{\"a\":1}}", "{}", "[1]"}) {
    lines[0] = header;
    write_journal(lines);
    const CliResult refused = run_dse("run " + config_ + " -q --resume");
    EXPECT_EQ(refused.exit_code, 2) << header << ": " << refused.err;
    EXPECT_NE(refused.err.find(journal_ + ":1: expected the journal of this search"), std::string::npos)
        << header << ": " << refused.err;
  }
}

TEST_F(JournalTest, AFailedJournalWriteStopsTheSearchAndResumeFinishesIt) {
  // A file-size limit stands in for a full disk: writes past 4 KiB fail (EFBIG) instead of
  // raising SIGXFSZ, which the shell ignores for dse.
  const CliResult full = run_dse("--version >/dev/null; trap '' XFSZ; ulimit -f 8; '" + std::string(DSE_BINARY) +
                                 "' run " + config_ + " -q");
  EXPECT_EQ(full.exit_code, 2) << full.err;
  EXPECT_NE(full.err.find(journal_ + ": cannot append to the search journal: File too large"), std::string::npos)
      << full.err;
  const std::size_t kept = journal_lines().size();
  EXPECT_GT(kept, 1u);
  EXPECT_LT(kept, 28u);
  const CliResult resumed = run_dse("run " + config_ + " -q --resume --json");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_EQ(nlohmann::json::parse(resumed.out)["trials"], 27);
  EXPECT_EQ(journal_lines().size(), 28u);
}

TEST_F(JournalTest, TemporariesOfDeadRunsAreRemoved) {
  const fs::path stale = dir_ / "s.h5.tmp-999999999";  // above any pid_max: no such process
  std::ofstream(stale) << "half a file";
  const fs::path unrelated = dir_ / "other.h5.tmp-999999999";
  std::ofstream(unrelated) << "not ours";
  ASSERT_EQ(run_dse("run " + config_ + " -q").exit_code, 0);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(unrelated));
  EXPECT_TRUE(fs::exists(dir_ / "s.h5"));
}

}  // namespace dse
