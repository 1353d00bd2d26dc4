#include "cli/batch_scaling_floor.h"

#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

namespace dse {
namespace {

using GroupKey = std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t>;  // op, per-item shape

GroupKey group_of(const KernelMeasurement& row) {
  return {row.op, row.op == "linear" ? 0 : row.m, row.n, row.k};
}

double items_per_second(const KernelMeasurement& row) {
  const double items = static_cast<double>(row.op == "linear" ? row.b * row.m : row.b);
  return items / (row.latency_ms * 1e-3);
}

// |x_i / c - 1| for the constant c minimising their sum: the sum is convex and piecewise linear in
// 1 / c with kinks at 1 / x_i, so the best c is one of the x_i.
std::vector<double> best_constant_errors(const std::vector<double>& throughputs) {
  double best_sum = std::numeric_limits<double>::infinity();
  double best_c = throughputs.front();
  for (const double c : throughputs) {
    double sum = 0;
    for (const double x : throughputs) sum += std::abs(x / c - 1);
    if (sum < best_sum) {
      best_sum = sum;
      best_c = c;
    }
  }
  std::vector<double> errors;
  for (const double x : throughputs) errors.push_back(std::abs(x / best_c - 1));
  return errors;
}

}  // namespace

std::map<std::string, DeviceRows> batch_scaling_rows(const std::map<std::string, DeviceRows>& devices,
                                                     const FloorOptions& options) {
  std::map<std::string, DeviceRows> out;
  for (const auto& [name, device] : devices) {
    std::map<GroupKey, std::size_t> sizes;
    for (const auto& row : device.rows)
      if (row.latency_ms >= options.min_latency_ms) ++sizes[group_of(row)];
    DeviceRows kept{device.spec, {}};
    for (const auto& row : device.rows)
      if (row.latency_ms >= options.min_latency_ms && sizes[group_of(row)] >= options.min_group_rows)
        kept.rows.push_back(row);
    if (!kept.rows.empty()) out.emplace(name, std::move(kept));
  }
  return out;
}

ErrorTable batch_scaling_floor(const std::map<std::string, DeviceRows>& grouped) {
  ErrorTable table;
  for (const auto& [name, device] : grouped) {
    std::map<GroupKey, std::vector<double>> groups;
    for (const auto& row : device.rows) groups[group_of(row)].push_back(items_per_second(row));
    std::map<std::string, std::vector<double>> errors;
    for (const auto& [key, throughputs] : groups) {
      const auto group_errors = best_constant_errors(throughputs);
      auto& list = errors[std::get<0>(key)];
      list.insert(list.end(), group_errors.begin(), group_errors.end());
    }
    for (const auto& [op, list] : errors) table[name][op] = summarize_errors(list);
  }
  return table;
}

}  // namespace dse
