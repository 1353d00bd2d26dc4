#include "sim/metrics/metric_catalog.h"

#include <charconv>

#include "models/base/registry.h"

namespace dse {

const std::vector<MetricInfo>& metric_catalog() {
  static const std::vector<MetricInfo> catalog = {
      {"latency_ms", "ms", "Makespan of one pass over the workload: every model's batch, as the schedule runs them",
       "gpu, accelerator"},
      {"throughput_per_s", "1/s",
       "Samples (batch items of every model) completed per second over the makespan; in a serving run, requests "
       "completed per second over the measured window",
       "gpu, accelerator"},
      {"tdp_w", "W", "Thermal design power: the GPU spec's board TDP, or the accelerator template's modelled TDP",
       "gpu, accelerator"},
      {"perf_per_tdp", "1/s/W", "throughput_per_s per TDP watt", "gpu, accelerator"},
      {"requests", "count", "Requests of a serving run completed within the measured window [warmup_s, duration_s]",
       "serving runs"},
      {"goodput_per_s", "1/s", "Requests completed per second of the window whose latency met their tenant's SLO",
       "serving runs with an slo_ms"},
      {"slo_violation_rate", "share",
       "Share of the requests arriving in the window whose latency exceeded their tenant's SLO (however late they "
       "finished)",
       "serving runs with an slo_ms"},
      {"latency_mean_ms", "ms",
       "Mean latency, arrival to completion (host stage, queue and batch), of the requests arriving in the window, "
       "however late they finished (the run drains its queues)",
       "serving runs"},
      {"latency_p50_ms", "ms", "Median request latency (nearest rank)", "serving runs"},
      {"latency_p95_ms", "ms", "95th-percentile request latency (nearest rank)", "serving runs"},
      {"latency_p99_ms", "ms", "99th-percentile request latency (nearest rank)", "serving runs"},
      {"latency_max_ms", "ms", "Highest latency of a request arriving in the window", "serving runs"},
      {"queue_delay_mean_ms", "ms", "Mean time a request waited for its batch to start, after any host stage",
       "serving runs"},
      {"batch_mean", "count", "Mean size of the batches started in the window (left out when none started)",
       "serving runs"},
      {"power_cap_w", "W", "The power cap the serving run's governor holds to", "serving runs with a capped governor"},
      {"periods_over_cap_share", "share",
       "Share of the window's control periods (the governor's period, 3 s where it never acts) in which a power "
       "reading exceeded the cap, of those with a reading (left out when none has one)",
       "serving runs with a capped governor"},
      {"batches_over_cap_share", "share",
       "Share of the window's batches logged over the cap (the highest reading since the governor last acted, as "
       "the BatchDVFS paper logs it), of those logged with a reading (a batch done before the first reading since "
       "the governor last acted has none)",
       "serving runs with a capped governor"},
      {"latency_p99_ms_model<I>", "ms", "99th-percentile latency of tenant I's requests",
       "serving runs of two or more tenants"},
      {"latency_ms_model<I>", "ms", "Span of model I on the timeline, from its first op's start to its last op's end",
       "gpu, accelerator; runs of two or more models"},
      {"throughput_per_s_model<I>", "1/s", "Model I's batch over its span (serving: tenant I's requests per second)",
       "gpu, accelerator; runs of two or more models"},
      {"completion_ms_model<I>", "ms",
       "When model I's last op ends, from the start of the run (every model is released at 0): its response time "
       "when the models run together",
       "gpu, accelerator; runs of two or more models"},
      {"energy_j", "J",
       "Energy of one pass: the board power integrated over the makespan (GPU); every op's dynamic energy plus "
       "static power over the makespan (accelerator); a serving run's over its measured window",
       "gpu, accelerator"},
      {"power_avg_w", "W", "Board power averaged over the makespan (energy_j / latency; serving: over the window)",
       "gpu; serving runs on any device"},
      {"power_peak_w", "W",
       "Highest board power averaged over any 1 ms of the pass (the pass's average when shorter); serving: the "
       "highest power-sensor reading of the window (left out when no reading falls in it)",
       "gpu; serving runs on any device"},
      {"perf_per_w", "1/s/W", "throughput_per_s per watt of power_avg_w", "gpu; serving runs on any device"},
      {"sm_clock_mhz", "MHz",
       "SM clock the kernels ran at: the locked or boost clock, or lower where the power limit holds it "
       "(the summary's device.clock says why); time-averaged over a pass longer than the firmware's window "
       "(device.power_window_ms), where it moves window by window; serving: time-averaged over the window",
       "gpu"},
      {"clock_mhz", "MHz",
       "The accelerator's clock in a serving run, time-averaged over the window: the level of its V-f table a "
       "governor set, or the design clock",
       "serving runs on an accelerator"},
      {"power_limit_w", "W", "The firmware power limit the pass ran under (device.power_limit_w; default the TDP)",
       "gpu"},
      {"area_mm2", "mm^2", "Die area of the design (anchored to TPU-v3, docs/accelerator.md)",
       "accelerator, serving runs on one too"},
      {"static_w", "W", "Static (leakage) power of the design at its supply voltage", "accelerator"},
      {"supply_v", "V", "Logic supply voltage at the design's clock (16 nm voltage/frequency curve, docs/power.md)",
       "accelerator"},
      {"fusion_groups", "count", "Fusion groups of the plan, over all models", "accelerator"},
      {"dram_bytes", "B", "DRAM traffic of one pass after fusion", "accelerator"},
      {"inferences_per_s", "1/s", "Samples per second over the makespan (FAST's name for throughput_per_s)",
       "accelerator"},
      {"perf_per_mm2", "1/s/mm^2", "inferences_per_s per mm^2 of die area", "accelerator"},
      {"energy_per_inference_j", "J", "energy_j per sample (serving: per request of the window)", "gpu, accelerator"},
      {"inferences_per_s_vs_tpu_v3", "ratio",
       "inferences_per_s over tpu_v3_like's on the same workload as XLA compiles it (epilogue fusion, array padding)",
       "accelerator; with tpu_v3_like in the catalog"},
      {"perf_per_tdp_vs_tpu_v3", "ratio", "perf_per_tdp over tpu_v3_like's on the same workload",
       "accelerator; with tpu_v3_like in the catalog"},
      {"perf_per_mm2_vs_tpu_v3", "ratio", "perf_per_mm2 over tpu_v3_like's on the same workload",
       "accelerator; with tpu_v3_like in the catalog"},
      {"energy_per_inference_vs_tpu_v3", "ratio", "energy_per_inference_j over tpu_v3_like's on the same workload",
       "accelerator; with tpu_v3_like in the catalog"},
      {"perf_per_tdp_vs_tpu_v3_geomean", "ratio",
       "Geometric mean over the models of each one's Perf/TDP ratio to tpu_v3_like, each run alone (FAST's suite "
       "metric)",
       "accelerator; with tpu_v3_like in the catalog"},
  };
  return catalog;
}

std::string per_model_metric(std::string_view family, std::size_t index) {
  const auto marker = family.find("<I>");
  return std::string(family.substr(0, marker)) + std::to_string(index);
}

const MetricInfo* find_metric(std::string_view name) {
  for (const auto& info : metric_catalog()) {
    const auto marker = info.name.find("<I>");
    if (marker == std::string::npos) {
      if (info.name == name) return &info;
      continue;
    }
    const std::string_view prefix = std::string_view(info.name).substr(0, marker);
    if (!name.starts_with(prefix) || name.size() == prefix.size()) continue;
    const std::string_view digits = name.substr(prefix.size());
    std::size_t index = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (error == std::errc{} && end == digits.data() + digits.size() && (digits == "0" || digits.front() != '0'))
      return &info;
  }
  return nullptr;
}

namespace {

[[maybe_unused]] const bool metric_family_registered =
    (FamilyCatalog::instance().add_family(
         {"metric", "Run metrics: what objectives, constraints, the JSON summary and HDF5 /summary/metrics name",
          [] {
            std::vector<RegistryEntryInfo> out;
            for (const auto& info : metric_catalog())
              out.push_back({info.name, info.description + " (" + info.devices + ")", info.unit, {}});
            return out;
          }}),
     true);

}  // namespace

}  // namespace dse
