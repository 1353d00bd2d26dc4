// Runs the built `dse` binary from the source root and captures what it printed.
#pragma once

#include <cstddef>
#include <string>

namespace dse::test {

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

// `arguments` is appended to the dse command line as shell words (quote them yourself).
CliResult run_dse(const std::string& arguments);
// The same under an address-space limit (`ulimit -v`) of `mib` MiB: an allocation past it fails
// as it would on a machine that has no more.
CliResult run_dse_within(std::size_t mib, const std::string& arguments);
// Whether such a limit can be set: not under AddressSanitizer or ThreadSanitizer, which reserve
// terabytes of address space for their shadow memory (tests that need one skip, visibly).
bool address_space_limits_work();
std::string read_text(const std::string& path);
std::string source_path(const std::string& relative);

}  // namespace dse::test
