#include "sim/serving/serving_budget.h"

#include <fmt/format.h>

#include <algorithm>
#include <span>
#include <vector>

namespace dse {
namespace {

constexpr const char* kWhy = "a serving run keeps every request in memory, about 150 bytes each: docs/serving.md";

// The key that sets a tenant's number of arrivals: its rate, or its trace file.
const ConfigNode& rate_key(const ConfigNode& arrivals) {
  for (const char* key : {"rate_per_s", "high_rate_per_s", "file"})
    if (const ConfigNode* node = arrivals.peek(key)) return *node;
  return arrivals;
}

double millions(std::int64_t count) { return static_cast<double>(count) * 1e-6; }

}  // namespace

void check_serving_budget(const ConfigNode& serving, const ServingSpec& spec) {
  const std::span<const ConfigNode> tenant_nodes = serving.peek("tenants")->items();
  const std::size_t n = spec.tenants.size();

  // Each open-loop tenant's requests, where they can be told before running, and how long the
  // arrivals take.
  std::vector<std::optional<double>> requests(n);
  double arrivals_s = 0;
  if (spec.requests) {
    if (*spec.requests > kMaxServingRequests)
      serving.peek("requests")
          ->fail(fmt::format("expected at most {:g} million requests ({}), found {}", millions(kMaxServingRequests),
                             kWhy, *spec.requests));
    // They arrive from every tenant at once: each brings its share of the rate.
    double total_rate = 0;
    bool all_known = true;
    for (const ServingTenantSpec& tenant : spec.tenants) {
      all_known = all_known && tenant.arrival_rate_per_s.has_value();
      total_rate += tenant.arrival_rate_per_s.value_or(0);
    }
    if (all_known && total_rate > 0) {
      for (std::size_t i = 0; i < n; ++i)
        requests[i] = static_cast<double>(*spec.requests) * *spec.tenants[i].arrival_rate_per_s / total_rate;
      // Past the longest run the arrivals are refused while running (serving_sim.cpp).
      arrivals_s = std::min(kLongestServingRun_s, static_cast<double>(*spec.requests) / total_rate);
    }
  } else {
    double total = 0;
    std::size_t most = 0;
    for (std::size_t i = 0; i < n; ++i) {
      requests[i] = spec.tenants[i].expected_requests;
      total += requests[i].value_or(0);
      if (requests[i].value_or(0) > requests[most].value_or(0)) most = i;
    }
    if (total > static_cast<double>(kMaxServingRequests)) {
      const std::string share =
          n > 1 ? fmt::format(" over all tenants ({:.3g} from this one)", requests[most].value_or(0)) : "";
      rate_key(*tenant_nodes[most].peek("arrivals"))
          .fail(fmt::format("expected arrivals that bring at most {:g} million requests in duration_s ({:g} s; {}), "
                            "found about {:.3g}{}",
                            millions(kMaxServingRequests), *spec.duration_s, kWhy, total, share));
    }
    arrivals_s = *spec.duration_s;
  }

  // The run lasts at least until every host stage has worked through its tenant's requests.
  double length_s = arrivals_s;
  for (std::size_t i = 0; i < n; ++i) {
    const ServingTenantSpec& tenant = spec.tenants[i];
    const auto& host = tenant.host;
    if (!host || !requests[i]) continue;
    // A per-batch stage runs on the tenant's instances, at least one batch per max_batch requests.
    const bool per_batch = host->stage == HostStage::Stage::batch;
    const int parallel = per_batch ? tenant.instances : host->workers;
    const double per_request_s = host->per_item_s + (per_batch ? host->per_batch_s / tenant.max_batch : 0.0);
    const double host_s = *requests[i] * per_request_s / parallel;
    const std::string each =
        per_batch
            ? fmt::format("{:g} ms each and {:g} ms per batch of up to {} on {} instance{}", host->per_item_s * 1e3,
                          host->per_batch_s * 1e3, tenant.max_batch, parallel, parallel == 1 ? "" : "s")
            : fmt::format("{:g} ms each on {} worker{}", host->per_item_s * 1e3, parallel, parallel == 1 ? "" : "s");
    const std::string needs =
        fmt::format("found one that needs {:.3g} s for the tenant's ~{:.3g} requests ({})", host_s, *requests[i], each);
    if (host_s > kLongestServingRun_s)
      tenant_nodes[i].peek("host")->fail(
          fmt::format("expected a host stage that keeps up with its arrivals, {}, past the {:g} s dse simulates", needs,
                      kLongestServingRun_s));
    length_s = std::max(length_s, host_s);
    const double readings = host_s / spec.sensor_period_s;
    if (readings > static_cast<double>(kMaxSensorReadings))
      tenant_nodes[i].peek("host")->fail(fmt::format(
          "expected a host stage that keeps up with its arrivals, {}, over which the power sensor (every {:g} s) "
          "takes {:.3g} readings, past the {:g} million a serving run keeps in memory (docs/serving.md)",
          needs, spec.sensor_period_s, readings, millions(kMaxSensorReadings)));
  }

  // The power sensor's readings over the run.
  const double readings = length_s / spec.sensor_period_s;
  if (readings > static_cast<double>(kMaxSensorReadings)) {
    const std::string message = fmt::format(
        "expected at most {:g} million power-sensor readings over the run (each is kept in memory: "
        "docs/serving.md), found {:.3g} ({:g} s read every {:g} s); expected a sensor period of at least {:.3g} s",
        millions(kMaxSensorReadings), readings, length_s, spec.sensor_period_s,
        length_s / static_cast<double>(kMaxSensorReadings));
    const ConfigNode* period = serving.peek("sensor_period_s");
    (period ? *period : serving).fail(message);
  }
}

}  // namespace dse
