#include "cli/run_report.h"
#include "sim/serving/serving_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

namespace dse {
namespace {

// 1234567 -> "1.23M"
std::string si(double value) {
  const char* units[] = {"", "k", "M", "G", "T", "P"};
  int unit = 0;
  while (value >= 1000 && unit < 5) {
    value /= 1000;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f}", value) : fmt::format("{:.2f}{}", value, units[unit]);
}

}  // namespace

void print_graph_table(std::FILE* out, const Graph& graph) {
  fmt::print(out, "{:>4}  {:<32} {:<16} {:<18} {:>9} {:>9} {:>9} {:>8}\n", "#", "op", "kind", "output", "MACs", "flops",
             "bytes", "flop/B");
  int index = 0;
  for (const auto& op : graph.ops()) {
    fmt::print(out, "{:>4}  {:<32} {:<16} {:<18} {:>9} {:>9} {:>9} {:>8.1f}\n", index++, op.name, op_kind_name(op.kind),
               shape_string(graph.tensor(op.output).shape), si(static_cast<double>(op.cost.macs)),
               si(static_cast<double>(op.cost.flops)),
               si(static_cast<double>(op.cost.bytes_read + op.cost.bytes_written)), op.cost.arithmetic_intensity());
  }
  const OpCost total = graph.total_cost();
  fmt::print(out, "\n{}: {} ops, {} params, {} MACs, {} flops, {} bytes read, {} bytes written\n", graph.name(),
             graph.ops().size(), si(static_cast<double>(total.params)), si(static_cast<double>(total.macs)),
             si(static_cast<double>(total.flops)), si(static_cast<double>(total.bytes_read)),
             si(static_cast<double>(total.bytes_written)));
}

namespace {

std::string device_label(const Experiment& experiment) { return experiment.device->display_name(); }

// A metric's value as the report prints it: digits suited to its unit, then the unit.
std::string metric_text(const MetricTable::Entry& entry) {
  const std::string& unit = entry.info->unit;
  if (unit == "ms") return fmt::format("{:.4f}", entry.value);
  if (unit == "J") return fmt::format("{:.6f} J", entry.value);
  if (unit == "B") return si(entry.value) + " B";
  // A count is whole (requests, fusion groups); a mean of counts (batch_mean) keeps its decimals.
  if (unit == "count")
    return entry.value == std::floor(entry.value) ? fmt::format("{:.0f}", entry.value)
                                                  : fmt::format("{:.2f}", entry.value);
  if (unit == "ratio") return fmt::format("{:.3f}x", entry.value);
  if (unit == "share") return fmt::format("{:.2f} %", 100 * entry.value);
  if (unit == "1/s/W" || unit == "1/s/mm^2") return fmt::format("{:.3f} {}", entry.value, unit);
  if (unit == "1/s") return fmt::format("{:.1f}", entry.value);
  return fmt::format("{:.1f} {}", entry.value, unit);
}

// Why a peak above the limit or cap is no contradiction, beside the peak; "" otherwise.
std::string peak_note(const MetricTable::Entry& entry, const RunResult& result) {
  if (entry.name != "power_peak_w") return "";
  const MetricTable& metrics = result.metrics;
  if (const auto limit = metrics.find("power_limit_w"); limit && entry.value > *limit)
    return fmt::format(
        "  (over the {:.0f} W power_limit_w: the firmware holds the mean of each device.power_window_ms window to "
        "it; the peak is the highest 1 ms mean)",
        *limit);
  if (const auto cap = metrics.find("power_cap_w"); cap && entry.value > *cap) {
    const bool acts = result.serving && result.serving->governor != "static";  // static only measures
    return fmt::format("  (over the {:.0f} W power_cap_w: {}; the peak is the highest sensor reading)", *cap,
                       acts ? "the governor answers a reading over the cap at its next action, every period_s"
                            : "the static governor only measures against the cap");
  }
  return "";
}

}  // namespace

void print_op_table(std::FILE* out, const Experiment& experiment, const RunResult& result) {
  if (result.serving) return;  // a serving run's batches are in the HDF5 file and the trace
  for (std::size_t m = 0; m < result.models.size(); ++m) {
    const ModelResult& model = result.models[m];
    fmt::print(out, "{} (batch {}, {}) on {} -- {} timing, {}\n", model.name, model.params.batch,
               dtype_name(model.params.dtype), device_label(experiment), result.timing_model, result.calibration);
    // The text columns as wide as their longest entry (at least the header's width), so that long
    // op names (a fused op, a kernel after the op's name) do not push the numbers out of line.
    const auto label_of = [](const OpRecord& op) {
      return op.kernel == std::string(op_kind_name(op.kind)) ? op.name : op.name + " / " + op.kernel;
    };
    std::size_t label_width = 28, kind_width = 14, output_width = 16;
    for (const auto& op : result.ops) {
      if (op.model_index != m) continue;
      label_width = std::max(label_width, label_of(op).size());
      kind_width = std::max(kind_width, std::string_view(op_kind_name(op.kind)).size());
      output_width = std::max(output_width, shape_string(op.output_shape).size());
    }
    fmt::print(out, "{:>4}  {:<{}} {:<{}} {:<{}} {:>9} {:>9} {:>8} {:>10} {:>9}  {}\n", "#", "op / kernel", label_width,
               "kind", kind_width, "output", output_width, "MACs", "bytes", "flop/B", "start_us", "dur_us", "bound");
    int index = 0;
    for (const auto& op : result.ops) {
      if (op.model_index != m) continue;
      fmt::print(out, "{:>4}  {:<{}} {:<{}} {:<{}} {:>9} {:>9} {:>8.1f} {:>10.3f} {:>9.3f}  {}\n", index++,
                 label_of(op), label_width, op_kind_name(op.kind), kind_width, shape_string(op.output_shape),
                 output_width, si(static_cast<double>(op.cost.macs)),
                 si(static_cast<double>(op.cost.bytes_read + op.cost.bytes_written)), op.cost.arithmetic_intensity(),
                 ps_to_us(op.start_ps), ps_to_us(op.end_ps - op.start_ps), op.bound);
    }
    fmt::print(out, "\n");
  }
}

void print_run_summary(std::FILE* out, const Experiment& experiment, const RunResult& result) {
  fmt::print(out, "experiment        {}\n", result.experiment);
  fmt::print(out, "device            {} ({} timing, {})\n", device_label(experiment), result.timing_model,
             result.calibration);
  for (const auto& model : result.models) {
    fmt::print(
        out, "model             {} batch {} {}: {} params, {} MACs, {:.4f} ms, {:.1f} samples/s{}\n", model.name,
        model.params.batch, dtype_name(model.params.dtype), si(static_cast<double>(model.total.params)),
        si(static_cast<double>(model.total.macs)), model.latency_ms(), model.throughput_per_s(),
        result.models.size() > 1 && !result.serving ? fmt::format(", done at {:.4f} ms", ps_to_ms(model.end_ps)) : "");
  }
  if (result.models.size() > 1 && !result.serving) fmt::print(out, "schedule          {}\n", result.schedule_summary);
  if (result.serving) {
    const ServingTrace& t = *result.serving;
    for (std::size_t i = 0; i < t.tenant_models.size(); ++i)
      fmt::print(out, "tenant {:<10} {}: {} requests, {} batches\n", i, t.tenant_models[i],
                 std::count_if(t.requests.begin(), t.requests.end(), [i](const auto& r) { return r.tenant == i; }),
                 std::count_if(t.batches.begin(), t.batches.end(), [i](const auto& b) { return b.tenant == i; }));
    fmt::print(out, "{:<17} {:g} s to {:g} s of {:g} s simulated ({} device passes)\n", "window", t.window_start_s,
               t.window_end_s, t.end_s, t.passes_simulated);
    if (!t.governor.empty()) fmt::print(out, "{:<17} {} ({} actions)\n", "governor", t.governor, t.actions.size());
  }
  if (!result.device_settings.empty()) {
    std::string settings;
    for (const auto& [key, value] : result.device_settings)
      settings += fmt::format("{}{} {}", settings.empty() ? "" : ", ", key, value);
    fmt::print(out, "{:<17} {}\n", "settings", settings);
  }
  std::size_t width = 17;  // the labels above
  for (const auto& entry : result.metrics.entries()) width = std::max(width, entry.name.size());
  for (const auto& entry : result.metrics.entries())
    fmt::print(out, "{:<{}} {}{}\n", entry.name, width, metric_text(entry), peak_note(entry, result));
  if (!experiment.output_path.empty()) fmt::print(out, "output            {}\n", experiment.output_path);
}

}  // namespace dse
