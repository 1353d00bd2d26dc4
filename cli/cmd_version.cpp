// `dse version`: what this binary is and which optional features it was built with.
#include <fmt/format.h>

#include "cli/command.h"
#include "sim/output/build_info.h"

namespace dse {

Subcommand add_version_command(CLI::App& app) {
  auto mode = std::make_shared<OutputMode>();
  CLI::App* command = app.add_subcommand("version", "Print the version, git commit and optional features");
  add_output_flags(*command, *mode, false);
  return {command, [mode] {
            if (mode->json) {
              mode->print_json({{"version", dse_version()},
                                {"git_commit", dse_git_commit()},
                                {"cuda", built_with_cuda()},
                                {"mpi", built_with_mpi()}});
            } else {
              fmt::print("dse {} (commit {}; built with CUDA toolkit: {}; MPI: {})\n", dse_version(), dse_git_commit(),
                         built_with_cuda() ? "yes" : "no", built_with_mpi() ? "yes" : "no");
            }
            return 0;
          }};
}

}  // namespace dse
