#include <fmt/format.h>

#include "sim/output/chrome_trace.h"
#include "sim/serving/serving_trace.h"

#include <nlohmann/json.hpp>
#include <set>

#include "sim/output/atomic_file.h"

namespace dse {

std::string chrome_trace_json(const RunResult& result) {
  nlohmann::json events = nlohmann::json::array();
  events.push_back({{"ph", "M"},
                    {"pid", 0},
                    {"name", "process_name"},
                    {"args", {{"name", result.device_kind + " " + result.device}}}});
  std::set<int> streams;
  for (const auto& op : result.ops) streams.insert(op.stream);
  for (const int stream : streams) {
    events.push_back({{"ph", "M"},
                      {"pid", 0},
                      {"tid", stream},
                      {"name", "thread_name"},
                      {"args", {{"name", "stream " + std::to_string(stream)}}}});
  }
  for (const auto& op : result.ops) {
    const auto& model = result.models[op.model_index];
    events.push_back({{"ph", "X"},
                      {"pid", 0},
                      {"tid", op.stream},
                      {"name", op.kernel == std::string(op_kind_name(op.kind)) ? op.name : op.name + " / " + op.kernel},
                      {"cat", std::string(op_kind_name(op.kind))},
                      {"ts", ps_to_us(op.start_ps)},
                      {"dur", ps_to_us(op.end_ps - op.start_ps)},
                      {"args",
                       {{"model", model.name},
                        {"output_shape", shape_string(op.output_shape)},
                        {"macs", op.cost.macs},
                        {"bytes", op.cost.bytes_read + op.cost.bytes_written},
                        {"bound", op.bound}}}});
  }
  // A serving run: one slice per batch (a track per tenant and instance) and a batch-size counter.
  if (result.serving) {
    const ServingTrace& t = *result.serving;
    for (const ServedBatch& b : t.batches) {
      const int tid = 1000 + static_cast<int>(b.tenant) * 64 + b.instance;
      events.push_back({{"ph", "X"},
                        {"pid", 0},
                        {"tid", tid},
                        {"name", fmt::format("{} batch {}", t.tenant_models[b.tenant], b.size)},
                        {"cat", "batch"},
                        {"ts", b.start_s * 1e6},
                        {"dur", (b.end_s - b.start_s) * 1e6},
                        {"args", {{"size", b.size}, {"clock_mhz", b.clock_mhz}}}});
      events.push_back({{"ph", "C"},
                        {"pid", 0},
                        {"name", fmt::format("batch_size_tenant{}", b.tenant)},
                        {"ts", b.start_s * 1e6},
                        {"args", {{"batch", b.size}}}});
    }
    for (const PowerSample& s : t.sensor)
      events.push_back({{"ph", "C"},
                        {"pid", 0},
                        {"name", "power_sensor_w"},
                        {"ts", s.time_s() * 1e6},
                        {"args", {{"power_w", s.power_w}}}});
  }
  // Counters (Perfetto and chrome://tracing draw them as tracks): board power and clock.
  double clock_mhz = -1;
  for (const auto& sample : result.power) {
    events.push_back({{"ph", "C"},
                      {"pid", 0},
                      {"name", "power_w"},
                      {"ts", ps_to_us(sample.time_ps)},
                      {"args", {{"power_w", sample.power_w}}}});
    if (sample.clock_mhz == clock_mhz) continue;
    clock_mhz = sample.clock_mhz;
    events.push_back({{"ph", "C"},
                      {"pid", 0},
                      {"name", "clock_mhz"},
                      {"ts", ps_to_us(sample.time_ps)},
                      {"args", {{"clock_mhz", clock_mhz}}}});
  }
  // SM occupancy (%) and DRAM bandwidth (GB/s) of the running kernels.
  for (const auto& sample : result.utilization) {
    events.push_back({{"ph", "C"},
                      {"pid", 0},
                      {"name", "sm_occupancy_pct"},
                      {"ts", ps_to_us(sample.start_ps)},
                      {"args", {{"sm_occupancy_pct", 100 * sample.sm_occupancy}}}});
    events.push_back({{"ph", "C"},
                      {"pid", 0},
                      {"name", "dram_gb_per_s"},
                      {"ts", ps_to_us(sample.start_ps)},
                      {"args", {{"dram_gb_per_s", sample.dram_gb_per_s}}}});
  }
  if (!result.power.empty()) {  // close the counters at the end of the run
    events.push_back({{"ph", "C"},
                      {"pid", 0},
                      {"name", "power_w"},
                      {"ts", ps_to_us(result.makespan_ps)},
                      {"args", {{"power_w", result.power.back().power_w}}}});
  }
  return nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump() + "\n";
}

void write_chrome_trace(const std::string& path, const RunResult& result) {
  write_file_atomically(path, chrome_trace_json(result));
}

}  // namespace dse
