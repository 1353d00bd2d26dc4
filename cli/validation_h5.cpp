#include "cli/validation_h5.h"

#include <fmt/format.h>

#include <optional>

#include "hwcal/row_prediction.h"
#include "sim/gpu/kernel_calibration_io.h"
#include "sim/output/hdf5_file.h"

namespace dse {
namespace {

// /config (the run as YAML), /meta and the /validation columns.
void write_rows(Hdf5File& out, const std::string& config, const std::string& sources, const std::string& calibration,
                const std::vector<ValidationRow>& rows) {
  std::vector<std::string> gpu, op, file;
  std::vector<std::int64_t> line, b, m, n, k;
  std::vector<double> measured_ms, predicted_ms, held_out_ms;
  for (const auto& row : rows) {
    gpu.push_back(row.gpu);
    op.push_back(row.op);
    file.push_back(row.file);
    line.push_back(row.line);
    b.push_back(row.b);
    m.push_back(row.m);
    n.push_back(row.n);
    k.push_back(row.k);
    measured_ms.push_back(row.measured_ms);
    predicted_ms.push_back(row.predicted_ms);
    held_out_ms.push_back(row.held_out_ms);
  }
  out.string("/config", config);
  write_meta(out, "validation", sources, calibration, {}, {});
  out.group("/validation");
  out.strings("/validation/gpu", gpu);
  out.strings("/validation/op", op);
  out.strings("/validation/file", file);
  out.integers("/validation/line", line);
  out.integers("/validation/b", b);
  out.integers("/validation/m", m);
  out.integers("/validation/n", n);
  out.integers("/validation/k", k);
  out.doubles("/validation/measured_ms", measured_ms);
  out.doubles("/validation/predicted_ms", predicted_ms);
  out.doubles("/validation/held_out_ms", held_out_ms);
  out.commit();
}

}  // namespace

void write_kernel_validation_h5(Hdf5File& out, const std::map<std::string, DeviceRows>& devices,
                                const KernelValidationRun& run) {
  std::vector<ValidationRow> rows;
  for (const auto& [name, device] : devices) {
    const KernelTimer timer(device.spec, run.calibration);
    const auto held_out = run.held_out_fits.find(name);
    const std::optional<KernelTimer> held_out_timer =
        held_out == run.held_out_fits.end() ? std::nullopt
                                            : std::optional<KernelTimer>(std::in_place, device.spec, held_out->second);
    for (const auto& m : device.rows) {
      ValidationRow row{name, m.op, m.file, m.line,       m.b,
                        m.m,  m.n,  m.k,    m.latency_ms, predict_latency_s(m, timer) * 1e3};
      if (held_out_timer) row.held_out_ms = predict_latency_s(m, *held_out_timer) * 1e3;
      rows.push_back(std::move(row));
    }
  }
  std::string config = "# dse validate kernels\nvalidate: kernels\nfiles:\n";
  std::string sources;
  for (const auto& f : run.files) {
    config += fmt::format("  - '{}'\n", f);
    sources += (sources.empty() ? "" : ", ") + f;
  }
  config += fmt::format("fit: {}\nleave_one_out: {}\n", run.fit, run.leave_one_out);
  write_rows(out, config, sources, run.fit ? "fitted to these rows (--fit)" : kDefaultKernelCalibrationSource, rows);
}

void write_calibration_validation_h5(Hdf5File& out, const std::string& file, const std::string& gpu,
                                     const CalibrationCheck& check) {
  std::vector<ValidationRow> rows;
  for (std::size_t i = 0; i < check.rows.size(); ++i) {
    const auto& r = check.rows[i];
    const KernelMeasurement& m = *r.measurement;
    ValidationRow row{gpu, m.op,         file,        static_cast<std::int64_t>(i + 1), m.b, m.m, m.n,
                      m.k, m.latency_ms, r.default_ms};
    if (r.held_out) row.held_out_ms = r.fitted_ms;
    rows.push_back(std::move(row));
  }
  const std::string config = fmt::format("# dse calibration validate\nvalidate: calibration\nfile: '{}'\n", file);
  write_rows(out, config, file, file, rows);
}

void write_e2e_validation_h5(Hdf5File& out, const std::string& file, const std::vector<E2eRow>& e2e_rows) {
  std::vector<ValidationRow> rows;
  for (const auto& r : e2e_rows) {
    // NeuSight's config is "model-mode-seq-batch[-fusion]": the model is what the error is grouped by.
    std::string model = r.config.substr(0, r.config.find('-'));
    if (r.forward_of_training) model += " (fw)";
    rows.push_back({r.gpu, model, file, 0, 0, 0, 0, 0, r.measured_ms, r.predicted_ms});
  }
  write_rows(out, fmt::format("# dse validate e2e\nvalidate: e2e\nfiles:\n  - '{}'\n", file), file,
             kDefaultKernelCalibrationSource, rows);
}

void write_gemm_validation_h5(Hdf5File& out, const std::string& file, const std::string& gpu, const std::string& dtype,
                              const std::vector<GemmRow>& gemm_rows) {
  std::vector<ValidationRow> rows;
  for (const auto& r : gemm_rows)
    rows.push_back({gpu, "gemm_" + dtype, file, 0, 1, r.m, r.n, r.k, r.measured_ms, r.predicted_ms});
  write_rows(
      out, fmt::format("# dse validate gemm\nvalidate: gemm\ngpu: {}\ndtype: {}\nfiles:\n  - '{}'\n", gpu, dtype, file),
      file, kDefaultKernelCalibrationSource, rows);
}

}  // namespace dse
