// `dse validate kernels|e2e|gemm`: how well the GPU timing models predict measured latencies. The
// studies, predictions, errors, fits and floors are hwcal's (hwcal/kernel_validation.h,
// row_prediction.h, prediction_errors.h, kernel_fit.h, e2e_validation.h, gemm_validation.h); this
// file parses flags and prints. `dse validate batchdvfs` (a recorded serving run of the BatchDVFS
// paper, simulated) is cli/cmd_validate_batchdvfs.cpp.
#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <utility>

#include "cli/command.h"
#include "cli/progress_bar.h"
#include "cli/validation_h5.h"
#include "hwcal/e2e_validation.h"
#include "hwcal/gemm_validation.h"
#include "hwcal/kernel_fit.h"
#include "hwcal/kernel_validation.h"
#include "hwcal/prediction_errors.h"
#include "hwcal/session_fit.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/kernel_calibration_io.h"
#include "sim/output/atomic_file.h"
#include "sim/output/hdf5_file.h"

namespace dse {
namespace {

struct ValidateOptions {
  std::vector<std::string> files;
  bool fit = false;
  bool leave_one_out = false;
  std::string predictions_file;
  std::string save_calibration;
  std::string calibration_file;  // predict with this calibration instead of the defaults
  std::string output;            // HDF5 for `dse report`
  OutputMode mode;
};

nlohmann::json table_json(const ErrorTable& table) {
  nlohmann::json devices = nlohmann::json::object();
  for (const auto& [device, ops] : table)
    for (const auto& [op, s] : ops)
      devices[device][op] = {{"mape_pct", s.mape_pct}, {"within_20pct", s.within_20pct}, {"rows", s.rows}};
  return devices;
}

void print_floor_table(std::FILE* out, const std::string& title, const FloorComparison& report) {
  const auto mape = [](const ErrorTable& t, const std::string& device, const std::string& op) {
    const auto d = t.find(device);
    return d == t.end() || !d->second.contains(op) ? std::string("-")
                                                   : fmt::format("{:.1f}", d->second.at(op).mape_pct);
  };
  fmt::print(out, "{}\n{:<18} {:<10} {:>7} {:>9} {:>9}{}\n", title, "device", "op", "rows", "floor %", "dse %",
             report.held_out.empty() ? "" : " held out %");
  for (const auto& [device, ops] : report.floor)
    for (const auto& [op, s] : ops)
      fmt::print(out, "{:<18} {:<10} {:>7} {:>9.1f} {:>9}{}\n", device, op, s.rows, s.mape_pct,
                 mape(report.model, device, op),
                 report.held_out.empty() ? "" : fmt::format(" {:>10}", mape(report.held_out, device, op)));
  fmt::print(out, "\n");
}

void print_tile_choice(std::FILE* out, const TileChoiceReport& report) {
  if (report.dse_tile.empty()) return;
  fmt::print(out,
             "tile choice: GEMM rows whose measured kernel's tile dse has, predicted on the tile dse picks and on the "
             "measured one\n(the difference is the tile choice's error, what is left the kernel time's)\n"
             "{:<18} {:<10} {:>7} {:>11} {:>16}\n",
             "device", "op", "rows", "dse tile %", "measured tile %");
  for (const auto& [device, ops] : report.dse_tile)
    for (const auto& [op, s] : ops)
      fmt::print(out, "{:<18} {:<10} {:>7} {:>11.1f} {:>16.1f}\n", device, op, s.rows, s.mape_pct,
                 report.measured_tile.at(device).at(op).mape_pct);
  fmt::print(out, "\n");
}

nlohmann::json clock_states_json(const ClockStateTable& table) {
  nlohmann::json devices = nlohmann::json::object();
  for (const auto& [device, ops] : table)
    for (const auto& [op, s] : ops)
      devices[device][op] = {{"held_rows", s.held_rows},
                             {"nearer_boost", s.nearer_boost},
                             {"model_mape_pct", s.model_mape_pct},
                             {"either_state_mape_pct", s.either_state_mape_pct},
                             {"control_mape_pct", s.control_mape_pct},
                             {"shapes", s.shapes},
                             {"shapes_in_both", s.shapes_in_both}};
  return devices;
}

void print_clock_states(std::FILE* out, const ClockStateTable& model, const ClockStateTable& held_out) {
  if (model.empty()) return;
  fmt::print(out,
             "clock states: the rows dse holds below the boost clock, each also predicted at boost; \"either\" keeps "
             "the nearer\nof the two (the harness recorded no clock), \"control\" offers a state as much slower "
             "instead; shapes: per-item\nshapes with 3+ held rows, and those with rows nearer each state\n"
             "{:<18} {:<10} {:>6} {:>13} {:>6} {:>9} {:>10} {:>13}{}\n",
             "device", "op", "held", "nearer boost", "dse %", "either %", "control %", "shapes in both",
             held_out.empty() ? "" : "  held out: dse % either %");
  for (const auto& [device, ops] : model)
    for (const auto& [op, s] : ops) {
      std::string held;
      if (const auto d = held_out.find(device); d != held_out.end() && d->second.contains(op))
        held = fmt::format("  {:>15.1f} {:>8.1f}", d->second.at(op).model_mape_pct,
                           d->second.at(op).either_state_mape_pct);
      fmt::print(out, "{:<18} {:<10} {:>6} {:>13} {:>6.1f} {:>9.1f} {:>10.1f} {:>13}{}\n", device, op, s.held_rows,
                 s.nearer_boost, s.model_mape_pct, s.either_state_mape_pct, s.control_mape_pct,
                 fmt::format("{} of {}", s.shapes_in_both, s.shapes), held);
    }
  fmt::print(out, "\n");
}

void print_table(std::FILE* out, const std::string& title, const ErrorTable& table) {
  fmt::print(out, "{}\n{:<18} {:<10} {:>7} {:>9} {:>12}\n", title, "device", "op", "rows", "MAPE %", "within 20%");
  for (const auto& [device, ops] : table)
    for (const auto& [op, s] : ops)
      fmt::print(out, "{:<18} {:<10} {:>7} {:>9.1f} {:>11.0f}%\n", device, op, s.rows, s.mape_pct,
                 100 * s.within_20pct);
  fmt::print(out, "\n");
}

// A saved calibration (--save-calibration's or dse calibrate's file) and the GPUs it names.
struct SavedCalibration {
  KernelCalibration calibration;
  std::vector<std::string> fitted_on;
};

// Reads `file` to predict `gpus`' rows with. A fit to one GPU's kernels describes that GPU
// (device.calibration refuses it elsewhere); here predicting other GPUs with it is a question
// worth asking, so it is said, not refused.
SavedCalibration load_saved_calibration(const std::string& file, const std::vector<std::string>& gpus) {
  const ConfigNode root = load_config_file(file);
  SavedCalibration saved{read_kernel_calibration(root), kernel_calibration_fitted_on(root)};
  std::vector<std::string> others;
  for (const auto& name : gpus)
    if (saved.fitted_on.size() == 1 && name != saved.fitted_on.front()) others.push_back(name);
  if (!others.empty())
    fmt::print(stderr, "dse: warning: {} was fitted on {} only; the rows of {} are predicted with it too\n", file,
               saved.fitted_on.front(), join_names(others));
  return saved;
}

nlohmann::json clocks_json(const ModelClocks& clocks) {
  return {{"base", clocks.base_mhz},
          {"boost", clocks.boost_mhz},
          {"sgemm", clocks.sgemm_mhz},
          {"fp16_tensor", clocks.fp16_tensor_mhz ? nlohmann::json(*clocks.fp16_tensor_mhz) : nlohmann::json(nullptr)}};
}

void print_clocks(std::FILE* out, const std::map<std::string, ModelClocks>& clocks) {
  fmt::print(out,
             "clocks the model uses, MHz (SGEMM and FP16 tensor-core GEMM under the calibration):\n"
             "{:<18} {:>7} {:>7} {:>7} {:>12}\n",
             "device", "base", "boost", "sgemm", "fp16 tensor");
  for (const auto& [device, c] : clocks)
    fmt::print(out, "{:<18} {:>7.0f} {:>7.0f} {:>7.0f} {:>12}\n", device, c.base_mhz, c.boost_mhz, c.sgemm_mhz,
               c.fp16_tensor_mhz ? fmt::format("{:.0f}", *c.fp16_tensor_mhz) : std::string("-"));
  fmt::print(out, "\n");
}

nlohmann::json calibration_json(const KernelCalibration& c) {
  nlohmann::json json = nlohmann::json::object();
  for (const auto& [name, value] : kernel_calibration_parameters(c)) json[name] = value;
  return json;
}

int validate_kernels(const ValidateOptions& options) {
  std::vector<KernelMeasurement> rows;
  for (const auto& file : options.files) {
    auto part = read_kernel_measurements(file);
    rows.insert(rows.end(), part.begin(), part.end());
  }
  const HardwareCatalog catalog = HardwareCatalog::for_listing();
  const std::vector<GpuSpec> specs = read_catalog_gpu_specs(catalog);
  std::map<std::string, std::size_t> unmatched;
  const auto devices = match_devices(rows, specs, unmatched);
  for (const auto& [device, count] : unmatched)
    fmt::print(stderr, "dse: warning: {} rows of device '{}' skipped: no GPU spec lists it in device_names\n", count,
               device);
  if (devices.empty()) {
    std::vector<std::string> found;
    for (const auto& [device, count] : unmatched) found.push_back("'" + device + "'");
    throw UserError(
        fmt::format("{}: no row's Device is listed in a GPU spec's device_names (found {}); `dse list gpu` "
                    "shows the specs",
                    join_names(options.files), found.empty() ? "no rows" : join_names(found)));
  }
  if (options.leave_one_out && devices.size() < 2) {
    std::vector<std::string> names;
    for (const auto& [name, device] : devices) names.push_back(name);
    throw UserError(fmt::format("--leave-one-out: the rows cover one GPU ({}); it needs measurements of two or more",
                                join_names(names)));
  }

  std::optional<Hdf5File> output;  // created before the work, so that one that cannot be stops it first
  if (!options.output.empty()) output.emplace(options.output);
  // A saved calibration (--save-calibration's or dse calibrate's file) replaces the defaults; the
  // CLI refuses it beside --fit and --leave-one-out, which fit from the defaults.
  KernelCalibration start;
  std::vector<std::string> fitted_on;  // what --save-calibration records: the file's GPUs, else the rows'
  for (const auto& [name, device] : devices) fitted_on.push_back(name);
  if (!options.calibration_file.empty()) {
    auto saved = load_saved_calibration(options.calibration_file, fitted_on);
    start = saved.calibration;
    fitted_on = std::move(saved.fitted_on);
  }
  const KernelValidationOptions study{start, options.fit, options.leave_one_out};
  std::optional<ProgressBar> bar;  // leave-one-out: a few seconds per GPU; drawn on a terminal only
  const KernelValidationReport report =
      validate_kernel_rows(devices, study, [&bar](std::size_t done, std::size_t total, const std::string& device) {
        if (!bar) bar.emplace("leave-one-out fits", total);
        bar->update(done, device.empty() ? std::string() : "fitting without " + device);
      });
  if (bar) bar->finish();
  const KernelCalibration& calibration = report.calibration;

  nlohmann::json json = {{"devices", table_json(report.errors)}, {"calibration", calibration_json(calibration)}};
  if (!options.calibration_file.empty()) json["calibration_file"] = options.calibration_file;
  if (const auto& one_gpu = report.one_gpu) {
    json["held_out"] = {{"fitted_rows", one_gpu->fitted_rows},
                        {"held_out_rows", one_gpu->held_out_rows},
                        {"fitted", table_json(one_gpu->held_out_fitted)},
                        {"default", table_json(one_gpu->held_out_default)}};
    if (!options.mode.quiet) {
      print_table(options.mode.human(),
                  fmt::format("one GPU: fitted on {} rows with a prior at the defaults; the {} rows held out, "
                              "calibrated:",
                              one_gpu->fitted_rows, one_gpu->held_out_rows),
                  one_gpu->held_out_fitted);
      print_table(options.mode.human(),
                  "the same held-out rows with the default calibration:", one_gpu->held_out_default);
    }
  }
  for (const auto& [name, clocks] : report.clocks) json["clocks_mhz"][name] = clocks_json(clocks);
  if (!options.mode.quiet) {
    print_table(options.mode.human(),
                report.one_gpu                      ? "calibrated, every row (fitted and held out):"
                : options.fit                       ? "fitted on every device:"
                : !options.calibration_file.empty() ? "calibration " + options.calibration_file + ":"
                                                    : "default calibration:",
                report.errors);
    print_clocks(options.mode.human(), report.clocks);
  }

  if (!options.save_calibration.empty()) {
    write_file_atomically(options.save_calibration,
                          kernel_calibration_yaml(calibration, fitted_on,
                                                  options.fit                         ? "dse validate kernels --fit"
                                                  : !options.calibration_file.empty() ? options.calibration_file
                                                                                      : "dse defaults"));
  }
  if (!options.predictions_file.empty())
    write_file_atomically(options.predictions_file, kernel_predictions_csv(devices, calibration));
  if (options.leave_one_out) {
    nlohmann::json fits = nlohmann::json::object(), clocks = nlohmann::json::object();
    for (const auto& [name, fitted] : report.held_out_fits) fits[name] = calibration_json(fitted);
    for (const auto& [name, held_out_clocks] : report.held_out_clocks) clocks[name] = clocks_json(held_out_clocks);
    json["leave_one_out"] = {{"devices", table_json(report.held_out)}, {"calibrations", fits}, {"clocks_mhz", clocks}};
    if (!options.mode.quiet)
      print_table(options.mode.human(),
                  "leave one GPU out (fitted on the others, predicted from the datasheet):", report.held_out);
  }
  const std::pair<const char*, const FloorComparison*> floors[] = {{"batch_scaling_floor", &report.batch_scaling},
                                                                   {"affine_floor", &report.affine}};
  for (const auto& [json_key, floor] : floors) {
    json[json_key] = {{"floor", table_json(floor->floor)}, {"model", table_json(floor->model)}};
    if (options.leave_one_out) json[json_key]["held_out_model"] = table_json(floor->held_out);
  }
  if (!options.mode.quiet) {
    print_floor_table(
        options.mode.human(),
        fmt::format("batch-scaling floor: rows >= {:g} ms whose shape also ran at {}+ other batch sizes, each shape at "
                    "its best\nconstant throughput (no model whose speed depends on the per-item shape alone does "
                    "better)",
                    report.batch_scaling.rows.min_latency_ms, report.batch_scaling.rows.min_group_rows - 1),
        report.batch_scaling);
    print_floor_table(
        options.mode.human(),
        fmt::format("fixed-plus-per-item floor: every row whose shape also ran at {}+ other batch sizes, each shape "
                    "at its best\nlatency = a + b x items, a, b >= 0 (no model whose time for a shape is a fixed "
                    "cost plus a per-item cost does better)",
                    report.affine.rows.min_group_rows - 1),
        report.affine);
  }
  json["clock_states"] = {{"model", clock_states_json(report.clock_states)}};
  if (options.leave_one_out) json["clock_states"]["held_out_model"] = clock_states_json(report.held_out_clock_states);
  if (!options.mode.quiet) print_clock_states(options.mode.human(), report.clock_states, report.held_out_clock_states);
  json["tile_choice"] = {{"dse_tile", table_json(report.tile_choice.dse_tile)},
                         {"measured_tile", table_json(report.tile_choice.measured_tile)}};
  if (!options.mode.quiet) print_tile_choice(options.mode.human(), report.tile_choice);
  if (output)
    write_kernel_validation_h5(
        *output, devices,
        KernelValidationRun{options.files, options.fit, options.leave_one_out, calibration, report.held_out_fits});
  if (options.mode.json) options.mode.print_json(json);
  return 0;
}

struct E2eOptions {
  std::string file;
  std::string output;  // HDF5 for `dse report`
  OutputMode mode;
};

// NeuSight's e2e_labels.csv, simulated by hwcal/e2e_validation.h.
int validate_e2e(const E2eOptions& options) {
  std::optional<Hdf5File> output;  // created before the work, so that one that cannot be stops it first
  if (!options.output.empty()) output.emplace(options.output);
  const E2eValidation validation = predict_e2e_labels(options.file);
  const std::vector<E2eRow>& rows = validation.rows;
  nlohmann::json json_rows = nlohmann::json::array();
  double error_sum = 0;
  if (!options.mode.quiet)
    fmt::print(options.mode.human(), "{:<16} {:<32} {:>12} {:>12} {:>8}\n", "gpu", "config", "measured_ms",
               "predicted_ms", "error");
  for (const auto& row : rows) {
    error_sum += std::abs(row.error());
    json_rows.push_back({{"gpu", row.gpu},
                         {"config", row.config},
                         {"measured", row.forward_of_training ? "fw_latency_ms" : "e2e_latency_ms"},
                         {"measured_ms", row.measured_ms},
                         {"predicted_ms", row.predicted_ms},
                         {"error_pct", 100 * row.error()}});
    if (!options.mode.quiet)
      fmt::print(options.mode.human(), "{:<16} {:<32} {:>12.1f} {:>12.1f} {:>+7.1f}%\n", row.gpu,
                 row.forward_of_training ? row.config + " (fw)" : row.config, row.measured_ms, row.predicted_ms,
                 100 * row.error());
  }
  // No simulated row has no error to average: null in JSON, said so in text.
  const std::optional<double> mape =
      rows.empty() ? std::nullopt : std::optional(100 * error_sum / static_cast<double>(rows.size()));
  nlohmann::json json_skipped = nlohmann::json::array();
  for (const auto& skip : validation.skipped)
    json_skipped.push_back(
        {{"line", skip.line}, {"device", skip.device}, {"config", skip.config}, {"reason", skip.reason}});
  if (!options.mode.quiet) {
    if (mape)
      fmt::print(options.mode.human(), "MAPE {:.1f} % over {} rows (\"(fw)\": a training row's forward pass)\n", *mape,
                 rows.size());
    else
      fmt::print(options.mode.human(), "no row dse could simulate: no MAPE\n");
    if (!validation.skipped.empty()) {
      fmt::print(options.mode.human(), "\nskipped {} rows dse cannot simulate:\n", validation.skipped.size());
      for (const auto& skip : validation.skipped)
        fmt::print(options.mode.human(), "  {}:{}: {} {}: {}\n", options.file, skip.line, skip.device, skip.config,
                   skip.reason);
    }
  }
  if (output) write_e2e_validation_h5(*output, options.file, rows);
  if (options.mode.json)
    options.mode.print_json({{"rows", json_rows},
                             {"mape_pct", mape ? nlohmann::json(*mape) : nlohmann::json(nullptr)},
                             {"skipped", json_skipped}});
  return 0;
}

struct GemmOptions {
  std::string file;
  std::string gpu = "a100_sxm4_80gb";
  std::string dtype = "fp16";
  std::string output;            // HDF5 for `dse report`
  std::string calibration_file;  // predict with this calibration instead of the defaults
  bool back_to_back = false;     // the rows are means of launches in a loop (no harness floor)
  OutputMode mode;
};

// LLMCompass's measured GEMMs, predicted by hwcal/gemm_validation.h.
int validate_gemm(const GemmOptions& options) {
  // A catalog name, or a spec file of one's own (a value ending in .yaml, as device.gpu takes it).
  std::optional<std::string> spec_path;
  if (options.gpu.ends_with(".yaml")) {
    if (!config_file_exists(options.gpu))
      throw UserError("--gpu: expected an existing GPU spec file, found no file '" + options.gpu + "'");
    spec_path = options.gpu;
  } else {
    const HardwareCatalog catalog = HardwareCatalog::for_listing();
    spec_path = catalog.find("gpu", options.gpu);
    if (!spec_path) {
      const auto names = catalog.names("gpu");
      throw UserError("--gpu: expected a GPU spec name (" + join_names(names) + ") or a .yaml file, found '" +
                      options.gpu + "'" + did_you_mean_suffix(options.gpu, names));
    }
  }
  const auto dtype = parse_dtype(options.dtype);
  if (!dtype)
    throw UserError("--dtype: expected one of " + join_names(compute_dtype_names()) + ", found '" + options.dtype +
                    "'");
  std::optional<Hdf5File> output;  // created before the work, so that one that cannot be stops it first
  if (!options.output.empty()) output.emplace(options.output);
  const GpuSpec spec = read_gpu_spec(load_config_file(*spec_path));
  const KernelCalibration calibration = options.calibration_file.empty()
                                            ? KernelCalibration{}
                                            : load_saved_calibration(options.calibration_file, {spec.name}).calibration;
  const GemmValidation result = predict_llmcompass_gemms(
      options.file, spec, *dtype, calibration, options.back_to_back ? GemmTiming::back_to_back : GemmTiming::alone);
  nlohmann::json rows = nlohmann::json::array();
  double error_sum = 0;
  int within = 0;
  if (!options.mode.quiet)
    fmt::print(options.mode.human(), "{:>7} {:>7} {:>7} {:>12} {:>12} {:>8} {:>9} {:>8}\n", "M", "N", "K",
               "measured_ms", "predicted_ms", "error", "clock_mhz", "power_w");
  for (const auto& row : result.rows) {
    error_sum += std::abs(row.error());
    within += std::abs(row.error()) <= 0.2 ? 1 : 0;
    rows.push_back({{"m", row.m},
                    {"n", row.n},
                    {"k", row.k},
                    {"measured_ms", row.measured_ms},
                    {"predicted_ms", row.predicted_ms},
                    {"error_pct", 100 * row.error()},
                    {"clock_mhz", row.clock_mhz},
                    {"power_w", row.power_w}});
    if (!options.mode.quiet)
      fmt::print(options.mode.human(), "{:>7} {:>7} {:>7} {:>12.4f} {:>12.4f} {:>+7.1f}% {:>9.0f} {:>8.0f}\n", row.m,
                 row.n, row.k, row.measured_ms, row.predicted_ms, 100 * row.error(), row.clock_mhz, row.power_w);
  }
  const double count = static_cast<double>(result.rows.size());
  const double mape = count > 0 ? 100 * error_sum / count : 0;
  const double share = count > 0 ? within / count : 0;
  if (!options.mode.quiet)
    fmt::print(options.mode.human(),
               "{} on {}: MAPE {:.1f} %, {:.0f} % within 20 %, {} rows; modelled clock {:.0f} MHz\n", options.dtype,
               spec.name, mape, 100 * share, result.rows.size(), result.clock_mhz);
  if (output) write_gemm_validation_h5(*output, options.file, spec.name, options.dtype, result.rows);
  if (options.mode.json)
    options.mode.print_json({{"gpu", spec.name},
                             {"dtype", options.dtype},
                             {"timing", options.back_to_back ? "back_to_back" : "alone"},
                             {"calibration_file", options.calibration_file},
                             {"rows", rows},
                             {"mape_pct", mape},
                             {"within_20pct", share},
                             {"clock_mhz", result.clock_mhz}});
  return 0;
}

}  // namespace

Subcommand add_validate_command(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* command = app.add_subcommand("validate", "Compare the GPU model with measurements");
  command->require_subcommand(1);
  CLI::App* kernels = command->add_subcommand("kernels", "Predict measured kernel latencies (NeuSight CSV format)");
  kernels->add_option("files", options->files, "Measurement CSVs")->required()->check(CLI::ExistingFile);
  kernels->add_flag("--fit", options->fit, "Fit the calibration parameters to all rows first");
  kernels->add_flag("--leave-one-out", options->leave_one_out,
                    "Also fit on all GPUs but one and predict that one, for each GPU");
  kernels
      ->add_option("--save-calibration", options->save_calibration,
                   "Write the calibration used (fitted with --fit) for device.calibration")
      ->type_name("FILE.yaml");
  kernels->add_option("--predictions", options->predictions_file, "Write every row's prediction to this CSV")
      ->type_name("FILE.csv");
  kernels
      ->add_option("--calibration", options->calibration_file,
                   "Predict with this calibration (a file --save-calibration or dse calibrate wrote) instead of the "
                   "defaults")
      ->type_name("FILE.yaml")
      ->check(CLI::ExistingFile)
      ->excludes("--fit")
      ->excludes("--leave-one-out");
  kernels
      ->add_option("--output", options->output,
                   "Write every row, its prediction and (with --leave-one-out) its held-out prediction as HDF5 for "
                   "dse report")
      ->type_name("FILE.h5");
  add_output_flags(*kernels, options->mode, true);
  auto e2e = std::make_shared<E2eOptions>();
  CLI::App* e2e_command =
      command->add_subcommand("e2e", "Predict measured end-to-end inference latencies (NeuSight e2e_labels.csv)");
  e2e_command->add_option("file", e2e->file, "e2e_labels.csv")->required()->check(CLI::ExistingFile);
  e2e_command
      ->add_option("--output", e2e->output, "Write every row and its prediction as HDF5 for dse report (op: the model)")
      ->type_name("FILE.h5");
  add_output_flags(*e2e_command, e2e->mode, true);
  auto gemm = std::make_shared<GemmOptions>();
  CLI::App* gemm_command =
      command->add_subcommand("gemm", "Predict measured GEMM latencies (LLMCompass format: M, N, K, TIMEms)");
  gemm_command->add_option("file", gemm->file, "The measurements")->required()->check(CLI::ExistingFile);
  gemm_command->add_option("--gpu", gemm->gpu,
                           "GPU spec the measurements were taken on: a name (dse list gpu) or a .yaml file (default "
                           "a100_sxm4_80gb)");
  gemm_command->add_option("--dtype", gemm->dtype, "Element type (default fp16: tensor cores)");
  gemm_command
      ->add_option("--calibration", gemm->calibration_file,
                   "Predict with this calibration (a file --save-calibration or dse calibrate wrote) instead of the "
                   "defaults")
      ->type_name("FILE.yaml")
      ->check(CLI::ExistingFile);
  gemm_command->add_flag("--back-to-back", gemm->back_to_back,
                         "Each time is the mean of many launches in a loop (a benchmark's), not one GEMM timed on its "
                         "own: predict each launch's kernels without the harness floor (timing_floor_us)");
  gemm_command
      ->add_option("--output", gemm->output,
                   "Write every row and its prediction as HDF5 for dse report (op: gemm_DTYPE)")
      ->type_name("FILE.h5");
  add_output_flags(*gemm_command, gemm->mode, true);
  const Subcommand batchdvfs = add_validate_batchdvfs_command(*command);
  return {command, [options, kernels, e2e, e2e_command, gemm, batchdvfs] {
            if (kernels->parsed()) return validate_kernels(*options);
            if (e2e_command->parsed()) return validate_e2e(*e2e);
            if (batchdvfs.command->parsed()) return batchdvfs.action();
            return validate_gemm(*gemm);
          }};
}

}  // namespace dse
