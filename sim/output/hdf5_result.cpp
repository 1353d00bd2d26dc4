#include "sim/output/hdf5_result.h"
#include "sim/serving/serving_trace.h"

#include <functional>

#include "sim/output/hdf5_file.h"

namespace dse {
namespace {

// A column of one field of each element.
template <class Row, class Field>
auto column(const std::vector<Row>& rows, Field field) {
  std::vector<std::invoke_result_t<Field, const Row&>> out;
  for (const auto& row : rows) out.push_back(field(row));
  return out;
}

void write_summary(Hdf5File& file, const RunResult& result) {
  file.group("/summary");
  file.string("/summary/experiment", result.experiment);
  file.string("/summary/device_kind", result.device_kind);
  file.string("/summary/device", result.device);
  file.string("/summary/timing_model", result.timing_model);
  file.string("/summary/schedule", result.schedule);
  file.string("/summary/schedule_summary", result.schedule_summary);
  for (const auto& [key, value] : result.device_settings) file.string("/summary/" + key, value);
  write_metric_table(file, "/summary/metrics", result.metrics);
  file.group("/summary/models");
  const auto& rows = result.models;
  file.strings("/summary/models/name", column(rows, [](const ModelResult& m) { return m.name; }));
  file.integers("/summary/models/batch",
                column(rows, [](const ModelResult& m) { return std::int64_t{m.params.batch}; }));
  file.strings("/summary/models/dtype",
               column(rows, [](const ModelResult& m) { return std::string(dtype_name(m.params.dtype)); }));
  file.integers("/summary/models/params", column(rows, [](const ModelResult& m) { return m.total.params; }));
  file.integers("/summary/models/macs", column(rows, [](const ModelResult& m) { return m.total.macs; }));
  file.doubles("/summary/models/latency_ms", column(rows, [](const ModelResult& m) { return m.latency_ms(); }));
  file.doubles("/summary/models/throughput_per_s",
               column(rows, [](const ModelResult& m) { return m.throughput_per_s(); }));
}

void write_ops(Hdf5File& file, const RunResult& result) {
  file.group("/ops");
  const auto& rows = result.ops;
  file.integers("/ops/model", column(rows, [](const OpRecord& r) { return static_cast<std::int64_t>(r.model_index); }));
  file.strings("/ops/name", column(rows, [](const OpRecord& r) { return r.name; }));
  file.strings("/ops/kernel", column(rows, [](const OpRecord& r) { return r.kernel; }));
  file.doubles("/ops/kernel_dram_bytes", column(rows, [](const OpRecord& r) { return r.dram_bytes; }));
  file.strings("/ops/kind", column(rows, [](const OpRecord& r) { return std::string(op_kind_name(r.kind)); }));
  file.strings("/ops/output_shape", column(rows, [](const OpRecord& r) { return shape_string(r.output_shape); }));
  file.integers("/ops/stream", column(rows, [](const OpRecord& r) { return std::int64_t{r.stream}; }));
  file.doubles("/ops/start_us", column(rows, [](const OpRecord& r) { return ps_to_us(r.start_ps); }));
  file.doubles("/ops/duration_us", column(rows, [](const OpRecord& r) { return ps_to_us(r.end_ps - r.start_ps); }));
  file.integers("/ops/macs", column(rows, [](const OpRecord& r) { return r.cost.macs; }));
  file.integers("/ops/flops", column(rows, [](const OpRecord& r) { return r.cost.flops; }));
  file.integers("/ops/bytes_read", column(rows, [](const OpRecord& r) { return r.cost.bytes_read; }));
  file.integers("/ops/bytes_written", column(rows, [](const OpRecord& r) { return r.cost.bytes_written; }));
  file.strings("/ops/bound", column(rows, [](const OpRecord& r) { return r.bound; }));
}

// The board power and clock over the run: one row per step of the piecewise-constant series.
void write_power(Hdf5File& file, const RunResult& result) {
  if (result.power.empty()) return;
  const auto& rows = result.power;
  file.group("/power");
  file.doubles("/power/start_us", column(rows, [](const PowerSample& p) { return ps_to_us(p.time_ps); }));
  file.doubles("/power/power_w", column(rows, [](const PowerSample& p) { return p.power_w; }));
  file.doubles("/power/clock_mhz", column(rows, [](const PowerSample& p) { return p.clock_mhz; }));
}

// SM occupancy and DRAM bandwidth over the run (GPU runs), one row per step, like /power.
void write_utilization(Hdf5File& file, const RunResult& result) {
  if (result.utilization.empty()) return;
  const auto& rows = result.utilization;
  file.group("/utilization");
  file.doubles("/utilization/start_us", column(rows, [](const UtilizationSample& u) { return ps_to_us(u.start_ps); }));
  file.doubles("/utilization/sm_occupancy", column(rows, [](const UtilizationSample& u) { return u.sm_occupancy; }));
  file.doubles("/utilization/dram_gb_per_s", column(rows, [](const UtilizationSample& u) { return u.dram_gb_per_s; }));
}

// A serving run (sim/serving/serving_trace.h): /requests, one row per request, and /serving with
// the batches, the power sensor's readings and the governor's actions; times in seconds.
void write_serving(Hdf5File& file, const RunResult& result) {
  if (!result.serving) return;
  const ServingTrace& t = *result.serving;
  file.group("/requests");
  file.integers("/requests/tenant", column(t.requests, [](const ServedRequest& r) { return std::int64_t{r.tenant}; }));
  file.doubles("/requests/arrival_s", column(t.requests, [](const ServedRequest& r) { return r.arrival_s; }));
  file.doubles("/requests/ready_s", column(t.requests, [](const ServedRequest& r) { return r.ready_s; }));
  file.doubles("/requests/start_s", column(t.requests, [](const ServedRequest& r) { return r.start_s; }));
  file.doubles("/requests/end_s", column(t.requests, [](const ServedRequest& r) { return r.end_s; }));
  file.integers("/requests/batch", column(t.requests, [](const ServedRequest& r) { return std::int64_t{r.batch}; }));
  file.group("/serving");
  file.strings("/serving/tenant_models", t.tenant_models);
  file.string("/serving/governor", t.governor);
  file.number("/serving/window_start_s", t.window_start_s);
  file.number("/serving/window_end_s", t.window_end_s);
  file.group("/serving/batches");
  file.integers("/serving/batches/tenant",
                column(t.batches, [](const ServedBatch& b) { return std::int64_t{b.tenant}; }));
  file.integers("/serving/batches/instance",
                column(t.batches, [](const ServedBatch& b) { return std::int64_t{b.instance}; }));
  file.integers("/serving/batches/size", column(t.batches, [](const ServedBatch& b) { return std::int64_t{b.size}; }));
  file.doubles("/serving/batches/start_s", column(t.batches, [](const ServedBatch& b) { return b.start_s; }));
  file.doubles("/serving/batches/end_s", column(t.batches, [](const ServedBatch& b) { return b.end_s; }));
  file.doubles("/serving/batches/clock_mhz", column(t.batches, [](const ServedBatch& b) { return b.clock_mhz; }));
  file.doubles("/serving/batches/logged_power_w",
               column(t.batches, [](const ServedBatch& b) { return b.logged_power_w; }));
  file.group("/serving/sensor");
  file.doubles("/serving/sensor/time_s", column(t.sensor, [](const PowerSample& s) { return s.time_s(); }));
  file.doubles("/serving/sensor/power_w", column(t.sensor, [](const PowerSample& s) { return s.power_w; }));
  file.doubles("/serving/sensor/clock_mhz", column(t.sensor, [](const PowerSample& s) { return s.clock_mhz; }));
  file.group("/serving/actions");
  file.doubles("/serving/actions/time_s", column(t.actions, [](const GovernorAction& a) { return a.time_s; }));
  file.doubles("/serving/actions/reading_w", column(t.actions, [](const GovernorAction& a) { return a.reading_w; }));
  file.integers("/serving/actions/batch_after",
                column(t.actions, [](const GovernorAction& a) { return std::int64_t{a.batch_after}; }));
  file.doubles("/serving/actions/clock_after_mhz",
               column(t.actions, [](const GovernorAction& a) { return a.clock_after_mhz; }));
}

}  // namespace

void write_hdf5_result(const std::string& path, const Experiment& experiment, const RunResult& result) {
  Hdf5File file(path);
  file.string("/config", experiment.resolved_yaml);
  std::vector<std::string> paths, contents;
  for (const auto& f : experiment.device->hardware_files()) {
    paths.push_back(f.path);
    contents.push_back(f.content);
  }
  write_meta(file, result.serving ? "serving" : "single", experiment.config_file, result.calibration, paths, contents);
  write_summary(file, result);
  write_ops(file, result);
  write_power(file, result);
  write_utilization(file, result);
  write_serving(file, result);
  file.commit();
}

}  // namespace dse
