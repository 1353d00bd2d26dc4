// `dse calibrate [SESSION.yaml]`: a calibration session on the GPU at hand (or the simulated one):
// measure its kernels with DOPpler's parallel measurement, fit the GPU model, write the calibration
// (hwcal/calibrate.h). `dse calibration validate FILE`: how well a calibration predicts what its
// session held out (hwcal/session_fit.h).
#include <fmt/format.h>

#include <optional>

#include "cli/command.h"
#include "cli/progress_bar.h"
#include "cli/validation_h5.h"
#include "hwcal/calibrate.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/output/hdf5_file.h"

namespace dse {
namespace {

struct CalibrateCliOptions {
  CalibrateOptions calibrate;
  std::string gpu;
  std::string output;
  int dop = 0;
  bool resume = false, force = false, serial_reference = false, allow_clock_control = false;
  OutputMode mode;
};

nlohmann::json summary_json(const ErrorSummary& s) { return {{"mape_pct", s.mape_pct}, {"rows", s.rows}}; }

nlohmann::json check_json(const CalibrationCheck& check) {
  nlohmann::json ops = nlohmann::json::object();
  for (const auto& [op, s] : check.held_out_fitted)
    ops[op] = {
        {"rows", s.rows}, {"mape_pct", s.mape_pct}, {"default_mape_pct", check.held_out_default.at(op).mape_pct}};
  nlohmann::json models = nlohmann::json::array();
  for (const auto& m : check.models)
    models.push_back({{"model", m.name},
                      {"measured_ms", m.measured_ms},
                      {"predicted_ms", m.fitted_ms},
                      {"default_ms", m.default_ms},
                      {"error_pct", 100 * (m.fitted_ms / m.measured_ms - 1)},
                      {"default_error_pct", 100 * (m.default_ms / m.measured_ms - 1)}});
  return {{"held_out", {{"fitted", summary_json(check.all_fitted)}, {"default", summary_json(check.all_default)}}},
          {"held_out_by_op", ops},
          {"end_to_end", models},
          {"pairs", {{"fitted", summary_json(check.pairs_fitted)}, {"default", summary_json(check.pairs_default)}}}};
}

void print_check(std::FILE* out, const CalibrationCheck& check) {
  fmt::print(out, "held-out kernels      {:>5} rows: MAPE {:.1f} % calibrated, {:.1f} % with the defaults\n",
             check.all_fitted.rows, check.all_fitted.mape_pct, check.all_default.mape_pct);
  for (const auto& [op, s] : check.held_out_fitted)
    fmt::print(out, "  {:<20} {:>5} rows: {:.1f} % ({:.1f} %)\n", op, s.rows, s.mape_pct,
               check.held_out_default.at(op).mape_pct);
  for (const auto& m : check.models)
    fmt::print(out, "end to end {:<14} {:.3f} ms measured, {:.3f} ms predicted ({:+.1f} %; defaults {:+.1f} %)\n",
               m.name, m.measured_ms, m.fitted_ms, 100 * (m.fitted_ms / m.measured_ms - 1),
               100 * (m.default_ms / m.measured_ms - 1));
  if (check.pairs_fitted.rows)
    fmt::print(out, "pairs at once         {:>5} rows: MAPE {:.1f} % ({:.1f} % with the defaults)\n",
               check.pairs_fitted.rows, check.pairs_fitted.mape_pct, check.pairs_default.mape_pct);
}

int calibrate_command(CalibrateCliOptions& options) {
  CalibrateOptions& c = options.calibrate;
  if (options.resume && options.force) throw UserError("--resume and --force: give one (continue, or start over)");
  c.start = options.resume ? JournalStart::resume : options.force ? JournalStart::force : JournalStart::fresh;
  if (!options.gpu.empty()) c.overrides.insert(c.overrides.begin(), "gpu=" + options.gpu);
  if (!options.output.empty()) c.overrides.push_back("output=" + options.output);
  if (options.dop > 0) {
    c.overrides.push_back("parallel.adaptive=false");
    c.overrides.push_back("parallel.dop=" + std::to_string(options.dop));
  }
  if (options.serial_reference) c.overrides.push_back("serial_reference=true");
  if (options.allow_clock_control) c.overrides.push_back("backend.allow_clock_control=true");
  std::unique_ptr<ProgressBar> bar;
  c.progress = [&](std::size_t done, std::size_t total, int dop) {
    if (options.mode.quiet) return;
    if (!bar) bar = std::make_unique<ProgressBar>("measuring", total, stderr);
    bar->update(done, fmt::format("{} at once", dop));
  };
  const CalibrateOutcome out = calibrate(c);
  if (bar) bar->finish();
  const SessionResult& s = out.session;
  std::size_t failed = 0;
  nlohmann::json dops = nlohmann::json::array();
  for (const auto& r : s.results) failed += r.status == MeasureStatus::ok ? 0 : 1;
  for (const auto& chunk : s.chunks) dops.push_back(chunk.dop);
  if (!options.mode.quiet) {
    std::FILE* h = options.mode.human();
    fmt::print(h, "session           {} on {}{}\n", out.name, s.device.name, s.resumed ? " (resumed)" : "");
    fmt::print(h, "kernels           {} measured, {} failed or timed out\n", out.candidates - failed, failed);
    fmt::print(
        h, "parallelism       {} chunks, dop {} to {}\n", s.chunks.size(),
        s.chunks.empty()
            ? 0
            : std::min_element(s.chunks.begin(), s.chunks.end(), [](auto& a, auto& b) { return a.dop < b.dop; })->dop,
        s.chunks.empty() ? 0 : std::max_element(s.chunks.begin(), s.chunks.end(), [](auto& a, auto& b) {
                                 return a.dop < b.dop;
                               })->dop);
    fmt::print(h,
               "time              {:.1f} s; serial measurement {:.1f} s: {:.2f}x faster, {:.2f} % error against it\n",
               s.wall_s, s.serial_estimate_s, s.speedup_vs_serial, s.error_vs_serial_pct);
    if (s.reference_error_pct)
      fmt::print(h, "serial reference  {:.1f} s measured alone: {:.2f}x faster, {:.2f} % error against it\n",
                 *s.reference_serial_s, *s.reference_serial_s / s.wall_s, *s.reference_error_pct);
    print_check(h, out.check);
    fmt::print(h, "calibration       {}  (dse run -p device.calibration={})\n", out.output, out.output);
  }
  if (options.mode.json) {
    nlohmann::json json = {{"session", out.name},
                           {"device", s.device.name},
                           {"candidates", out.candidates},
                           {"failed", failed},
                           {"resumed", s.resumed},
                           {"dop_by_chunk", dops},
                           {"wall_s", s.wall_s},
                           {"serial_estimate_s", s.serial_estimate_s},
                           {"speedup_vs_serial", s.speedup_vs_serial},
                           {"error_vs_serial_pct", s.error_vs_serial_pct},
                           {"calibration", out.output},
                           {"journal", out.journal},
                           {"check", check_json(out.check)}};
    if (s.reference_error_pct) {
      json["reference_serial_s"] = *s.reference_serial_s;
      json["reference_error_pct"] = *s.reference_error_pct;
    }
    options.mode.print_json(json);
  }
  return 0;
}

struct ValidateCalibrationOptions {
  std::string file;
  std::string output;  // the rows as a validation HDF5 file for dse report
  OutputMode mode;
};

int validate_calibration(const ValidateCalibrationOptions& options) {
  const CalibrationFile file = read_calibration_file(options.file);
  if (!file.session)
    throw UserError(options.file +
                    ": expected a calibration written by dse calibrate (with its session), found one "
                    "without measurements (dse validate kernels checks other calibrations)");
  const HardwareCatalog catalog = HardwareCatalog::for_listing();
  const auto spec_file = catalog.find("gpu", file.session->gpu);
  if (!spec_file)
    throw UserError(options.file + ": session.gpu: expected a GPU spec (dse list gpu), found '" + file.session->gpu +
                    "'");
  std::optional<Hdf5File> out;  // opened first: an output that cannot be written stops before the work
  if (!options.output.empty()) out.emplace(options.output);
  const CalibrationCheck check = check_calibration(file, read_gpu_spec(load_config_file(*spec_file)));
  if (out) write_calibration_validation_h5(*out, options.file, file.session->gpu, check);
  if (!options.mode.quiet) {
    fmt::print(options.mode.human(), "calibration       {} ({} on {}, {})\n", options.file, file.session->gpu,
               file.session->device, file.session->date_utc);
    print_check(options.mode.human(), check);
  }
  if (options.mode.json) options.mode.print_json({{"calibration", options.file}, {"check", check_json(check)}});
  return 0;
}

}  // namespace

Subcommand add_calibrate_command(CLI::App& app) {
  auto options = std::make_shared<CalibrateCliOptions>();
  CLI::App* command = app.add_subcommand(
      "calibrate", "Measure a GPU's kernels in parallel (DOPpler), fit the GPU model, write a calibration");
  command->add_option("session", options->calibrate.session_file,
                      "The session YAML (default: the embedded configs/calibration/session.yaml)");
  command->add_option("--backend", options->calibrate.backend, "simulated or cuda (dse list calibration_backend)");
  command->add_option("--gpu", options->gpu, "The GPU spec the calibration is for (dse list gpu)");
  command->add_option("--output", options->output,
                      "The calibration file (default results/calibration/GPU_BACKEND.yaml)");
  command
      ->add_option("--dop", options->dop,
                   "Measure this many kernels at once throughout (default: DOPpler's controller)")
      ->check(CLI::Range(1, 4096));
  command->add_flag("--serial-reference", options->serial_reference,
                    "Also measure every kernel alone afterwards: the exact error and speedup against serial");
  command->add_flag("--allow-clock-control", options->allow_clock_control,
                    "Let the cuda backend lock the SM clock for the session (never without this flag)");
  command->add_flag("--resume", options->resume, "Continue an interrupted session from its journal");
  command->add_flag("--force", options->force, "Start over, discarding an earlier session's journal");
  command->add_option("-p", options->calibrate.overrides, "KEY=VALUE on the session YAML (repeatable)");
  add_output_flags(*command, options->mode, true);
  return {command, [options] { return calibrate_command(*options); }};
}

Subcommand add_calibration_command(CLI::App& app) {
  auto options = std::make_shared<ValidateCalibrationOptions>();
  CLI::App* command = app.add_subcommand("calibration", "Work with calibration files");
  command->require_subcommand(1);
  CLI::App* validate = command->add_subcommand(
      "validate", "Predict what a dse calibrate session held out, its models end to end and its kernel pairs");
  validate->add_option("file", options->file, "A calibration file written by dse calibrate")
      ->required()
      ->check(CLI::ExistingFile);
  validate
      ->add_option("--output", options->output,
                   "Also write every row, predicted with the defaults and (held-out rows) with the calibration, "
                   "as an HDF5 file dse report draws")
      ->type_name("FILE.h5");
  add_output_flags(*validate, options->mode, true);
  return {command, [options] { return validate_calibration(*options); }};
}

}  // namespace dse
