#include "sim/runtime/schedule_yaml.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>

#include "models/base/did_you_mean.h"
#include "sim/config/config_loader.h"
#include "sim/runtime/schedule_generator.h"

namespace dse {
namespace {

constexpr const char* kExplicitForm =
    "the schedule: {policy: NAME}, {file: X.yaml}, or {streams, tenants, order, waits}; and host_threads";

// "T.k" as a segment reference.
SegmentRef segment_ref(const ConfigNode& node, const std::string& text) {
  const auto dot = text.find('.');
  SegmentRef ref;
  const auto number = [&text](std::size_t from, std::size_t to, std::size_t& out) {
    if (from >= to) return false;
    const auto [end, error] = std::from_chars(text.data() + from, text.data() + to, out);
    return error == std::errc() && end == text.data() + to;
  };
  if (dot == std::string::npos || !number(0, dot, ref.tenant) || !number(dot + 1, text.size(), ref.segment))
    node.fail("expected a segment as TENANT.SEGMENT (\"1.0\": the second model's first segment), found \"" + text +
              "\"");
  return ref;
}

ScheduleSpec::Tenant read_tenant(const ConfigNode& item, std::size_t index, const Graph& graph) {
  item.expect_map("a tenant: {cut_after: [op names] or segment_ops: K, streams: [per segment] or stream: S}");
  ScheduleSpec::Tenant tenant;
  tenant.where = {item.mark(), item.path()};
  const std::vector<OpId> order = graph.topological_order();
  if (const ConfigNode* cut_after = item.find("cut_after")) {
    if (item.has("segment_ops")) item.fail("expected one of cut_after or segment_ops, found both");
    std::map<std::string, std::size_t, std::less<>> position;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < order.size(); ++i) {
      position.emplace(graph.op(order[i]).name, i);
      names.push_back(graph.op(order[i]).name);
    }
    for (const auto& name : cut_after->items()) {
      const std::string text = name.as<std::string>();
      const auto it = position.find(text);
      if (it == position.end())
        name.fail(fmt::format("expected an op of {} to cut after, found '{}'{} (dse models show {} lists them)",
                              graph.name(), text, did_you_mean_suffix(text, names), graph.name()));
      tenant.cuts.push_back(it->second);
    }
  } else if (const auto segment_ops = item.param<std::int64_t>("segment_ops").in_range(1, 1'000'000).optional()) {
    tenant.cuts = cuts_every(order.size(), static_cast<std::size_t>(*segment_ops));
  }
  const std::size_t segments = tenant.cuts.size() + 1;
  if (const ConfigNode* streams = item.find("streams")) {
    if (item.has("stream")) item.fail("expected one of streams or stream, found both");
    for (const auto& stream : streams->items()) tenant.streams.push_back(stream.as<int>());
  } else {
    tenant.streams.assign(segments, item.param<int>("stream").in_range(0, 63).with_default(static_cast<int>(index)));
  }
  return tenant;
}

ScheduleSpec read_explicit(const ConfigNode& block, const std::vector<std::shared_ptr<const Graph>>& tenants) {
  ScheduleSpec spec;
  spec.policy = "explicit";
  spec.where = {block.mark(), block.path()};
  if (const ConfigNode* streams = block.find("streams"))
    for (const auto& priority : streams->items()) spec.stream_priority.push_back(priority.as<int>());
  const ConfigNode& list = block.at("tenants", "one entry per workload model: {cut_after, streams}");
  if (list.items().size() != tenants.size())
    list.fail(fmt::format("expected one entry per workload model ({}), found {}", tenants.size(), list.items().size()));
  for (std::size_t t = 0; t < tenants.size(); ++t) spec.tenants.push_back(read_tenant(list.items()[t], t, *tenants[t]));
  std::vector<std::size_t> segments;
  for (const auto& tenant : spec.tenants) segments.push_back(tenant.cuts.size() + 1);
  spec.order = depth_first_order(segments);
  if (const ConfigNode* order = block.find("order")) {
    spec.order_where = {order->mark(), order->path()};
    if (order->is_scalar()) {
      const std::string name = order->as<std::string>();
      if (name == "breadth_first")
        spec.order = breadth_first_order(segments);
      else if (name != "depth_first")
        order->fail("expected depth_first, breadth_first or a list of tenant indices, found \"" + name + "\"");
    } else {
      spec.order.clear();
      for (const auto& tenant : order->items())
        spec.order.push_back(static_cast<std::size_t>(tenant.as<std::int64_t>()));
    }
  }
  if (const ConfigNode* waits = block.find("waits")) {
    waits->expect_map("sync points: {\"T.k\": [segments it waits for]}");
    for (const auto& key : waits->keys()) {
      const ConfigNode& value = *waits->find(key);
      const ScheduleWhere where{waits->key_mark(key), value.path()};
      const SegmentRef waiter = segment_ref(value, key);
      const auto add = [&](const ConfigNode& item) {
        spec.waits.push_back({waiter, segment_ref(item, item.as<std::string>()), where});
      };
      if (value.is_sequence()) {
        for (const auto& item : value.items()) add(item);
      } else {
        add(value);
      }
    }
  }
  return spec;
}

// Double-quoted YAML text.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

template <class T>
std::string flow_list(const std::vector<T>& items, const std::function<std::string(const T&)>& text) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + text(items[i]);
  return out + "]";
}

}  // namespace

ScheduleSpec generate_schedule(const std::string& policy, const ConfigNode& block,
                               const std::vector<std::shared_ptr<const Graph>>& tenants) {
  const auto* entry = ScheduleGeneratorRegistry::instance().find(policy);
  if (!entry) throw std::logic_error("schedule policy '" + policy + "' not registered");
  ScheduleSpec spec = entry->factory(tenants, block);
  spec.policy = policy;
  spec.where = {block.mark(), block.path()};
  add_tenant_order_waits(spec);
  return spec;
}

ScheduleSpec read_schedule_spec(const ConfigNode& block, const std::string& config_file,
                                const std::vector<std::shared_ptr<const Graph>>& tenants) {
  block.expect_map(kExplicitForm);
  if (const auto file = block.param<std::string>("file").optional()) {
    const std::string path = resolve_config_path(config_file, *file);
    if (!config_file_exists(path))
      block.find("file")->fail("expected an existing schedule file, found no file '" + path + "'");
    const ConfigNode loaded = load_config_file(path);
    loaded.expect_map(kExplicitForm);
    if (loaded.has("file")) loaded.find("file")->fail("expected a schedule, found another file: reference");
    ScheduleSpec spec = read_schedule_spec(loaded, config_file, tenants);
    loaded.check_unknown_keys();
    return spec;
  }
  ScheduleSpec spec;
  if (block.has("policy")) {
    const std::string policy = block.param<std::string>("policy")
                                   .one_of(ScheduleGeneratorRegistry::instance().names(), "a schedule policy")
                                   .required();
    spec = generate_schedule(policy, block, tenants);
  } else {
    spec = read_explicit(block, tenants);
  }
  spec.host_threads = block.param<int>("host_threads").in_range(1, 64).with_default(1);
  return spec;
}

ResolvedSchedule read_schedule(const ConfigNode* block, const std::string& config_file,
                               const std::vector<std::shared_ptr<const Graph>>& tenants) {
  if (!block) return resolve_schedule(generate_schedule("single_stream", ConfigNode::map({}), tenants), tenants);
  return resolve_schedule(read_schedule_spec(*block, config_file, tenants), tenants);
}

std::string schedule_yaml(const ScheduleSpec& spec, const std::vector<std::shared_ptr<const Graph>>& tenants) {
  std::string out = "{streams: " + flow_list<int>(spec.stream_priority, [](const int& p) { return std::to_string(p); });
  out += ", tenants: [";
  for (std::size_t t = 0; t < spec.tenants.size(); ++t) {
    const auto& tenant = spec.tenants[t];
    const std::vector<OpId> order = tenants[t]->topological_order();
    out += t ? ", {" : "{";
    const std::size_t every = tenant.cuts.empty() ? 0 : tenant.cuts.front() + 1;
    if (!tenant.cuts.empty() && tenant.cuts == cuts_every(order.size(), every))
      out += "segment_ops: " + std::to_string(every) + ", ";
    else if (!tenant.cuts.empty())
      out += "cut_after: " +
             flow_list<std::size_t>(tenant.cuts,
                                    [&](const std::size_t& cut) { return quoted(tenants[t]->op(order[cut]).name); }) +
             ", ";
    const bool one_stream =
        std::all_of(tenant.streams.begin(), tenant.streams.end(), [&](int s) { return s == tenant.streams.front(); });
    out += one_stream ? "stream: " + std::to_string(tenant.streams.front())
                      : "streams: " + flow_list<int>(tenant.streams, [](const int& s) { return std::to_string(s); });
    out += "}";
  }
  out += "]";
  std::vector<std::size_t> segments;
  for (const auto& tenant : spec.tenants) segments.push_back(tenant.cuts.size() + 1);
  if (spec.order == breadth_first_order(segments))
    out += ", order: breadth_first";
  else if (spec.order != depth_first_order(segments))
    out += ", order: " + flow_list<std::size_t>(spec.order, [](const std::size_t& t) { return std::to_string(t); });
  if (spec.host_threads != 1) out += ", host_threads: " + std::to_string(spec.host_threads);
  if (!spec.waits.empty()) {
    // Grouped by the waiting segment, in the order they were given.
    std::vector<std::pair<SegmentRef, std::vector<SegmentRef>>> grouped;
    for (const auto& wait : spec.waits) {
      auto it = std::find_if(grouped.begin(), grouped.end(), [&](const auto& g) { return g.first == wait.waiter; });
      if (it == grouped.end()) it = grouped.insert(grouped.end(), {wait.waiter, {}});
      it->second.push_back(wait.waited);
    }
    out += ", waits: {";
    for (std::size_t i = 0; i < grouped.size(); ++i)
      out += (i ? ", " : "") + quoted(grouped[i].first.str()) + ": " +
             flow_list<SegmentRef>(grouped[i].second, [](const SegmentRef& r) { return quoted(r.str()); });
    out += "}";
  }
  return out + "}";
}

}  // namespace dse
