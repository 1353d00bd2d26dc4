// Runs the built `dse` binary from the source root and captures what it printed.
#pragma once

#include <string>

namespace dse::test {

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// `arguments` is appended to the dse command line as shell words (quote them yourself).
CliResult run_dse(const std::string& arguments);
std::string read_text(const std::string& path);
std::string source_path(const std::string& relative);

}  // namespace dse::test
