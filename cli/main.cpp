// The `dse` command: parse flags, run one subcommand, map errors to exit codes
// (0 done, 2 bad input, 1 internal error). Only this file prints errors.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/command.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "sim/output/build_info.h"

namespace {

int report(const char* kind, const char* message, int code) {
  std::fflush(stdout);
  std::fprintf(stderr, "dse: %s%s\n", kind, message);
  return code;
}

int run_cli(int argc, char** argv) {
  CLI::App app{"dse -- simulator and design-space explorer for DNN inference hardware"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("dse ") + dse::dse_version() + " (" + dse::dse_git_commit() + ")");
  const std::vector<dse::Subcommand> subcommands{
      dse::add_run_command(app),      dse::add_list_command(app),      dse::add_models_command(app),
      dse::add_validate_command(app), dse::add_scalesim_command(app),  dse::add_replay_command(app),
      dse::add_report_command(app),   dse::add_calibrate_command(app), dse::add_calibration_command(app),
      dse::add_merge_command(app),    dse::add_version_command(app)};
  std::vector<std::string> names;
  for (const auto& subcommand : subcommands) names.push_back(subcommand.command->get_name());
  // The first word that is not a flag names the subcommand: an unknown one says so and lists them
  // (CLI11 alone reports "A subcommand is required").
  if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    return report("error: ",
                  ("unknown subcommand '" + std::string(argv[1]) + "': expected one of " + dse::join_names(names) +
                   dse::did_you_mean_suffix(argv[1], names))
                      .c_str(),
                  2);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    const std::string hint = argc > 1 ? " (run 'dse --help' or 'dse SUBCOMMAND --help')"
                                      : ": one of " + dse::join_names(names) + " (run 'dse --help')";
    return report("error: ", (std::string(error.what()) + hint).c_str(), 2);
  }
  for (const auto& subcommand : subcommands)
    if (subcommand.command->parsed()) return subcommand.action();
  return report("error: ", "expected a subcommand (run 'dse --help')", 2);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_cli(argc, argv);
  } catch (const dse::UserError& error) {
    return report("error: ", error.what(), 2);
  } catch (const std::exception& error) {
    return report("internal error: ", error.what(), 1);
  } catch (...) {
    return report("internal error: ", "unknown exception", 1);
  }
}
