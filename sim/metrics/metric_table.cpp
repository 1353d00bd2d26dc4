#include "sim/metrics/metric_table.h"

#include <stdexcept>

namespace dse {

void MetricTable::set(std::string_view name, double value) {
  for (auto& entry : entries_) {
    if (entry.name == name) {
      entry.value = value;
      return;
    }
  }
  const MetricInfo* info = find_metric(name);
  if (!info)
    throw std::logic_error("metric '" + std::string(name) +
                           "' is not in the metric catalog (sim/metrics/metric_catalog.cpp)");
  entries_.push_back({std::string(name), value, info});
}

std::optional<double> MetricTable::find(std::string_view name) const {
  for (const auto& entry : entries_)
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

double MetricTable::at(std::string_view name) const {
  if (const auto value = find(name)) return *value;
  throw std::out_of_range("the run has no metric '" + std::string(name) + "'");
}

std::vector<std::string> MetricTable::names() const {
  std::vector<std::string> out;
  for (const auto& entry : entries_) out.push_back(entry.name);
  return out;
}

}  // namespace dse
