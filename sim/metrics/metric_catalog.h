// Every metric a run can report, defined once: its name, unit and meaning. The JSON summary, the
// HDF5 /summary/metrics table, the printed report, `dse list metrics` and the search's objective
// and constraint names all come from here, so a new metric is one line in metric_catalog.cpp.
//
// Per-model metrics are families: "latency_ms_model<I>" stands for latency_ms_model0,
// latency_ms_model1, ... (one per model of a mix).
//
// Contract: the catalog is a constant built on first use; lookups are thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace dse {

struct MetricInfo {
  std::string name;  // "latency_ms", or a family "latency_ms_model<I>"
  // "ms", "1/s", "W", "J", "mm^2", "1/s/W", "1/s/mm^2", "B", "count", "ratio", or "share" (a fraction
  // 0..1, printed as a percentage)
  std::string unit;
  std::string description;  // one sentence: what it measures and over what
  std::string devices;      // which device kinds produce it ("gpu, accelerator", "accelerator")
};

const std::vector<MetricInfo>& metric_catalog();

// The catalog entry for `name` (a family entry for "latency_ms_model3"); nullptr if none.
const MetricInfo* find_metric(std::string_view name);

// "latency_ms_model<I>" with I = index.
std::string per_model_metric(std::string_view family, std::size_t index);

}  // namespace dse
