// `dse replay TRACE.csv --governor NAME`: a recorded serving run's power readings through one of
// dse's governors, every decision compared with the state the run recorded next
// (sim/serving/governor_replay.h). Exit 0 when every recorded decision is reproduced, 3 when some
// are not (listed), 2 for bad input.
#include <fmt/format.h>

#include "cli/command.h"
#include "sim/serving/governor_replay.h"

namespace dse {
namespace {

struct ReplayCliOptions {
  std::string file;
  ReplayOptions replay;
  OutputMode mode;
};

nlohmann::json state_json(const ReplayState& state) {
  nlohmann::json out = nlohmann::json::object();
  if (state.batch > 0) out["batch"] = state.batch;
  if (state.clock_mhz > 0) out["clock_mhz"] = state.clock_mhz;
  for (const auto& [name, value] : state.inner) out[name] = value;
  return out;
}

std::string state_text(const ReplayState& state) {
  std::string out;
  if (state.batch > 0) out += fmt::format("batch {}", state.batch);
  if (state.clock_mhz > 0) out += fmt::format("{}{:g} MHz", out.empty() ? "" : ", ", state.clock_mhz);
  for (const auto& [name, value] : state.inner) out += fmt::format(", {} {}", name, value);
  return out;
}

int replay(const ReplayCliOptions& options) {
  const ReplayReport report = replay_governor(options.file, options.replay);
  if (!options.mode.quiet) {
    fmt::print(options.mode.human(),
               "{} replayed through {} (cap {:g} W): {} rows, {} decisions ({} more where the timing could go either "
               "way), {} of {} recorded transitions reproduced, {} mismatches\n",
               report.file, report.governor, report.power_cap_w, report.rows, report.decisions, report.ambiguous,
               report.matched, report.transitions, report.mismatches.size());
    for (const auto& m : report.mismatches)
      fmt::print(options.mode.human(), "  line {}: at {:.2f} s, {:.2f} W, from {}: recorded {}, dse {}\n", m.line,
                 m.time_s, m.power_w, state_text(m.before), state_text(m.recorded), state_text(m.dse));
  }
  if (options.mode.json) {
    nlohmann::json mismatches = nlohmann::json::array();
    for (const auto& m : report.mismatches)
      mismatches.push_back({{"line", m.line},
                            {"time_s", m.time_s},
                            {"power_w", m.power_w},
                            {"before", state_json(m.before)},
                            {"recorded", state_json(m.recorded)},
                            {"dse", state_json(m.dse)}});
    options.mode.print_json({{"file", report.file},
                             {"governor", report.governor},
                             {"power_cap_w", report.power_cap_w},
                             {"rows", report.rows},
                             {"decisions", report.decisions},
                             {"ambiguous_timing", report.ambiguous},
                             {"transitions", report.transitions},
                             {"matched", report.matched},
                             {"mismatches", mismatches}});
  }
  return report.mismatches.empty() ? 0 : 3;
}

}  // namespace

Subcommand add_replay_command(CLI::App& app) {
  auto options = std::make_shared<ReplayCliOptions>();
  CLI::App* command = app.add_subcommand(
      "replay",
      "Feed a recorded serving run's power readings to a governor and compare every decision (exit 3 if any differs)");
  command->add_option("trace", options->file, "The run's log (CSV, one row per batch: tests/data/batchdvfs)")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--governor", options->replay.governor, "batch_dvfs, clipper_power, dvfs_only (dse list governor)")
      ->required();
  command
      ->add_option("--clock-levels", options->replay.clock_levels_mhz,
                   "The GPU's clock levels in MHz, ascending (default the paper's ten P40 levels, 544..1531)")
      ->delimiter(',');
  command->add_option("--initial-clock", options->replay.initial_clock_mhz,
                      "Clock level at the start, MHz (default 1063)");
  command->add_option("--max-batch", options->replay.max_batch, "Largest batch the GPU may run (default 256)")
      ->check(CLI::Range(1, 65536));
  command->add_option("-p", options->replay.assignments, "KEY=VALUE for the governor block (e.g. period_s=3)");
  add_output_flags(*command, options->mode, true);
  return {command, [options] { return replay(*options); }};
}

}  // namespace dse
