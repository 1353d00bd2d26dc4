#include "search/schedule_space.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <random>

#include "sim/config/config_loader.h"
#include "sim/runtime/schedule.h"
#include "sim/runtime/schedule_generator.h"
#include "sim/runtime/schedule_yaml.h"

namespace dse {
namespace {

// A generator seeded by u alone (SplitMix64 of its bits), so a value depends on u and nothing else.
std::mt19937_64 rng_from(double u) {
  std::uint64_t x = std::bit_cast<std::uint64_t>(u) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return std::mt19937_64(x ^ (x >> 31));
}

std::size_t pick(std::mt19937_64& rng, std::size_t n) {
  return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
}

// Where segment `ref` sits in the issue order.
std::size_t issue_position(const ScheduleSpec& spec, const SegmentRef& ref) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < spec.order.size(); ++i)
    if (spec.order[i] == ref.tenant && seen++ == ref.segment) return i;
  return spec.order.size();
}

// Drops the sync points between neighbouring segments of one tenant and adds back those the
// streams need (a mutation may have put them on one stream, or on two).
void renew_tenant_order_waits(ScheduleSpec& spec) {
  std::erase_if(spec.waits, [](const ScheduleSpec::Wait& w) {
    return w.waiter.tenant == w.waited.tenant && w.waiter.segment == w.waited.segment + 1;
  });
  add_tenant_order_waits(spec);
}

// Renumbers tenant t's segments in the sync points after segment `at` was split in two (+1) or
// segments at and at+1 were merged (-1); drops waits that became a segment on itself.
void renumber_waits(ScheduleSpec& spec, std::size_t t, std::size_t at, int shift) {
  for (auto& wait : spec.waits)
    for (SegmentRef* ref : {&wait.waiter, &wait.waited})
      if (ref->tenant == t && ref->segment > at)
        ref->segment = static_cast<std::size_t>(static_cast<long>(ref->segment) + shift);
  std::erase_if(spec.waits, [](const ScheduleSpec::Wait& w) { return w.waiter == w.waited; });
}

// A sync point on a segment of another tenant issued before it, if there is one.
bool add_cross_wait(ScheduleSpec& spec, std::mt19937_64& rng) {
  if (spec.order.size() < 2) return false;
  const std::size_t waiter_pos = 1 + pick(rng, spec.order.size() - 1);
  std::vector<std::size_t> counts(spec.tenants.size(), 0);
  std::vector<SegmentRef> earlier;
  SegmentRef waiter;
  for (std::size_t i = 0; i <= waiter_pos; ++i) {
    const SegmentRef ref{spec.order[i], counts[spec.order[i]]++};
    if (i == waiter_pos)
      waiter = ref;
    else
      earlier.push_back(ref);
  }
  std::erase_if(earlier, [&](const SegmentRef& r) { return r.tenant == waiter.tenant; });
  if (earlier.empty()) return false;
  spec.waits.push_back({waiter, earlier[pick(rng, earlier.size())], {}});
  return true;
}

}  // namespace

ScheduleSampler::ScheduleSampler(std::vector<std::shared_ptr<const Graph>> tenants, const ConfigNode& block)
    : tenants_(std::move(tenants)) {
  block.expect_map("the schedule space: {max_segments, streams, priorities, sync_points, host_threads, seeds}");
  const auto count = static_cast<std::int64_t>(tenants_.size());
  max_segments_ = static_cast<std::size_t>(block.param<std::int64_t>("max_segments").in_range(1, 4096).with_default(8));
  streams_ =
      block.param<int>("streams").in_range(1, 64).with_default(static_cast<int>(std::max<std::int64_t>(1, count)));
  priorities_ = block.param<int>("priorities").in_range(1, 64).with_default(1);
  sync_points_ = block.param<double>("sync_points").in_range(0, 1).with_default(0.1);
  host_threads_ = block.param<int>("host_threads").in_range(1, 64).with_default(1);
  const std::string threads = host_threads_ == 1 ? "" : ", host_threads: " + std::to_string(host_threads_);
  const std::vector<std::string> policies = ScheduleGeneratorRegistry::instance().names();
  if (const ConfigNode* seeds = block.find("seeds")) {
    for (const auto& seed : seeds->items()) {
      const std::string policy = seed.as<std::string>();
      if (std::find(policies.begin(), policies.end(), policy) == policies.end())
        seed.fail(fmt::format("expected a schedule policy ({}), found '{}'", fmt::join(policies, ", "), policy));
      seeds_.push_back("{policy: " + policy + threads + "}");
    }
  } else {
    for (const auto& policy : policies) seeds_.push_back("{policy: " + policy + threads + "}");
  }
}

std::string ScheduleSampler::sample(double u) const {
  std::mt19937_64 rng = rng_from(u);
  ScheduleSpec spec;
  spec.policy = "explicit";
  spec.host_threads = host_threads_;
  std::vector<std::size_t> segments;
  for (const auto& graph : tenants_) {
    const std::size_t ops = graph->ops().size();
    const std::size_t most = std::max<std::size_t>(1, std::min(max_segments_, ops));
    const std::size_t count = 1 + pick(rng, most);
    // count - 1 distinct cut positions in [0, ops - 2].
    std::vector<std::size_t> positions(ops > 1 ? ops - 1 : 0);
    for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = i;
    std::shuffle(positions.begin(), positions.end(), rng);
    positions.resize(std::min(positions.size(), count - 1));
    std::sort(positions.begin(), positions.end());
    ScheduleSpec::Tenant tenant;
    tenant.cuts = positions;
    for (std::size_t k = 0; k <= tenant.cuts.size(); ++k)
      tenant.streams.push_back(static_cast<int>(pick(rng, streams_)));
    segments.push_back(tenant.streams.size());
    spec.tenants.push_back(std::move(tenant));
  }
  for (int s = 0; s < streams_; ++s) spec.stream_priority.push_back(static_cast<int>(pick(rng, priorities_)));
  spec.order = depth_first_order(segments);
  std::shuffle(spec.order.begin(), spec.order.end(), rng);  // any interleaving keeps each tenant's order
  add_tenant_order_waits(spec);
  std::bernoulli_distribution extra(sync_points_);
  for (std::size_t i = 0; i < spec.order.size(); ++i)
    if (extra(rng)) add_cross_wait(spec, rng);
  resolve_schedule(spec, tenants_);  // a logic error here is a bug of this sampler
  return schedule_yaml(spec, tenants_);
}

std::string ScheduleSampler::mutate(const std::string& value, double u) const {
  std::mt19937_64 rng = rng_from(u);
  const ScheduleSpec parent = read_schedule_spec(parse_yaml_value(value, {"schedule", 1, 1}), "", tenants_);
  for (int attempt = 0; attempt < 32; ++attempt) {
    ScheduleSpec spec = parent;
    spec.policy = "explicit";
    bool changed = false;
    switch (pick(rng, 7)) {
      case 0: {  // move a cut between its neighbours
        const std::size_t t = pick(rng, spec.tenants.size());
        auto& cuts = spec.tenants[t].cuts;
        if (cuts.empty()) break;
        const std::size_t j = pick(rng, cuts.size());
        const std::size_t low = j == 0 ? 0 : cuts[j - 1] + 1;
        const std::size_t high = j + 1 < cuts.size() ? cuts[j + 1] - 1 : tenants_[t]->ops().size() - 2;
        if (high <= low) break;
        const std::size_t moved = low + pick(rng, high - low + 1);
        changed = moved != cuts[j];
        cuts[j] = moved;
        break;
      }
      case 1: {  // split a segment: its second half on a random stream, issued right after the first
        const std::size_t t = pick(rng, spec.tenants.size());
        auto& tenant = spec.tenants[t];
        if (tenant.cuts.size() + 1 >= max_segments_) break;
        const std::size_t ops = tenants_[t]->ops().size();
        const std::size_t k = pick(rng, tenant.cuts.size() + 1);
        const std::size_t first = k == 0 ? 0 : tenant.cuts[k - 1] + 1;
        const std::size_t last = k < tenant.cuts.size() ? tenant.cuts[k] : ops - 1;
        if (last <= first) break;  // one op: nothing to split
        const std::size_t cut = first + pick(rng, last - first);
        const std::size_t position = issue_position(spec, {t, k});
        tenant.cuts.insert(tenant.cuts.begin() + static_cast<std::ptrdiff_t>(k), cut);
        tenant.streams.insert(tenant.streams.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                              static_cast<int>(pick(rng, streams_)));
        spec.order.insert(spec.order.begin() + static_cast<std::ptrdiff_t>(position) + 1, t);
        renumber_waits(spec, t, k, +1);
        changed = true;
        break;
      }
      case 2: {  // merge a segment into the one before it (on that one's stream)
        const std::size_t t = pick(rng, spec.tenants.size());
        auto& tenant = spec.tenants[t];
        if (tenant.cuts.empty()) break;
        const std::size_t j = pick(rng, tenant.cuts.size());  // merges segments j and j + 1
        const std::size_t position = issue_position(spec, {t, j + 1});
        tenant.cuts.erase(tenant.cuts.begin() + static_cast<std::ptrdiff_t>(j));
        tenant.streams.erase(tenant.streams.begin() + static_cast<std::ptrdiff_t>(j) + 1);
        spec.order.erase(spec.order.begin() + static_cast<std::ptrdiff_t>(position));
        for (auto& wait : spec.waits)
          for (SegmentRef* ref : {&wait.waiter, &wait.waited})
            if (ref->tenant == t && ref->segment == j + 1) ref->segment = j;
        renumber_waits(spec, t, j + 1, -1);
        changed = true;
        break;
      }
      case 3: {  // another stream for one segment
        const std::size_t t = pick(rng, spec.tenants.size());
        auto& streams = spec.tenants[t].streams;
        const std::size_t k = pick(rng, streams.size());
        const int stream = static_cast<int>(pick(rng, streams_));
        changed = stream != streams[k];
        streams[k] = stream;
        break;
      }
      case 4: {  // another priority for one stream
        if (priorities_ < 2) break;
        spec.stream_priority.resize(static_cast<std::size_t>(streams_), 0);
        const std::size_t s = pick(rng, spec.stream_priority.size());
        const int priority = static_cast<int>(pick(rng, priorities_));
        changed = priority != spec.stream_priority[s];
        spec.stream_priority[s] = priority;
        break;
      }
      case 5: {  // swap two neighbours of the issue order (of different tenants)
        if (spec.order.size() < 2) break;
        const std::size_t i = pick(rng, spec.order.size() - 1);
        if (spec.order[i] == spec.order[i + 1]) break;
        std::swap(spec.order[i], spec.order[i + 1]);
        changed = true;
        break;
      }
      default: {  // add or drop a sync point between tenants
        std::vector<std::size_t> cross;
        for (std::size_t w = 0; w < spec.waits.size(); ++w)
          if (spec.waits[w].waiter.tenant != spec.waits[w].waited.tenant) cross.push_back(w);
        if (!cross.empty() && pick(rng, 2) == 0) {
          spec.waits.erase(spec.waits.begin() + static_cast<std::ptrdiff_t>(cross[pick(rng, cross.size())]));
          changed = true;
        } else {
          changed = add_cross_wait(spec, rng);
        }
        break;
      }
    }
    if (!changed) continue;
    renew_tenant_order_waits(spec);
    try {
      resolve_schedule(spec, tenants_);
    } catch (const UserError&) {
      continue;  // it would deadlock (a sync point against the new order): try another change
    }
    return schedule_yaml(spec, tenants_);
  }
  return value;
}

}  // namespace dse
