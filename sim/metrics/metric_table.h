// The metrics one run produced: named values in the order the device declared them, each name a
// metric_catalog() entry (sim/metrics/metric_catalog.h), which gives its unit and meaning.
//
// Contract: set() with a name the catalog lacks is a programming error (std::logic_error), so no
// writer can report a metric that `dse list metrics` does not document.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/metrics/metric_catalog.h"

namespace dse {

class MetricTable {
 public:
  struct Entry {
    std::string name;
    double value = 0;
    const MetricInfo* info = nullptr;  // its catalog entry
  };

  // Adds the metric, or replaces its value where it is already there (keeping its place).
  void set(std::string_view name, double value);
  std::optional<double> find(std::string_view name) const;
  // std::out_of_range naming the metric when absent.
  double at(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name).has_value(); }

  const std::vector<Entry>& entries() const { return entries_; }
  std::vector<std::string> names() const;
  bool empty() const { return entries_.empty(); }

 private:
  std::vector<Entry> entries_;
};

}  // namespace dse
