#include "cli/run_report.h"

#include <fmt/format.h>

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
               si(static_cast<double>(op.cost.flops)), si(static_cast<double>(op.cost.bytes_read + op.cost.bytes_written)),
               op.cost.arithmetic_intensity());
  }
  const OpCost total = graph.total_cost();
  fmt::print(out, "\n{}: {} ops, {} params, {} MACs, {} flops, {} bytes read, {} bytes written\n", graph.name(),
             graph.ops().size(), si(static_cast<double>(total.params)), si(static_cast<double>(total.macs)),
             si(static_cast<double>(total.flops)), si(static_cast<double>(total.bytes_read)),
             si(static_cast<double>(total.bytes_written)));
}

namespace {
std::string device_label(const Experiment& experiment) {
  return experiment.accelerator ? experiment.accelerator->display_name : experiment.gpu.display_name;
}
}  // namespace

void print_op_table(std::FILE* out, const Experiment& experiment, const RunResult& result) {
  for (std::size_t m = 0; m < result.models.size(); ++m) {
    const ModelResult& model = result.models[m];
    fmt::print(out, "{} (batch {}, {}) on {} -- {} timing, {}\n", model.name, model.params.batch,
               dtype_name(model.params.dtype), device_label(experiment), result.timing_model, result.calibration);
    fmt::print(out, "{:>4}  {:<28} {:<14} {:<16} {:>9} {:>9} {:>8} {:>10} {:>9}  {}\n", "#", "op / kernel", "kind",
               "output", "MACs", "bytes", "flop/B", "start_us", "dur_us", "bound");
    int index = 0;
    for (const auto& op : result.ops) {
      if (op.model_index != m) continue;
      const std::string label = op.kernel == std::string(op_kind_name(op.kind)) ? op.name : op.name + " / " + op.kernel;
      fmt::print(out, "{:>4}  {:<28} {:<14} {:<16} {:>9} {:>9} {:>8.1f} {:>10.3f} {:>9.3f}  {}\n", index++, label,
                 op_kind_name(op.kind), shape_string(op.output_shape), si(static_cast<double>(op.cost.macs)),
                 si(static_cast<double>(op.cost.bytes_read + op.cost.bytes_written)),
                 op.cost.arithmetic_intensity(), ps_to_us(op.start_ps), ps_to_us(op.end_ps - op.start_ps), op.bound);
    }
    fmt::print(out, "\n");
  }
}

void print_run_summary(std::FILE* out, const Experiment& experiment, const RunResult& result) {
  fmt::print(out, "experiment        {}\n", result.experiment);
  fmt::print(out, "device            {} ({} timing, {})\n", device_label(experiment), result.timing_model,
             result.calibration);
  for (const auto& model : result.models) {
    fmt::print(out, "model             {} batch {} {}: {} params, {} MACs, {:.4f} ms, {:.1f} samples/s\n", model.name,
               model.params.batch, dtype_name(model.params.dtype), si(static_cast<double>(model.total.params)),
               si(static_cast<double>(model.total.macs)), model.latency_ms(), model.throughput_per_s());
  }
  fmt::print(out, "latency_ms        {:.4f}\n", result.latency_ms());
  fmt::print(out, "throughput_per_s  {:.1f}\n", result.throughput_per_s());
  if (result.energy_j) {
    fmt::print(out, "energy_j          {:.6f}\n", *result.energy_j);
  } else {
    fmt::print(out, "energy_j          n/a (the {} timing model has no power model)\n", result.timing_model);
  }
  if (const auto& a = result.accelerator) {
    const auto ratio = [](const std::optional<double>& v) { return v ? fmt::format("  ({:.2f}x tpu_v3_like)", *v) : std::string(); };
    fmt::print(out, "fusion            {} ({} groups), padding {}, {} DRAM bytes per pass\n", a->fusion, a->fusion_groups,
               a->padding, si(a->dram_bytes));
    fmt::print(out, "area_mm2          {:.1f}\n", a->area_mm2);
    fmt::print(out, "tdp_w             {:.1f}\n", a->tdp_w);
    fmt::print(out, "inferences_per_s  {:.1f}{}\n", a->inferences_per_s, ratio(a->inferences_per_s_vs_tpu_v3));
    fmt::print(out, "perf_per_tdp      {:.3f} /s/W{}\n", a->perf_per_tdp, ratio(a->perf_per_tdp_vs_tpu_v3));
    fmt::print(out, "perf_per_mm2      {:.3f} /s/mm2{}\n", a->perf_per_mm2, ratio(a->perf_per_mm2_vs_tpu_v3));
    fmt::print(out, "energy/inference  {:.6f} J{}\n", a->energy_per_inference_j, ratio(a->energy_per_inference_vs_tpu_v3));
  }
  if (!experiment.output_path.empty()) fmt::print(out, "output            {}\n", experiment.output_path);
}

}  // namespace dse
