#include "tests/cli/cli_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dse::test {

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string source_path(const std::string& relative) { return std::string(DSE_SOURCE_DIR) + "/" + relative; }

CliResult run_dse(const std::string& arguments) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dse_cli_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  const std::string out = (dir / "out").string(), err = (dir / "err").string();
  const std::string command = "cd '" + std::string(DSE_SOURCE_DIR) + "' && env -u DSE_CONFIG_DIR '" +
                              std::string(DSE_BINARY) + "' " + arguments + " >'" + out + "' 2>'" + err + "' </dev/null";
  const int status = std::system(command.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = read_text(out);
  result.err = read_text(err);
  std::filesystem::remove_all(dir);
  return result;
}

CliResult run_dse_within(std::size_t mib, const std::string& arguments) {
  return run_dse("--version >/dev/null; ulimit -v " + std::to_string(mib << 10) + "; '" + std::string(DSE_BINARY) +
                 "' " + arguments);
}

bool address_space_limits_work() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
  return false;
#else
  return true;
#endif
#else
  return true;
#endif
}

}  // namespace dse::test
