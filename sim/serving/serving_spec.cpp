#include "sim/serving/serving_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

#include "sim/serving/serving_budget.h"

namespace dse {
namespace {

// What a clock level may be, for an error: every operating point when they are few, else their
// range and the two around `mhz`.
std::string describe_points(const std::vector<OperatingPoint>& points, double mhz) {
  if (points.size() <= 16) {
    std::string list;
    for (const OperatingPoint& p : points) list += fmt::format("{}{:g}", list.empty() ? "" : ", ", p.clock_mhz);
    return list + " MHz";
  }
  const auto above = std::find_if(points.begin(), points.end(), [mhz](const auto& p) { return p.clock_mhz > mhz; });
  std::string around;
  if (above != points.begin() && above != points.end())
    around = fmt::format("; around {:g}: {:g} and {:g}", mhz, std::prev(above)->clock_mhz, above->clock_mhz);
  return fmt::format("{} clocks from {:g} to {:g} MHz{}", points.size(), points.front().clock_mhz,
                     points.back().clock_mhz, around);
}

// Clock levels: the block's list (ascending, within the device's operating points; one of them
// where those are the only clocks it can be set to, as the entry itself), or the device's
// operating points (a GPU's clock table, an accelerator's V-f levels).
std::vector<double> read_clock_levels(const ConfigNode& serving, const Device& device) {
  const std::vector<OperatingPoint> points = device.operating_points();
  std::vector<double> levels;
  if (const ConfigNode* list = serving.find("clock_levels_mhz")) {
    if (points.empty()) list->fail("this device has no clock to set; remove clock_levels_mhz");
    const double lowest = points.front().clock_mhz, highest = points.back().clock_mhz;
    double previous = 0;  // the level before, as written
    for (const ConfigNode& item : list->items()) {
      const double mhz = item.as<double>();
      if (!(mhz >= lowest && mhz <= highest))
        item.fail(fmt::format("expected a clock of {}'s operating points, {:g} to {:g} MHz, found {:g}", device.name(),
                              lowest, highest, mhz));
      if (!levels.empty() && mhz <= previous)
        item.fail(fmt::format("expected clock levels in ascending order, found {:g} after {:g}", mhz, previous));
      previous = mhz;
      double level = mhz;
      if (device.only_operating_points()) {
        // The driver takes only its table's clocks (nvidia-smi -ac refuses others), as device.sm_clock_mhz.
        const auto nearest = std::min_element(points.begin(), points.end(), [mhz](const auto& a, const auto& b) {
          return std::abs(a.clock_mhz - mhz) < std::abs(b.clock_mhz - mhz);
        });
        if (std::abs(nearest->clock_mhz - mhz) > 0.5)
          item.fail(fmt::format("expected a clock of {}'s driver table ({}), found {:g}", device.name(),
                                describe_points(points, mhz), mhz));
        level = nearest->clock_mhz;
        if (!levels.empty() && level <= levels.back())
          item.fail(fmt::format("expected clock levels of distinct table entries, found {:g}, the entry {:g} again",
                                mhz, level));
      }
      levels.push_back(level);
    }
    if (levels.empty()) list->fail("expected at least one clock level, found an empty sequence");
    return levels;
  }
  for (const OperatingPoint& point : points) levels.push_back(point.clock_mhz);
  return levels;
}

std::optional<HostStage> read_host(const ConfigNode& tenant) {
  const ConfigNode* host = tenant.find("host");
  if (!host) return std::nullopt;
  host->expect_map("a host stage: {per_item_ms, workers} or {per_item_ms, per_batch_ms, stage: batch}");
  HostStage stage;
  const std::string where =
      host->param<std::string>("stage").one_of({"request", "batch"}, "a host stage").with_default("request");
  stage.stage = where == "batch" ? HostStage::Stage::batch : HostStage::Stage::request;
  stage.per_item_s = host->param<double>("per_item_ms").in_range(0, 1e6).required() * 1e-3;
  // Each stage has its own key; the other's is refused rather than ignored.
  if (stage.stage == HostStage::Stage::batch) {
    stage.per_batch_s = host->param<double>("per_batch_ms").in_range(0, 1e6).with_default(0.0) * 1e-3;
    if (const ConfigNode* workers = host->find("workers"))
      workers->fail(
          "expected no workers with stage: batch (each instance decodes its own batch; `instances` says "
          "how many run at once)");
  } else {
    stage.workers = host->param<int>("workers").in_range(1, 1 << 20).with_default(1);
    if (const ConfigNode* per_batch = host->find("per_batch_ms"))
      per_batch->fail("expected per_batch_ms only with stage: batch (a request stage's work is per request)");
  }
  return stage;
}

ServingTenantSpec read_tenant(const ConfigNode& tenant, const ConfigNode& model_entry, const std::string& config_file,
                              std::optional<double> duration_s) {
  tenant.expect_map("a tenant: {arrivals, slo_ms, batching, instances, host}");
  ServingTenantSpec spec;
  spec.model_entry = model_entry;
  spec.model = model_entry.is_map() && model_entry.has("name") ? model_entry.at("name", "").as<std::string>() : "";
  spec.slo_ms = tenant.param<double>("slo_ms").in_range(1e-6, 1e9).optional();
  spec.instances = tenant.param<int>("instances").in_range(1, 64).with_default(1);
  spec.host = read_host(tenant);
  const ConfigNode& arrivals =
      tenant.at("arrivals", "the tenant's request arrivals, e.g. {name: poisson, rate_per_s: 100}");
  const auto process = dse::make_arrivals(arrivals, config_file);  // validates (and marks) the block's keys
  spec.arrivals = arrivals;
  spec.arrival_rate_per_s = process->mean_rate_per_s();
  if (duration_s) spec.expected_requests = process->expected_arrivals(*duration_s);
  const ConfigNode& batching = tenant.at("batching", "the tenant's batching policy, e.g. {name: fixed, batch: 8}");
  const auto policy = dse::make_batching(batching, spec.slo_ms);
  spec.max_batch = policy->max_batch();
  spec.largest_own_batch = policy->largest_own_batch();
  spec.batching = batching;
  return spec;
}

}  // namespace

std::unique_ptr<ArrivalProcess> ServingSpec::make_arrivals(std::size_t tenant) const {
  return dse::make_arrivals(tenants.at(tenant).arrivals, config_file);
}

std::unique_ptr<BatchingPolicy> ServingSpec::make_batching(std::size_t tenant) const {
  return dse::make_batching(tenants.at(tenant).batching, tenants.at(tenant).slo_ms);
}

std::unique_ptr<Governor> ServingSpec::make_governor(const GovernorContext& context) const {
  return governor ? dse::make_governor(*governor, context) : nullptr;
}

GovernorContext ServingSpec::governor_context() const {
  GovernorContext context;
  context.max_batch = tenants.at(governed_tenant).max_batch;
  context.clock_levels_mhz = clock_levels_mhz;
  context.default_clock_level = clock_levels_mhz.empty() ? -1 : static_cast<int>(clock_levels_mhz.size()) - 1;
  context.slo_ms = tenants.at(governed_tenant).slo_ms;
  return context;
}

std::shared_ptr<const ServingSpec> read_serving_spec(const ConfigNode& serving, const ConfigNode& models,
                                                     const std::string& config_file, const Device& device) {
  serving.expect_map("the serving run: {duration_s or requests, tenants, governor, ...}");
  auto spec = std::make_shared<ServingSpec>();
  spec->config_file = config_file;
  spec->duration_s = serving.param<double>("duration_s").in_range(1e-6, kLongestServingRun_s).optional();
  spec->requests = serving.param<std::int64_t>("requests").in_range(1, std::int64_t{1} << 40).optional();
  if (spec->duration_s.has_value() == spec->requests.has_value())
    serving.fail(spec->duration_s ? "expected one of duration_s and requests, found both"
                                  : "expected how long the run lasts: duration_s (simulated seconds) or requests");
  spec->warmup_s = serving.param<double>("warmup_s").in_range(0, kLongestServingRun_s).with_default(0.0);
  if (const ConfigNode* warmup = serving.find("warmup_s")) spec->warmup = *warmup;
  if (spec->duration_s && spec->warmup_s >= *spec->duration_s)
    serving.find("warmup_s")
        ->fail(fmt::format("expected a warm-up shorter than duration_s ({:g} s), found {:g} s", *spec->duration_s,
                           spec->warmup_s));
  spec->seed = static_cast<std::uint64_t>(
      serving.param<std::int64_t>("seed").in_range(0, std::numeric_limits<std::int64_t>::max()).with_default(1));
  spec->sensor_period_s = serving.param<double>("sensor_period_s").in_range(1e-4, 60).with_default(0.1);
  spec->sensor_window_s = serving.param<double>("sensor_window_s").in_range(0, 60).optional();
  spec->clock_change_s = serving.param<double>("clock_change_ms").in_range(0, 1e5).with_default(0.0) * 1e-3;
  spec->clock_levels_mhz = read_clock_levels(serving, device);

  const ConfigNode& tenants = serving.at("tenants", "a sequence with one tenant per model of workload.models");
  if (tenants.items().size() != models.items().size())
    tenants.fail(fmt::format("expected one tenant per model of workload.models ({}), found {}", models.items().size(),
                             tenants.items().size()));
  for (std::size_t i = 0; i < tenants.items().size(); ++i)
    spec->tenants.push_back(read_tenant(tenants.items()[i], models.items()[i], config_file, spec->duration_s));

  if (const ConfigNode* governor = serving.find("governor")) {
    governor->expect_map("a governor: {name, power_cap_w, tenant, ...}");
    spec->governed_tenant = static_cast<std::size_t>(
        governor->param<int>("tenant").in_range(0, static_cast<int>(spec->tenants.size()) - 1).with_default(0));
    GovernorContext context = spec->governor_context();
    // Validation only: the model oracles are the run's (sim/serving/serving_sim.cpp).
    context.best_setting = [](double, std::optional<double>) { return std::optional<ServingKnobs>(); };
    context.predicted_power_w = [](const ServingKnobs&) { return 0.0; };
    const auto check = dse::make_governor(*governor, context);
    spec->power_cap_w = check->power_cap_w();
    if (check->period_s() > 0) spec->control_period_s = check->period_s();
    spec->governor = *governor;
  }
  check_serving_budget(serving, *spec);
  return spec;
}

}  // namespace dse
