#include "hwcal/session_fit.h"

#include <fmt/format.h>

#include <cmath>
#include <map>

#include "hwcal/row_prediction.h"

namespace dse {
namespace {

// FNV-1a: a hash that is the same on every machine (std::hash need not be).
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t hash = 1469598103934665603ULL;
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ULL;
  return hash;
}

std::string row_key(const KernelMeasurement& m) {
  std::string key = fmt::format("{} {} {} {} {} {}", m.op, dtype_name(m.dtype), m.b, m.m, m.n, m.k);
  if (m.conv)
    key += fmt::format(" {} {} {} {} {} {} {} {} {}", m.conv->channels, m.conv->height, m.conv->width, m.conv->out,
                       m.conv->r, m.conv->s, m.conv->stride, m.conv->pad, m.conv->groups);
  return key;
}

}  // namespace

const std::vector<std::string>& session_fit_parameters() {
  static const std::vector<std::string> names = {"gemm_efficiency",
                                                 "vector_efficiency",
                                                 "stream_efficiency",
                                                 "saturating_warps_per_scheduler",
                                                 "gemm_block_overhead_cycles",
                                                 "l2_reread_bytes_per_clock",
                                                 "launch_overhead_us",
                                                 "simt_tensor_energy_ratio",
                                                 "active_sm_power_share"};
  return names;
}

bool is_held_out(const KernelMeasurement& row, double share) {
  return static_cast<double>(fnv1a(row_key(row)) % 1000) < share * 1000;
}

namespace {

KernelCalibration fit_with_prior(const DeviceRows& device, const std::vector<std::string>& parameters,
                                 const SessionFitOptions& options) {
  if (device.rows.empty()) throw UserError("no measured kernel to fit (every one failed or is held out)");
  FitOptions fit;
  fit.parameters = parameters;
  fit.prior = KernelCalibration{};
  fit.prior_sigma = options.prior_sigma;
  fit.prior_rows = options.prior_rows;
  fit.difference_step = 1e-6;
  return fit_calibration({{device.spec.name, device}}, KernelCalibration{}, fit);
}

}  // namespace

KernelCalibration fit_session(std::vector<CalibrationRow>& rows, const GpuSpec& spec,
                              const SessionFitOptions& options) {
  DeviceRows device{spec, {}};
  for (auto& row : rows) {
    row.held_out = is_held_out(row.op, options.holdout_share);
    if (!row.held_out) device.rows.push_back(row.op);
  }
  return fit_with_prior(device, session_fit_parameters(), options);
}

OneGpuFit fit_one_gpu(const DeviceRows& device, const std::vector<std::string>& parameters,
                      const SessionFitOptions& options) {
  DeviceRows fitted{device.spec, {}}, held{device.spec, {}};
  for (const auto& row : device.rows) (is_held_out(row, options.holdout_share) ? held : fitted).rows.push_back(row);
  OneGpuFit out;
  out.calibration = fit_with_prior(fitted, parameters, options);
  out.fitted_rows = fitted.rows.size();
  out.held_out_rows = held.rows.size();
  if (!held.rows.empty()) {
    const std::map<std::string, DeviceRows> one{{device.spec.name, held}};
    out.held_out_fitted = evaluate(one, out.calibration);
    out.held_out_default = evaluate(one, KernelCalibration{});
  }
  return out;
}

CalibrationCheck check_calibration(const CalibrationFile& file, const GpuSpec& spec) {
  CalibrationCheck check;
  if (!file.session) return check;
  const KernelTimer defaults(spec, KernelCalibration{}), fitted(spec, file.parameters);
  std::map<std::string, std::vector<double>> default_errors, fitted_errors;
  std::vector<double> all_default, all_fitted;
  std::map<std::string, CalibrationCheck::Model> models;
  for (const auto& row : file.session->rows) {
    const double measured = row.op.latency_ms;
    const double by_default = predict_latency_s(row.op, defaults) * 1e3,
                 by_fit = predict_latency_s(row.op, fitted) * 1e3;
    check.rows.push_back({&row.op, row.held_out, by_default, by_fit});
    if (row.held_out) {
      default_errors[row.op.op].push_back(std::abs(by_default / measured - 1));
      fitted_errors[row.op.op].push_back(std::abs(by_fit / measured - 1));
      all_default.push_back(std::abs(by_default / measured - 1));
      all_fitted.push_back(std::abs(by_fit / measured - 1));
    }
    for (const auto& name : row.models) {
      auto& model = models[name];
      model.name = name;
      const auto count = static_cast<double>(row.count);
      model.measured_ms += count * measured;
      model.default_ms += count * by_default;
      model.fitted_ms += count * by_fit;
    }
  }
  for (const auto& [op, errors] : default_errors) check.held_out_default[op] = summarize_errors(errors);
  for (const auto& [op, errors] : fitted_errors) check.held_out_fitted[op] = summarize_errors(errors);
  check.all_default = summarize_errors(all_default);
  check.all_fitted = summarize_errors(all_fitted);
  for (auto& [name, model] : models) check.models.push_back(model);
  std::vector<double> pair_default, pair_fitted;
  for (const auto& pair : file.session->pairs) {
    pair_default.push_back(std::abs(predict_pair_latency_s(pair.a, pair.b, defaults) * 1e3 / pair.latency_ms - 1));
    pair_fitted.push_back(std::abs(predict_pair_latency_s(pair.a, pair.b, fitted) * 1e3 / pair.latency_ms - 1));
  }
  check.pairs_default = summarize_errors(pair_default);
  check.pairs_fitted = summarize_errors(pair_fitted);
  return check;
}

}  // namespace dse
