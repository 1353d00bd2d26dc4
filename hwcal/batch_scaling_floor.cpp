#include "hwcal/batch_scaling_floor.h"

#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace dse {
namespace {

double items(const KernelMeasurement& row) { return static_cast<double>(row.op == "linear" ? row.b * row.m : row.b); }

// |a + b x_i - t_i| / t_i for the a, b >= 0 minimising their sum, with a = 0 unless `fixed_cost`
// (with a = 0, b is the time per item: the inverse of one constant throughput). The sum is convex and
// piecewise linear in (a, b), so a minimum lies on a vertex of its pieces within a, b >= 0: a line
// through one point and the origin (a = 0) or, with a fixed cost, through two of the points or a
// constant through one (b = 0). Groups are tens of rows, so trying every vertex (cubic in the rows)
// takes milliseconds.
std::vector<double> best_line_errors(const std::vector<double>& x, const std::vector<double>& t, bool fixed_cost) {
  const std::size_t n = x.size();
  const auto sum_for = [&](double a, double b) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += std::abs(a + b * x[i] - t[i]) / t[i];
    return sum;
  };
  double best_a = 0, best_b = 0, best_sum = std::numeric_limits<double>::infinity();
  const auto consider = [&](double a, double b) {
    if (a < 0 || b < 0) return;
    if (const double sum = sum_for(a, b); sum < best_sum) {
      best_sum = sum;
      best_a = a;
      best_b = b;
    }
  };
  for (std::size_t i = 0; i < n; ++i) {
    consider(0, t[i] / x[i]);
    if (!fixed_cost) continue;
    consider(t[i], 0);
    for (std::size_t j = i + 1; j < n; ++j) {
      if (x[j] == x[i]) continue;
      const double b = (t[j] - t[i]) / (x[j] - x[i]);
      consider(t[i] - b * x[i], b);
    }
  }
  std::vector<double> errors;
  for (std::size_t i = 0; i < n; ++i) errors.push_back(std::abs(best_a + best_b * x[i] - t[i]) / t[i]);
  return errors;
}

// The errors of each group's best line (best_line_errors) over items and latency, summarised per
// device and op.
ErrorTable per_group_errors(const std::map<std::string, DeviceRows>& grouped, bool fixed_cost) {
  ErrorTable table;
  for (const auto& [name, device] : grouped) {
    std::map<PerItemShape, std::pair<std::vector<double>, std::vector<double>>> groups;  // items, latency ms
    for (const auto& row : device.rows) {
      auto& [x, t] = groups[per_item_shape(row)];
      x.push_back(items(row));
      t.push_back(row.latency_ms);
    }
    std::map<std::string, std::vector<double>> errors;
    for (const auto& [key, points] : groups) {
      const std::vector<double> list = best_line_errors(points.first, points.second, fixed_cost);
      auto& all = errors[std::get<0>(key)];
      all.insert(all.end(), list.begin(), list.end());
    }
    for (const auto& [op, list] : errors) table[name][op] = summarize_errors(list);
  }
  return table;
}

}  // namespace

PerItemShape per_item_shape(const KernelMeasurement& row) {
  return {row.op, row.op == "linear" ? 0 : row.m, row.n, row.k, row.conv};
}

std::map<std::string, DeviceRows> batch_scaling_rows(const std::map<std::string, DeviceRows>& devices,
                                                     const FloorOptions& options) {
  std::map<std::string, DeviceRows> out;
  for (const auto& [name, device] : devices) {
    std::map<PerItemShape, std::size_t> sizes;
    for (const auto& row : device.rows)
      if (row.latency_ms >= options.min_latency_ms) ++sizes[per_item_shape(row)];
    DeviceRows kept{device.spec, {}};
    for (const auto& row : device.rows)
      if (row.latency_ms >= options.min_latency_ms && sizes[per_item_shape(row)] >= options.min_group_rows)
        kept.rows.push_back(row);
    if (!kept.rows.empty()) out.emplace(name, std::move(kept));
  }
  return out;
}

ErrorTable batch_scaling_floor(const std::map<std::string, DeviceRows>& grouped) {
  return per_group_errors(grouped, false);
}

ErrorTable affine_floor(const std::map<std::string, DeviceRows>& grouped) { return per_group_errors(grouped, true); }

}  // namespace dse
