// The pieces every subcommand shares: how it is added to the CLI, where its human text goes, and
// the common flags.
//
// Contract for every subcommand: `--json` prints exactly one JSON object on stdout (human text
// then goes to stderr); `--help` works; user errors are thrown as UserError (main prints them and
// exits 2); nothing here calls exit().
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace dse {

// What a subcommand runs once its flags are parsed; returns the exit code.
using CommandAction = std::function<int()>;

struct Subcommand {
  CLI::App* command;
  CommandAction action;
};

// Where output goes for one invocation.
struct OutputMode {
  bool json = false;
  bool quiet = false;
  // Human-readable text: stdout normally, stderr when stdout carries JSON.
  std::FILE* human() const { return json ? stderr : stdout; }
  void print_json(const nlohmann::json& object) const;
};

void add_output_flags(CLI::App& command, OutputMode& mode, bool with_quiet);

// One function per subcommand, each in its own file.
Subcommand add_run_command(CLI::App& app);
Subcommand add_list_command(CLI::App& app);
Subcommand add_models_command(CLI::App& app);
Subcommand add_validate_command(CLI::App& app);
Subcommand add_scalesim_command(CLI::App& app);
Subcommand add_version_command(CLI::App& app);
Subcommand add_replay_command(CLI::App& app);
Subcommand add_report_command(CLI::App& app);
Subcommand add_calibrate_command(CLI::App& app);
Subcommand add_calibration_command(CLI::App& app);
Subcommand add_merge_command(CLI::App& app);
// `dse validate batchdvfs`, added under `validate` (cli/cmd_validate_batchdvfs.cpp).
Subcommand add_validate_batchdvfs_command(CLI::App& validate);

}  // namespace dse
