// `dse validate kernels|e2e|gemm`: how well the GPU timing models predict measured latencies.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "cli/batch_scaling_floor.h"
#include "cli/command.h"
#include "cli/kernel_validation.h"
#include "models/base/csv_table.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "models/ops/op_library.h"
#include "models/transforms/fusion.h"
#include "models/zoo/zoo.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_lowering.h"
#include "sim/gpu/kernel_calibration_io.h"
#include "sim/output/atomic_file.h"
#include "sim/gpu/gpu_device.h"
#include "sim/run/simulation.h"

namespace dse {
namespace {

struct ValidateOptions {
  std::vector<std::string> files;
  bool fit = false;
  bool leave_one_out = false;
  std::string predictions_file;
  std::string save_calibration;
  OutputMode mode;
};

nlohmann::json table_json(const ErrorTable& table) {
  nlohmann::json devices = nlohmann::json::object();
  for (const auto& [device, ops] : table)
    for (const auto& [op, s] : ops)
      devices[device][op] = {{"mape_pct", s.mape_pct}, {"within_20pct", s.within_20pct}, {"rows", s.rows}};
  return devices;
}

// A floor of the measurements' own scatter over some of the rows (`grouped`), beside dse's MAPE
// on the same rows: with the default or fitted calibration, and held out when leave-one-out ran.
struct FloorReport {
  std::string json_key;
  std::string title;  // printed above the table
  std::map<std::string, DeviceRows> grouped;
  ErrorTable floor, model, held_out;
};

void print_floor_table(std::FILE* out, const FloorReport& report) {
  const auto mape = [](const ErrorTable& t, const std::string& device, const std::string& op) {
    const auto d = t.find(device);
    return d == t.end() || !d->second.contains(op) ? std::string("-") : fmt::format("{:.1f}", d->second.at(op).mape_pct);
  };
  fmt::print(out, "{}\n{:<18} {:<10} {:>7} {:>9} {:>9}{}\n", report.title, "device", "op", "rows", "floor %", "dse %",
             report.held_out.empty() ? "" : " held out %");
  for (const auto& [device, ops] : report.floor)
    for (const auto& [op, s] : ops)
      fmt::print(out, "{:<18} {:<10} {:>7} {:>9.1f} {:>9}{}\n", device, op, s.rows, s.mape_pct,
                 mape(report.model, device, op),
                 report.held_out.empty() ? "" : fmt::format(" {:>10}", mape(report.held_out, device, op)));
  fmt::print(out, "\n");
}

void print_table(std::FILE* out, const std::string& title, const ErrorTable& table) {
  fmt::print(out, "{}\n{:<18} {:<10} {:>7} {:>9} {:>12}\n", title, "device", "op", "rows", "MAPE %", "within 20%");
  for (const auto& [device, ops] : table)
    for (const auto& [op, s] : ops)
      fmt::print(out, "{:<18} {:<10} {:>7} {:>9.1f} {:>11.0f}%\n", device, op, s.rows, s.mape_pct, 100 * s.within_20pct);
  fmt::print(out, "\n");
}

// The clocks the timing model gives each GPU under `calibration`: an SGEMM's and an FP16
// tensor-core GEMM's (null without tensor cores), beside the datasheet's base and boost.
nlohmann::json clocks_json(const GpuSpec& spec, const KernelCalibration& calibration) {
  const KernelTimer timer(spec, calibration);
  return {{"base", spec.base_clock_mhz},
          {"boost", spec.boost_clock_mhz},
          {"sgemm", timer.sustained_clock_mhz()},
          {"fp16_tensor", spec.tensor_core_flops_per_clock.contains("fp16")
                              ? nlohmann::json(timer.gemm_clock_mhz("fp16"))
                              : nlohmann::json(nullptr)}};
}

void print_clocks(std::FILE* out, const nlohmann::json& clocks) {
  fmt::print(out, "clocks the model uses, MHz (SGEMM and FP16 tensor-core GEMM under the calibration):\n"
                  "{:<18} {:>7} {:>7} {:>7} {:>12}\n",
             "device", "base", "boost", "sgemm", "fp16 tensor");
  for (const auto& [device, c] : clocks.items())
    fmt::print(out, "{:<18} {:>7.0f} {:>7.0f} {:>7.0f} {:>12}\n", device, c["base"].get<double>(),
               c["boost"].get<double>(), c["sgemm"].get<double>(),
               c["fp16_tensor"].is_null() ? std::string("-") : fmt::format("{:.0f}", c["fp16_tensor"].get<double>()));
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
    fmt::print(stderr, "dse: warning: {} rows of device '{}' skipped: no GPU spec lists it in device_names\n", count, device);
  if (devices.empty()) {
    std::vector<std::string> found;
    for (const auto& [device, count] : unmatched) found.push_back("'" + device + "'");
    throw UserError(fmt::format("{}: no row's Device is listed in a GPU spec's device_names (found {}); `dse list gpu` "
                                "shows the specs",
                                join_names(options.files), found.empty() ? "no rows" : join_names(found)));
  }
  if (options.leave_one_out && devices.size() < 2) {
    std::vector<std::string> names;
    for (const auto& [name, device] : devices) names.push_back(name);
    throw UserError(fmt::format("--leave-one-out: the rows cover one GPU ({}); it needs measurements of two or more",
                                join_names(names)));
  }

  KernelCalibration calibration;
  if (options.fit) calibration = fit_calibration(devices, calibration);
  const ErrorTable table = evaluate(devices, calibration);
  nlohmann::json json = {{"devices", table_json(table)}, {"calibration", calibration_json(calibration)}};
  for (const auto& [name, device] : devices) json["clocks_mhz"][name] = clocks_json(device.spec, calibration);
  if (!options.mode.quiet) {
    print_table(options.mode.human(), options.fit ? "fitted on every device:" : "default calibration:", table);
    print_clocks(options.mode.human(), json["clocks_mhz"]);
  }
  // The measurements' own scatter, and dse's error on the same rows.
  const FloorOptions long_rows;  // defaults: rows of 1 ms or more
  const FloorOptions all_rows{.min_latency_ms = 0};
  auto long_groups = batch_scaling_rows(devices, long_rows);
  auto all_groups = batch_scaling_rows(devices, all_rows);
  ErrorTable long_floor = batch_scaling_floor(long_groups), all_floor = affine_floor(all_groups);
  std::vector<FloorReport> floors;
  floors.push_back({"batch_scaling_floor",
                    fmt::format("batch-scaling floor: rows >= {:g} ms whose shape also ran at {}+ other batch sizes, "
                                "each shape at its best\nconstant throughput (no model whose speed depends on the "
                                "per-item shape alone does better)",
                                long_rows.min_latency_ms, long_rows.min_group_rows - 1),
                    std::move(long_groups), std::move(long_floor), {}, {}});
  floors.push_back({"affine_floor",
                    fmt::format("fixed-plus-per-item floor: every row whose shape also ran at {}+ other batch sizes, "
                                "each shape at its best\nlatency = a + b x items, a, b >= 0 (no model whose time for "
                                "a shape is a fixed cost plus a per-item cost does better)",
                                all_rows.min_group_rows - 1),
                    std::move(all_groups), std::move(all_floor), {}, {}});
  for (auto& report : floors) report.model = evaluate(report.grouped, calibration);

  if (!options.save_calibration.empty()) {
    std::vector<std::string> fitted_on;
    for (const auto& [name, device] : devices) fitted_on.push_back(name);
    write_file_atomically(options.save_calibration,
                          kernel_calibration_yaml(calibration, fitted_on,
                                                  options.fit ? "dse validate kernels --fit" : "dse defaults"));
  }
  if (!options.predictions_file.empty()) {
    // The measured launch (kernel name, grid blocks) beside dse's, to tell tile-choice errors
    // from timing errors.
    std::string csv =
        "device,op,b,m,n,k,measured_ms,predicted_ms,error_pct,measured_kernel,measured_blocks,predicted_kernels,"
        "predicted_blocks\n";
    for (const auto& [name, device] : devices) {
      const KernelTimer timer(device.spec, calibration);
      for (const auto& row : device.rows) {
        const auto kernels = predict_kernels(row, timer);
        std::int64_t blocks = 0;
        std::string names;
        for (const auto& kernel : kernels) {
          blocks += kernel.blocks;
          names += (names.empty() ? "" : ";") + kernel.name;
        }
        const double predicted_ms = timed_alone_s(kernels, timer) * 1e3;
        csv += fmt::format("{},{},{},{},{},{},{:.6g},{:.6g},{:.2f},{},{},{},{}\n", name, row.op, row.b, row.m, row.n,
                           row.k, row.latency_ms, predicted_ms, 100 * (predicted_ms / row.latency_ms - 1),
                           csv_field(row.kernel), row.grid[0] * row.grid[1] * row.grid[2], names, blocks);
      }
    }
    write_file_atomically(options.predictions_file, csv);
  }
  if (options.leave_one_out) {
    ErrorTable held_out;
    nlohmann::json fits = nlohmann::json::object(), clocks = nlohmann::json::object();
    for (const auto& [name, device] : devices) {
      auto others = devices;
      others.erase(name);
      const KernelCalibration fitted = fit_calibration(others, KernelCalibration{});
      fits[name] = calibration_json(fitted);
      clocks[name] = clocks_json(device.spec, fitted);
      const auto one = evaluate({{name, device}}, fitted);
      held_out[name] = one.at(name);
      for (auto& report : floors)
        if (report.grouped.contains(name))
          report.held_out[name] = evaluate({{name, report.grouped.at(name)}}, fitted).at(name);
    }
    json["leave_one_out"] = {{"devices", table_json(held_out)}, {"calibrations", fits}, {"clocks_mhz", clocks}};
    if (!options.mode.quiet)
      print_table(options.mode.human(), "leave one GPU out (fitted on the others, predicted from the datasheet):", held_out);
  }
  for (const auto& report : floors) {
    json[report.json_key] = {{"floor", table_json(report.floor)}, {"model", table_json(report.model)}};
    if (options.leave_one_out) json[report.json_key]["held_out_model"] = table_json(report.held_out);
    if (!options.mode.quiet) print_floor_table(options.mode.human(), report);
  }
  if (options.mode.json) options.mode.print_json(json);
  return 0;
}

struct E2eOptions {
  std::string file;
  OutputMode mode;
};

// NeuSight's e2e_labels.csv: device (spaces as '_'), config "model-mode-seq-batch[-fusion]",
// num_layer, e2e_latency_ms. Inference rows of zoo models are simulated with the kernel model,
// fp32, one stream; "-fusion" rows after dse's fusion transforms.
int validate_e2e(const E2eOptions& options) {
  const CsvTable table = CsvTable::read(options.file);
  const auto device_col = table.column("device"), config_col = table.column(table.header().at(1)),
             latency_col = table.column("e2e_latency_ms");
  const HardwareCatalog catalog = HardwareCatalog::for_listing();
  const std::vector<GpuSpec> specs = read_catalog_gpu_specs(catalog);
  nlohmann::json rows = nlohmann::json::array();
  double error_sum = 0;
  int counted = 0;
  if (!options.mode.quiet)
    fmt::print(options.mode.human(), "{:<16} {:<32} {:>12} {:>12} {:>8}\n", "gpu", "config", "measured_ms", "predicted_ms", "error");
  for (const auto& row : table.rows()) {
    std::string device = table.text(row, device_col);
    std::replace(device.begin(), device.end(), '_', ' ');
    const GpuSpec* spec = find_spec_by_device_name(specs, device);
    const std::string config = table.text(row, config_col);
    std::vector<std::string> parts;
    for (std::size_t start = 0, dash; start <= config.size(); start = dash + 1) {
      dash = config.find('-', start);
      if (dash == std::string::npos) dash = config.size();
      parts.push_back(config.substr(start, dash - start));
    }
    if (!spec || parts.size() < 4 || parts[1] != "inf") continue;
    const auto* builder = ModelRegistry::instance().find(parts[0]);
    if (!builder) continue;
    Experiment experiment;
    experiment.name = config;
    experiment.device = std::make_shared<const GpuDevice>(*spec, "kernel", std::nullopt, "", std::vector<HardwareFile>{});
    ModelRequest model;
    model.name = parts[0];
    const auto bad_cell = [&](std::size_t column, const std::string& expected) {
      return UserError(fmt::format("{}:{}:{}: {}: expected {}, found '{}'", table.path(), row.line,
                                   row.cells[column].column, table.header()[column], expected, row.cells[column].text));
    };
    const auto positive_int = [&](const std::string& text) {
      int value = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc{} || end != text.data() + text.size() || value <= 0)
        throw bad_cell(config_col, "MODEL-inf-SEQ-BATCH[-fusion] with positive integers SEQ and BATCH");
      return value;
    };
    model.params.seq_len = positive_int(parts[2]);
    model.params.batch = positive_int(parts[3]);
    Graph graph = builder->factory(model.params);
    const bool fusion = parts.size() > 4 && parts[4] == "fusion";
    if (fusion)
      for (const char* t : {"fuse_attention", "fuse_epilogues", "fuse_elementwise"})
        graph = transforms::TransformRegistry::instance().find(t)->factory(graph);
    model.graph = std::make_shared<const Graph>(std::move(graph));
    experiment.models.push_back(model);
    const double measured = table.number(row, latency_col);
    if (!(measured > 0)) throw bad_cell(latency_col, "a latency in ms > 0");
    const double predicted = run_experiment(experiment).latency_ms();
    const double error = predicted / measured - 1;
    error_sum += std::abs(error);
    ++counted;
    rows.push_back({{"gpu", spec->name}, {"config", config}, {"measured_ms", measured}, {"predicted_ms", predicted},
                    {"error_pct", 100 * error}});
    if (!options.mode.quiet)
      fmt::print(options.mode.human(), "{:<16} {:<32} {:>12.1f} {:>12.1f} {:>+7.1f}%\n", spec->name, config, measured,
                 predicted, 100 * error);
  }
  const double mape = counted ? 100 * error_sum / counted : 0;
  if (!options.mode.quiet) fmt::print(options.mode.human(), "MAPE {:.1f} % over {} rows\n", mape, counted);
  if (options.mode.json) options.mode.print_json({{"rows", rows}, {"mape_pct", mape}});
  return 0;
}

struct GemmOptions {
  std::string file;
  std::string gpu = "a100_sxm4_80gb";
  std::string dtype = "fp16";
  OutputMode mode;
};

// LLMCompass's measured GEMMs: lines "M, N, K, TIMEms, RATETflops" (no header), A[M x K] x B[K x N].
int validate_gemm(const GemmOptions& options) {
  std::ifstream in(options.file);
  if (!in) throw UserError(options.file + ": cannot read: no such file or not readable");
  const HardwareCatalog catalog = HardwareCatalog::for_listing();
  const auto spec_path = catalog.find("gpu", options.gpu);
  if (!spec_path) {
    const auto names = catalog.names("gpu");
    throw UserError("--gpu: expected a GPU spec name (" + join_names(names) + "), found '" + options.gpu + "'" +
                    did_you_mean_suffix(options.gpu, names));
  }
  const auto dtype = parse_dtype(options.dtype);
  if (!dtype) throw UserError("--dtype: expected one of " + join_names(compute_dtype_names()) + ", found '" + options.dtype + "'");
  const GpuSpec spec = read_gpu_spec(load_config_file(*spec_path));
  const KernelTimer timer(spec, KernelCalibration{});
  nlohmann::json rows = nlohmann::json::array();
  double error_sum = 0;
  int count = 0, within = 0, line_number = 0;
  std::string line;
  if (!options.mode.quiet)
    fmt::print(options.mode.human(), "{:>7} {:>7} {:>7} {:>12} {:>12} {:>8}\n", "M", "N", "K", "measured_ms", "predicted_ms", "error");
  while (std::getline(in, line)) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::stringstream fields(line);
    std::string m, n, k, time;
    std::getline(fields, m, ',');
    std::getline(fields, n, ',');
    std::getline(fields, k, ',');
    std::getline(fields, time, ',');
    double measured_ms = 0;
    std::int64_t dims[3] = {0, 0, 0};
    try {
      dims[0] = std::stoll(m);
      dims[1] = std::stoll(n);
      dims[2] = std::stoll(k);
      measured_ms = std::stod(time);  // "0.1900ms": the number, then the unit
    } catch (const std::exception&) {
      throw UserError(options.file + ":" + std::to_string(line_number) + ": expected 'M, N, K, TIMEms, ...', found '" + line + "'");
    }
    if (dims[0] < 1 || dims[1] < 1 || dims[2] < 1 || measured_ms <= 0)
      throw UserError(options.file + ":" + std::to_string(line_number) + ": expected positive sizes and time, found '" + line + "'");
    Graph graph("gemm");
    const auto a = graph.add_input("a", {dims[0], dims[2]}, *dtype);
    const auto b = graph.add_input("b", {dims[2], dims[1]}, *dtype);
    ops::matmul(graph, "gemm", a, b);
    // Each row times one GEMM on its own, as NeuSight's rows time one op.
    const double predicted_s = timed_alone_s(lower_op(graph, graph.ops().back(), timer), timer);
    const double error = predicted_s * 1e3 / measured_ms - 1;
    error_sum += std::abs(error);
    within += std::abs(error) <= 0.2 ? 1 : 0;
    ++count;
    rows.push_back({{"m", dims[0]}, {"n", dims[1]}, {"k", dims[2]}, {"measured_ms", measured_ms},
                    {"predicted_ms", predicted_s * 1e3}, {"error_pct", 100 * error}});
    if (!options.mode.quiet)
      fmt::print(options.mode.human(), "{:>7} {:>7} {:>7} {:>12.4f} {:>12.4f} {:>+7.1f}%\n", dims[0], dims[1], dims[2], measured_ms,
                 predicted_s * 1e3, 100 * error);
  }
  const double mape = count ? 100 * error_sum / count : 0;
  const double share = count ? static_cast<double>(within) / count : 0;
  // The clock the model runs these GEMMs at (kernel_timer.h), to set beside an observed one.
  const double clock_mhz = timer.gemm_clock_mhz(std::string(dtype_name(*dtype)));
  if (!options.mode.quiet)
    fmt::print(options.mode.human(), "{} on {}: MAPE {:.1f} %, {:.0f} % within 20 %, {} rows; modelled clock {:.0f} MHz\n",
               options.dtype, spec.name, mape, 100 * share, count, clock_mhz);
  if (options.mode.json)
    options.mode.print_json({{"gpu", spec.name},
                             {"dtype", options.dtype},
                             {"rows", rows},
                             {"mape_pct", mape},
                             {"within_20pct", share},
                             {"clock_mhz", clock_mhz}});
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
  kernels->add_option("--save-calibration", options->save_calibration,
                      "Write the calibration used (fitted with --fit) for device.calibration")
      ->type_name("FILE.yaml");
  kernels->add_option("--predictions", options->predictions_file, "Write every row's prediction to this CSV")
      ->type_name("FILE.csv");
  add_output_flags(*kernels, options->mode, true);
  auto e2e = std::make_shared<E2eOptions>();
  CLI::App* e2e_command = command->add_subcommand("e2e", "Predict measured end-to-end inference latencies (NeuSight e2e_labels.csv)");
  e2e_command->add_option("file", e2e->file, "e2e_labels.csv")->required()->check(CLI::ExistingFile);
  add_output_flags(*e2e_command, e2e->mode, true);
  auto gemm = std::make_shared<GemmOptions>();
  CLI::App* gemm_command = command->add_subcommand("gemm", "Predict measured GEMM latencies (LLMCompass format: M, N, K, TIMEms)");
  gemm_command->add_option("file", gemm->file, "The measurements")->required()->check(CLI::ExistingFile);
  gemm_command->add_option("--gpu", gemm->gpu, "GPU spec the measurements were taken on (default a100_sxm4_80gb)");
  gemm_command->add_option("--dtype", gemm->dtype, "Element type (default fp16: tensor cores)");
  add_output_flags(*gemm_command, gemm->mode, true);
  return {command, [options, kernels, e2e, e2e_command, gemm] {
            if (kernels->parsed()) return validate_kernels(*options);
            if (e2e_command->parsed()) return validate_e2e(*e2e);
            return validate_gemm(*gemm);
          }};
}

}  // namespace dse
