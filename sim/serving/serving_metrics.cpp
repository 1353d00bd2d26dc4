#include "sim/serving/serving_metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "sim/metrics/power_series.h"
#include "sim/serving/serving_spec.h"

namespace dse {
namespace {

bool any_slo(const ServingSpec& spec) {
  return std::any_of(spec.tenants.begin(), spec.tenants.end(), [](const auto& t) { return t.slo_ms.has_value(); });
}

TimePs to_ps(double s) { return checked_ps(s * 1e12, "a serving window bound"); }

struct TenantStats {
  std::vector<double> latency_ms;
  std::vector<double> queue_ms;
  std::size_t completed = 0;  // completions inside the window
};

}  // namespace

double nearest_rank_percentile(std::vector<double>& values, double p) {
  if (values.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
  const std::size_t k = std::clamp<std::size_t>(rank, 1, values.size()) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

std::vector<std::string> serving_metric_names(const Experiment& experiment) {
  const ServingSpec& spec = *experiment.serving;
  std::vector<std::string> names = {"requests",       "throughput_per_s", "latency_mean_ms", "latency_p50_ms",
                                    "latency_p95_ms", "latency_p99_ms",   "latency_max_ms",  "queue_delay_mean_ms"};
  if (any_slo(spec))
    for (const char* name : {"goodput_per_s", "slo_violation_rate"}) names.emplace_back(name);
  for (const char* name :
       {"batch_mean", "energy_j", "power_avg_w", "power_peak_w", "energy_per_inference_j", "perf_per_w"})
    names.emplace_back(name);
  names.push_back(experiment.device->clock_metric());
  // What the device is before it serves (area_mm2 and tdp_w of an accelerator, a GPU's tdp_w), so
  // a search's constraints on them hold for serving runs too.
  for (const std::string& name : experiment.device->cheap_metrics().names()) names.push_back(name);
  names.emplace_back("perf_per_tdp");
  if (spec.power_cap_w)
    for (const char* name : {"power_cap_w", "periods_over_cap_share", "batches_over_cap_share"})
      names.emplace_back(name);
  if (spec.tenants.size() >= 2)
    for (std::size_t i = 0; i < spec.tenants.size(); ++i) {
      names.push_back(per_model_metric("throughput_per_s_model<I>", i));
      names.push_back(per_model_metric("latency_p99_ms_model<I>", i));
    }
  return names;
}

void add_serving_metrics(RunResult& result, const ServingTrace& trace, const Experiment& experiment) {
  const ServingSpec& spec = *experiment.serving;
  const double start = trace.window_start_s, end = std::max(trace.window_end_s, start + 1e-12);
  const double span_s = end - start;

  // Throughput counts the completions inside the window. Latencies are those of the requests that
  // arrived inside it, however late they finished (the run drains its queues after duration_s), so
  // an overloaded run shows the latency its queue gives rather than only its survivors'.
  std::vector<TenantStats> tenants(spec.tenants.size());
  std::vector<double> all_latency, all_queue;
  std::size_t completed = 0, completed_within_slo = 0, arrived_within_slo = 0;
  for (const ServedRequest& r : trace.requests) {
    if (r.end_s < 0) continue;  // never served (the run was cut short)
    const double latency_ms = r.latency_s() * 1e3;
    const auto& slo = spec.tenants[r.tenant].slo_ms;
    const bool meets_slo = !slo || latency_ms <= *slo;
    TenantStats& t = tenants[r.tenant];
    if (r.end_s > start && r.end_s <= end) {
      ++completed;
      ++t.completed;
      completed_within_slo += meets_slo;
    }
    if (r.arrival_s < start || r.arrival_s > end) continue;
    t.latency_ms.push_back(latency_ms);
    t.queue_ms.push_back((r.start_s - r.ready_s) * 1e3);
    arrived_within_slo += meets_slo;
    all_latency.push_back(latency_ms);
    all_queue.push_back(t.queue_ms.back());
  }
  const auto count = static_cast<double>(completed);
  const auto arrived = static_cast<double>(all_latency.size());
  const auto mean = [](const std::vector<double>& v) {
    return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  };
  MetricTable& m = result.metrics;
  m.set("requests", count);
  m.set("throughput_per_s", count / span_s);
  // No request in the window: no latency to report (left out, so a constraint on one is unmet
  // rather than met by a zero).
  if (!all_latency.empty()) {
    m.set("latency_mean_ms", mean(all_latency));
    const double max_ms = *std::max_element(all_latency.begin(), all_latency.end());
    m.set("latency_p50_ms", nearest_rank_percentile(all_latency, 0.50));
    m.set("latency_p95_ms", nearest_rank_percentile(all_latency, 0.95));
    m.set("latency_p99_ms", nearest_rank_percentile(all_latency, 0.99));
    m.set("latency_max_ms", max_ms);
    m.set("queue_delay_mean_ms", mean(all_queue));
  }
  if (any_slo(spec)) {
    m.set("goodput_per_s", static_cast<double>(completed_within_slo) / span_s);
    if (arrived > 0) m.set("slo_violation_rate", 1.0 - static_cast<double>(arrived_within_slo) / arrived);
  }

  // Batches logged before any reading (NaN: none since the governor last acted) are not judged
  // against the cap: they are neither over nor under it.
  double batch_sum = 0, batch_count = 0, batches_logged = 0, batches_over = 0;
  for (const ServedBatch& b : trace.batches) {
    if (b.start_s < start || b.start_s > end) continue;
    batch_sum += b.size, batch_count += 1;
    if (std::isnan(b.logged_power_w)) continue;
    batches_logged += 1;
    if (spec.power_cap_w && b.logged_power_w > *spec.power_cap_w) batches_over += 1;
  }
  if (batch_count > 0) m.set("batch_mean", batch_sum / batch_count);  // no batch: none to average

  const TimePs start_ps = to_ps(start), end_ps = to_ps(end);
  const double energy_j =
      result.power.empty() ? 0.0 : series_energy_j(result.power, end_ps) - series_energy_j(result.power, start_ps);
  std::optional<double> peak_w;  // no reading in the window: no peak to report
  for (const PowerSample& s : trace.sensor)
    if (s.time_s() > start && s.time_s() <= end) peak_w = std::max(peak_w.value_or(s.power_w), s.power_w);
  const double avg_w = energy_j / span_s;
  const double throughput = count / span_s;
  m.set("energy_j", energy_j);
  m.set("power_avg_w", avg_w);
  if (peak_w) m.set("power_peak_w", *peak_w);
  if (count > 0) m.set("energy_per_inference_j", energy_j / count);  // none completed: none to divide by
  m.set("perf_per_w", avg_w > 0 ? throughput / avg_w : 0.0);
  const double clock =
      result.power.empty()
          ? 0.0
          : StepIntegral(result.power, end_ps, &PowerSample::clock_mhz).between(start_ps, end_ps) / span_s;
  m.set(experiment.device->clock_metric(), clock);
  const MetricTable cheap = experiment.device->cheap_metrics();
  for (const auto& entry : cheap.entries()) m.set(entry.name, entry.value);
  const double tdp_w = cheap.find("tdp_w").value_or(0.0);
  m.set("perf_per_tdp", tdp_w > 0 ? throughput / tdp_w : 0.0);

  if (spec.power_cap_w) {
    const double cap = *spec.power_cap_w, period = spec.control_period_s;
    // Consecutive control periods of the window; one is over the cap when a reading in it is, and
    // one without a reading is not judged. The readings come in time order: counting where the
    // period changes needs no table of periods (a 1e6 s window of 1 ms periods would need 1 GB).
    const auto periods = static_cast<std::size_t>(std::max(1.0, std::ceil(span_s / period)));
    std::size_t judged = 0, periods_over = 0, last_read = periods, last_over = periods;  // `periods`: none yet
    for (const PowerSample& s : trace.sensor) {
      if (s.time_s() <= start || s.time_s() > end) continue;
      const std::size_t k = std::min(periods - 1, static_cast<std::size_t>((s.time_s() - start) / period));
      if (k != last_read) ++judged, last_read = k;
      if (s.power_w > cap && k != last_over) ++periods_over, last_over = k;
    }
    m.set("power_cap_w", cap);
    if (judged > 0) m.set("periods_over_cap_share", static_cast<double>(periods_over) / static_cast<double>(judged));
    if (batches_logged > 0) m.set("batches_over_cap_share", batches_over / batches_logged);
  }
  if (spec.tenants.size() >= 2)
    for (std::size_t i = 0; i < spec.tenants.size(); ++i) {
      m.set(per_model_metric("throughput_per_s_model<I>", i), static_cast<double>(tenants[i].completed) / span_s);
      if (!tenants[i].latency_ms.empty())
        m.set(per_model_metric("latency_p99_ms_model<I>", i), nearest_rank_percentile(tenants[i].latency_ms, 0.99));
    }
}

}  // namespace dse
