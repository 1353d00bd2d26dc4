#include "hwcal/prediction_errors.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "hwcal/measured_op.h"
#include "hwcal/row_prediction.h"
#include "models/base/csv_table.h"

namespace dse {

ErrorSummary summarize_errors(const std::vector<double>& errors) {
  ErrorSummary summary;
  summary.rows = errors.size();
  double sum = 0;
  std::size_t within = 0;
  for (const double e : errors) {
    sum += e;
    within += e <= 0.2 ? 1 : 0;
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, errors.size()));
  summary.mape_pct = 100 * sum / n;
  summary.within_20pct = static_cast<double>(within) / n;
  return summary;
}

ErrorTable evaluate(const std::map<std::string, DeviceRows>& devices, const KernelCalibration& calibration) {
  ErrorTable table;
  for (const auto& [name, device] : devices) {
    const KernelTimer timer(device.spec, calibration);
    std::map<std::string, std::vector<double>> errors;
    for (const auto& row : device.rows) {
      const double measured = row.latency_ms * 1e-3;
      errors[row.op].push_back(std::abs(predict_latency_s(row, timer) - measured) / measured);
    }
    for (const auto& [op, list] : errors) table[name][op] = summarize_errors(list);
  }
  return table;
}

TileChoiceReport evaluate_tile_choice(const std::map<std::string, DeviceRows>& devices,
                                      const KernelCalibration& calibration) {
  TileChoiceReport report;
  for (const auto& [name, device] : devices) {
    const KernelTimer timer(device.spec, calibration);
    std::map<std::string, std::vector<double>> own, given;
    for (const auto& row : device.rows) {
      const auto on_tile = predict_kernels_on_measured_tile(row, timer);
      if (on_tile.empty()) continue;
      const double measured = row.latency_ms * 1e-3;
      own[row.op].push_back(std::abs(predict_latency_s(row, timer) - measured) / measured);
      given[row.op].push_back(std::abs(timed_alone_s(on_tile, timer) - measured) / measured);
    }
    for (const auto& [op, list] : own) report.dse_tile[name][op] = summarize_errors(list);
    for (const auto& [op, list] : given) report.measured_tile[name][op] = summarize_errors(list);
  }
  return report;
}

std::string kernel_predictions_csv(const std::map<std::string, DeviceRows>& devices,
                                   const KernelCalibration& calibration) {
  std::string csv =
      "device,op,b,m,n,k,measured_ms,predicted_ms,error_pct,measured_kernel,measured_blocks,predicted_kernels,"
      "predicted_blocks,clock_mhz,power_w,measured_tile_predicted_ms,conv,power_at_boost_w,idle_w\n";
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
      const LongestKernel longest = longest_kernel(kernels, timer);
      const double clock_mhz = longest.kernel ? longest.time.clock_mhz : 0.0;
      const double predicted_ms = timed_alone_s(kernels, timer) * 1e3;
      const auto on_tile = predict_kernels_on_measured_tile(row, timer);
      const std::string on_tile_ms = on_tile.empty() ? "" : fmt::format("{:.6g}", timed_alone_s(on_tile, timer) * 1e3);
      // A convolution's layer: channels x height x width, filters, kernel, stride, padding, groups.
      std::string conv;
      if (row.conv) {
        const ConvShape& c = *row.conv;
        conv = fmt::format("{}x{}x{} to {} {}x{}/{} pad {} groups {}", c.channels, c.height, c.width, c.out, c.r, c.s,
                           c.stride, c.pad, c.groups);
      }
      csv += fmt::format(
          "{},{},{},{},{},{},{:.6g},{:.6g},{:.2f},{},{},{},{},{:.0f},{:.1f},{},{},{:.1f},{:.1f}\n", name, row.op, row.b,
          row.m, row.n, row.k, row.latency_ms, predicted_ms, 100 * (predicted_ms / row.latency_ms - 1),
          csv_field(row.kernel), grid_blocks(row) > 0 ? std::to_string(grid_blocks(row)) : "", names, blocks, clock_mhz,
          predict_power_w(row, timer), on_tile_ms, conv, predict_power_at_boost_w(row, timer), timer.power().idle_w());
    }
  }
  return csv;
}

}  // namespace dse
