#include "sim/runtime/schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <stdexcept>

#include "models/transforms/fusion.h"

namespace dse {
namespace {

// Largest stream index a schedule may use (CUDA has no limit; 64 keeps the tables small and is
// more streams than any GPU has hardware queues: 32 on Kepler and later).
constexpr int kMaxStream = 63;

[[noreturn]] void fail(const ScheduleSpec& spec, const ScheduleWhere& where, const std::string& message) {
  if (spec.policy != "explicit")
    throw std::logic_error("schedule generator '" + spec.policy + "' made an invalid schedule: " + message);
  const ScheduleWhere& at = where.mark.line > 0 ? where : spec.where;
  throw ConfigError(at.mark, at.path.empty() ? "schedule" : at.path, message);
}

// A happens-before edge between segments (positions in issue order), and why it exists.
struct Edge {
  std::size_t to = 0;
  bool wait = false;  // a sync point; otherwise the stream's order
};

// Segments on a cycle of `edges` (each followed by the edge to the next), or empty if acyclic.
std::vector<std::pair<std::size_t, Edge>> find_cycle(const std::vector<std::vector<Edge>>& edges) {
  enum class Mark { none, open, done };
  std::vector<Mark> marks(edges.size(), Mark::none);
  std::vector<std::pair<std::size_t, Edge>> path;  // the DFS stack: node and the edge it left by
  for (std::size_t start = 0; start < edges.size(); ++start) {
    if (marks[start] != Mark::none) continue;
    std::vector<std::pair<std::size_t, std::size_t>> stack{{start, 0}};  // node, next edge index
    marks[start] = Mark::open;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next == edges[node].size()) {
        marks[node] = Mark::done;
        stack.pop_back();
        if (!path.empty()) path.pop_back();
        continue;
      }
      const Edge edge = edges[node][next++];
      if (marks[edge.to] == Mark::open) {
        path.emplace_back(node, edge);
        // The cycle is the part of the stack from edge.to onwards.
        std::vector<std::pair<std::size_t, Edge>> cycle;
        std::vector<std::size_t> nodes;
        for (const auto& [n, _] : stack) nodes.push_back(n);
        const auto from = std::find(nodes.begin(), nodes.end(), edge.to) - nodes.begin();
        for (auto i = static_cast<std::size_t>(from); i < path.size(); ++i) cycle.push_back(path[i]);
        return cycle;
      }
      if (marks[edge.to] == Mark::none) {
        path.emplace_back(node, edge);
        marks[edge.to] = Mark::open;
        stack.emplace_back(edge.to, 0);
      }
    }
  }
  return {};
}

std::string describe_cycle(const std::vector<std::pair<std::size_t, Edge>>& cycle,
                           const std::vector<ScheduleSegment>& segments) {
  std::string text;
  for (const auto& [from, edge] : cycle) {
    const ScheduleSegment& a = segments[from];
    const ScheduleSegment& b = segments[edge.to];
    if (!text.empty()) text += "; ";
    text += edge.wait ? fmt::format("{} waits for {}", b.ref.str(), a.ref.str())
                      : fmt::format("stream {} runs {} after {}", a.stream, b.ref.str(), a.ref.str());
  }
  return text;
}

}  // namespace

std::vector<std::size_t> depth_first_order(const std::vector<std::size_t>& segments_per_tenant) {
  std::vector<std::size_t> order;
  for (std::size_t t = 0; t < segments_per_tenant.size(); ++t) order.insert(order.end(), segments_per_tenant[t], t);
  return order;
}

std::vector<std::size_t> breadth_first_order(const std::vector<std::size_t>& segments_per_tenant) {
  std::vector<std::size_t> order;
  const std::size_t rounds =
      segments_per_tenant.empty() ? 0 : *std::max_element(segments_per_tenant.begin(), segments_per_tenant.end());
  for (std::size_t round = 0; round < rounds; ++round)
    for (std::size_t t = 0; t < segments_per_tenant.size(); ++t)
      if (round < segments_per_tenant[t]) order.push_back(t);
  return order;
}

void add_tenant_order_waits(ScheduleSpec& spec) {
  // The waits present, as (waiter tenant, waiter segment, waited tenant, waited segment): a set, not
  // a scan of every wait per segment.
  std::set<std::array<std::size_t, 4>> present;
  for (const ScheduleSpec::Wait& w : spec.waits)
    present.insert({w.waiter.tenant, w.waiter.segment, w.waited.tenant, w.waited.segment});
  for (std::size_t t = 0; t < spec.tenants.size(); ++t) {
    const auto& streams = spec.tenants[t].streams;
    for (std::size_t k = 1; k < streams.size(); ++k) {
      if (streams[k] == streams[k - 1]) continue;
      const SegmentRef waiter{t, k}, waited{t, k - 1};
      if (present.insert({t, k, t, k - 1}).second) spec.waits.push_back({waiter, waited, {}});
    }
  }
}

std::string ResolvedSchedule::summary() const {
  std::size_t waits = 0;
  for (const auto& segment : segments) waits += segment.waits.size();
  return fmt::format("{}: {} tenant{} on {} stream{}, {} segment{}, {} sync point{}, {} host thread{}", spec.policy,
                     spec.tenants.size(), spec.tenants.size() == 1 ? "" : "s", stream_priority.size(),
                     stream_priority.size() == 1 ? "" : "s", segments.size(), segments.size() == 1 ? "" : "s", waits,
                     waits == 1 ? "" : "s", spec.host_threads, spec.host_threads == 1 ? "" : "s");
}

std::optional<std::vector<int>> ResolvedSchedule::stream_per_tenant() const {
  std::vector<int> streams(spec.tenants.size(), 0);
  for (const auto& segment : segments) {
    if (spec.tenants[segment.ref.tenant].streams.size() != 1 || !segment.waits.empty()) return std::nullopt;
    streams[segment.ref.tenant] = segment.stream;
  }
  return streams;
}

ResolvedSchedule resolve_schedule(ScheduleSpec spec, const std::vector<std::shared_ptr<const Graph>>& tenants) {
  if (spec.tenants.size() != tenants.size())
    fail(spec, spec.where,
         fmt::format("expected one entry in tenants per workload model ({}), found {}", tenants.size(),
                     spec.tenants.size()));
  // Each tenant's cuts and streams, against its ops.
  std::vector<std::vector<OpId>> orders;
  std::vector<std::size_t> segment_counts;
  int highest_stream = 0;
  for (std::size_t t = 0; t < tenants.size(); ++t) {
    const ScheduleSpec::Tenant& tenant = spec.tenants[t];
    orders.push_back(tenants[t]->topological_order());
    const std::size_t ops = orders.back().size();
    for (std::size_t i = 0; i < tenant.cuts.size(); ++i) {
      if (tenant.cuts[i] + 1 >= ops)
        fail(spec, tenant.where,
             fmt::format("expected cuts after ops before the last of {} ({} ops), found a cut after op {}",
                         tenants[t]->name(), ops, tenant.cuts[i]));
      if (i > 0 && tenant.cuts[i] <= tenant.cuts[i - 1])
        fail(spec, tenant.where,
             fmt::format("expected cuts in the order of {}'s ops, each once; op '{}' (position {}) comes after '{}' "
                         "(position {})",
                         tenants[t]->name(), tenants[t]->op(orders.back()[tenant.cuts[i - 1]]).name, tenant.cuts[i - 1],
                         tenants[t]->op(orders.back()[tenant.cuts[i]]).name, tenant.cuts[i]));
    }
    const std::size_t segments = tenant.cuts.size() + 1;
    if (tenant.streams.size() != segments)
      fail(spec, tenant.where,
           fmt::format("expected a stream for each of tenant {}'s {} segments, found {}", t, segments,
                       tenant.streams.size()));
    for (const int stream : tenant.streams) {
      if (stream < 0 || stream > kMaxStream)
        fail(spec, tenant.where, fmt::format("expected streams 0 to {}, found {}", kMaxStream, stream));
      highest_stream = std::max(highest_stream, stream);
    }
    segment_counts.push_back(segments);
  }

  ResolvedSchedule out;
  out.stream_priority = spec.stream_priority;
  if (!out.stream_priority.empty() && static_cast<std::size_t>(highest_stream) >= out.stream_priority.size())
    fail(spec, spec.where,
         fmt::format("expected a priority in streams for every stream used: {} are given, stream {} is used",
                     out.stream_priority.size(), highest_stream));
  out.stream_priority.resize(std::max<std::size_t>(out.stream_priority.size(), highest_stream + 1), 0);

  // The issue order: every segment once, each tenant's in its own order.
  if (spec.order.empty()) spec.order = depth_first_order(segment_counts);
  std::vector<std::size_t> issued(tenants.size(), 0);
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> position;  // (tenant, segment) -> issue position
  for (std::size_t i = 0; i < spec.order.size(); ++i) {
    const std::size_t t = spec.order[i];
    if (t >= tenants.size())
      fail(spec, spec.order_where,
           fmt::format("expected tenant indices 0 to {} in the issue order, found {} at position {}",
                       tenants.size() - 1, t, i));
    if (issued[t] == segment_counts[t])
      fail(spec, spec.order_where,
           fmt::format("expected tenant {} {} times in the issue order (once per segment), found it more often", t,
                       segment_counts[t]));
    position[{t, issued[t]}] = i;
    out.segments.push_back({{t, issued[t]}, nullptr, spec.tenants[t].streams[issued[t]], {}});
    ++issued[t];
  }
  for (std::size_t t = 0; t < tenants.size(); ++t)
    if (issued[t] != segment_counts[t])
      fail(spec, spec.order_where,
           fmt::format("expected tenant {} {} times in the issue order (once per segment), found it {} times", t,
                       segment_counts[t], issued[t]));

  // Happens-before edges: each stream's order, and the sync points.
  std::vector<std::vector<Edge>> edges(out.segments.size());
  std::vector<std::optional<std::size_t>> last_on_stream(out.stream_priority.size());
  for (std::size_t i = 0; i < out.segments.size(); ++i) {
    auto& last = last_on_stream[static_cast<std::size_t>(out.segments[i].stream)];
    if (last) edges[*last].push_back({i, false});
    last = i;
  }
  for (const auto& wait : spec.waits) {
    for (const SegmentRef& ref : {wait.waiter, wait.waited})
      if (ref.tenant >= tenants.size() || ref.segment >= segment_counts[ref.tenant])
        fail(spec, wait.where,
             fmt::format("expected a segment T.k of the schedule (tenant T below {}, k below its segment count), "
                         "found {}",
                         tenants.size(), ref.str()));
    if (wait.waiter == wait.waited)
      fail(spec, wait.where,
           "expected a segment to wait for another, found " + wait.waiter.str() + " waiting for itself");
    const std::size_t from = position.at({wait.waited.tenant, wait.waited.segment});
    const std::size_t to = position.at({wait.waiter.tenant, wait.waiter.segment});
    auto& waits = out.segments[to].waits;
    if (std::find(waits.begin(), waits.end(), from) != waits.end()) continue;
    waits.push_back(from);
    edges[from].push_back({to, true});
  }
  if (const auto cycle = find_cycle(edges); !cycle.empty()) {
    // Point at a sync point on the cycle (every cycle has one: the streams' order alone follows the
    // issue order).
    const ScheduleWhere* where = &spec.where;
    for (const auto& [from, edge] : cycle) {
      if (!edge.wait) continue;
      for (const auto& wait : spec.waits)
        if (wait.waiter == out.segments[edge.to].ref && wait.waited == out.segments[from].ref) where = &wait.where;
    }
    fail(spec, *where,
         "expected sync points that can all be met, found a deadlock: " + describe_cycle(cycle, out.segments));
  }

  // What reaches what. A stream runs its segments in order, so a segment that reaches one on a
  // stream reaches every later one there: for each segment and stream used, the first place on that
  // stream it reaches, filled in a reverse topological order (segments x streams, at most 64, where a
  // table of segment pairs would take 5 GB for two 100,000-op graphs cut op by op).
  const std::size_t n = out.segments.size();
  std::vector<std::size_t> slot(out.stream_priority.size(), 0), place(n, 0), next_place;
  std::size_t streams_used = 0;
  {
    std::vector<char> used(out.stream_priority.size(), 0);
    for (const ScheduleSegment& segment : out.segments) used[static_cast<std::size_t>(segment.stream)] = 1;
    for (std::size_t s = 0; s < used.size(); ++s)
      if (used[s]) slot[s] = streams_used++;
    next_place.assign(streams_used, 0);
    for (std::size_t i = 0; i < n; ++i) place[i] = next_place[slot[static_cast<std::size_t>(out.segments[i].stream)]]++;
  }
  constexpr std::uint32_t kUnreached = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> first_reached(n * streams_used, kUnreached);
  {
    std::vector<std::size_t> indegree(n, 0), topo;
    for (const auto& list : edges)
      for (const Edge& e : list) ++indegree[e.to];
    for (std::size_t i = 0; i < n; ++i)
      if (indegree[i] == 0) topo.push_back(i);
    for (std::size_t k = 0; k < topo.size(); ++k)
      for (const Edge& e : edges[topo[k]])
        if (--indegree[e.to] == 0) topo.push_back(e.to);
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
      std::uint32_t* row = &first_reached[*it * streams_used];
      for (const Edge& e : edges[*it]) {
        const std::uint32_t* next = &first_reached[e.to * streams_used];
        std::uint32_t& on_its_stream = row[slot[static_cast<std::size_t>(out.segments[e.to].stream)]];
        on_its_stream = std::min(on_its_stream, static_cast<std::uint32_t>(place[e.to]));
        for (std::size_t s = 0; s < streams_used; ++s) row[s] = std::min(row[s], next[s]);
      }
    }
  }
  const auto reaches = [&](std::size_t from, std::size_t to) {
    return first_reached[from * streams_used + slot[static_cast<std::size_t>(out.segments[to].stream)]] <= place[to];
  };

  // The segments, cut by the graph transform; every tensor a segment takes from an earlier one
  // must come from a segment ordered before it.
  for (std::size_t t = 0; t < tenants.size(); ++t) {
    const Graph& graph = *tenants[t];
    const ScheduleSpec::Tenant& tenant = spec.tenants[t];
    std::vector<std::shared_ptr<const Graph>> graphs;
    if (tenant.cuts.empty()) {
      graphs.push_back(tenants[t]);
    } else {
      std::vector<std::string> cut_after;
      for (const std::size_t cut : tenant.cuts) cut_after.push_back(graph.op(orders[t][cut]).name);
      for (auto& segment : transforms::split_segments(graph, cut_after))
        graphs.push_back(std::make_shared<const Graph>(std::move(segment)));
    }
    // The segment each tensor is produced in.
    std::map<std::string, std::size_t> produced_in;
    std::size_t segment = 0;
    for (std::size_t i = 0; i < orders[t].size(); ++i) {
      produced_in[graph.tensor(graph.op(orders[t][i]).output).name] = segment;
      if (segment < tenant.cuts.size() && tenant.cuts[segment] == i) ++segment;
    }
    for (std::size_t k = 0; k < graphs.size(); ++k) {
      const std::size_t consumer = position.at({t, k});
      out.segments[consumer].graph = graphs[k];
      for (const TensorId input : graphs[k]->inputs()) {
        const auto it = produced_in.find(graphs[k]->tensor(input).name);
        if (it == produced_in.end() || it->second == k) continue;  // a graph input of the tenant
        const std::size_t producer = position.at({t, it->second});
        if (reaches(producer, consumer)) continue;
        const SegmentRef from{t, it->second}, to{t, k};
        fail(spec, tenant.where,
             fmt::format("expected every segment to run after the segments whose outputs it reads, found {} "
                         "(stream {}) reading '{}' from {} (stream {}) with nothing ordering it after that "
                         "segment: add the sync point `waits: {{\"{}\": [\"{}\"]}}`, or run both on one stream",
                         to.str(), tenant.streams[k], graphs[k]->tensor(input).name, from.str(),
                         tenant.streams[it->second], to.str(), from.str()));
      }
    }
  }
  out.spec = std::move(spec);
  return out;
}

}  // namespace dse
