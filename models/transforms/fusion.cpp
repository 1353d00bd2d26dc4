#include "models/transforms/fusion.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

#include "models/ops/op_factory.h"
#include "models/ops/op_library.h"
#include "models/transforms/rebuild.h"

namespace dse::transforms {
namespace {

// Consumers of each tensor, and whether it is a graph output.
struct Uses {
  std::vector<std::vector<OpId>> consumers;
  std::vector<bool> is_output;
  explicit Uses(const Graph& g) : consumers(g.tensors().size()), is_output(g.tensors().size(), false) {
    for (OpId id = 0; id < g.ops().size(); ++id)
      for (const auto input : g.op(id).inputs) consumers[input].push_back(id);
    for (const auto id : g.outputs()) is_output[id] = true;
  }
  // The one op that reads `tensor`, if exactly one does and it is not a graph output.
  std::optional<OpId> sole_consumer(TensorId tensor) const {
    if (is_output[tensor] || consumers[tensor].size() != 1) return std::nullopt;
    return consumers[tensor][0];
  }
};

// Replaces groups of ops (each in topological order; only its last op's output may be used outside
// it) by one op made by `make_group`; other ops are rebuilt as they are.
using MakeGroup = std::function<TensorId(Graph& out, const Graph& in, const std::vector<OpId>& group,
                                         const std::vector<TensorId>& external_inputs_in,
                                         const std::vector<TensorId>& external_inputs_out)>;

Graph apply_groups(const Graph& graph, const std::vector<std::vector<OpId>>& groups, const MakeGroup& make_group) {
  std::map<OpId, std::size_t> group_of_last;
  std::set<OpId> grouped;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    group_of_last[groups[i].back()] = i;
    grouped.insert(groups[i].begin(), groups[i].end());
  }
  Graph out(graph.name());
  std::vector<std::optional<TensorId>> mapped(graph.tensors().size());
  for (TensorId id = 0; id < graph.tensors().size(); ++id) {
    const Tensor& t = graph.tensor(id);
    if (graph.producer(id)) continue;
    mapped[id] = t.constant ? out.add_constant(t.name, t.shape, t.dtype, t.parameter)
                            : out.add_input(t.name, t.shape, t.dtype, t.layout);
  }
  for (const OpId id : graph.topological_order()) {
    const Op& op = graph.op(id);
    if (const auto it = group_of_last.find(id); it != group_of_last.end()) {
      const auto& group = groups[it->second];
      std::set<TensorId> produced;
      for (const auto member : group) produced.insert(graph.op(member).output);
      std::vector<TensorId> external_in, external_out;
      for (const auto member : group) {
        for (const auto input : graph.op(member).inputs) {
          if (produced.contains(input) || std::find(external_in.begin(), external_in.end(), input) != external_in.end())
            continue;
          external_in.push_back(input);
          external_out.push_back(*mapped[input]);
        }
      }
      mapped[op.output] = make_group(out, graph, group, external_in, external_out);
      continue;
    }
    if (grouped.contains(id)) continue;  // built with its group
    std::vector<TensorId> inputs;
    for (const auto input : op.inputs) inputs.push_back(*mapped[input]);
    mapped[op.output] = ops::make_op(out, op.kind, op.name, inputs, op.attributes);
  }
  return out;
}

// A fused op doing the members' work. Owned weights (conv kernels, norm scales) stay inside.
TensorId make_fused(Graph& out, const Graph& in, const std::vector<OpId>& group, const std::vector<TensorId>&,
                    const std::vector<TensorId>& inputs) {
  ops::FusedWork work;
  for (const auto member : group) {
    const Op& op = in.op(member);
    if (!work.members.empty()) work.members += "+";
    work.members += op.kind == OpKind::fused ? std::get<std::string>(op.attributes.at("members"))
                                             : std::string(op_kind_name(op.kind));
    work.macs += op.cost.macs;
    work.flops += op.cost.flops;
    work.gemms.insert(work.gemms.end(), op.gemms.begin(), op.gemms.end());
    // Weights the op owns (not graph constants, which are inputs of the fused op).
    std::int64_t constant_params = 0, constant_bytes = 0;
    for (const auto input : op.inputs) {
      const Tensor& t = in.tensor(input);
      if (t.constant) constant_bytes += t.bytes();
      if (t.parameter) constant_params += t.elements();
    }
    work.params += op.cost.params - constant_params;
    work.param_bytes += op.cost.param_bytes - constant_bytes;
    work.side_bytes_written += op.cost.bytes_written - in.tensor(op.output).bytes();
  }
  const Op& last = in.op(group.back());
  std::string name = in.op(group.front()).name;
  if (group.size() > 1) {  // (two appends: GCC 12 warns falsely on "+" + string)
    name += '+';
    name += std::to_string(group.size() - 1);
  }
  return ops::fused(out, name, inputs, in.tensor(last.output).shape, in.tensor(last.output).dtype, work);
}

}  // namespace

Graph fold_batchnorm(const Graph& graph) {
  const Uses uses(graph);
  std::vector<std::vector<OpId>> groups;
  for (OpId id = 0; id < graph.ops().size(); ++id) {
    const Op& op = graph.op(id);
    if (op.kind != OpKind::conv2d) continue;
    const auto next = uses.sole_consumer(op.output);
    if (next && graph.op(*next).kind == OpKind::batchnorm) groups.push_back({id, *next});
  }
  return apply_groups(graph, groups,
                      [](Graph& out, const Graph& in, const std::vector<OpId>& group, const std::vector<TensorId>&,
                         const std::vector<TensorId>& inputs) {
                        const Op& conv = in.op(group[0]);
                        Attributes attributes = conv.attributes;
                        attributes["bias"] = std::int64_t{1};
                        return ops::make_op(out, OpKind::conv2d, conv.name, {inputs.at(0)}, attributes);
                      });
}

namespace {
// Grows a group from `start` through following elementwise ops that are the sole consumers.
std::vector<std::vector<OpId>> chains(const Graph& graph, const std::function<bool(const Op&)>& starts,
                                      const std::function<bool(const Op&)>& extends) {
  const Uses uses(graph);
  std::vector<bool> taken(graph.ops().size(), false);
  std::vector<std::vector<OpId>> groups;
  for (const OpId id : graph.topological_order()) {
    if (taken[id] || !starts(graph.op(id))) continue;
    std::vector<OpId> group{id};
    for (auto next = uses.sole_consumer(graph.op(id).output); next && !taken[*next] && extends(graph.op(*next));
         next = uses.sole_consumer(graph.op(*next).output)) {
      group.push_back(*next);
    }
    if (group.size() < 2) continue;
    for (const auto member : group) taken[member] = true;
    groups.push_back(group);
  }
  return groups;
}

// Joins elementwise groups where one group's result feeds only an elementwise op of another (or of
// none), as in a diamond: gelu_new's x -> {x / 2; x^3 -> ... -> 1 + tanh} -> product is two chains
// that meet at the product. The joined group keeps topological order and ends with the consumer's
// last op, the only one whose result is used outside it.
std::vector<std::vector<OpId>> join_elementwise(const Graph& graph, std::vector<std::vector<OpId>> groups) {
  const Uses uses(graph);
  const auto order = graph.topological_order();
  std::vector<std::size_t> position(graph.ops().size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  std::vector<std::optional<std::size_t>> group_of(graph.ops().size());
  for (std::size_t i = 0; i < groups.size(); ++i)
    for (const auto op : groups[i]) group_of[op] = i;
  for (bool joined = true; joined;) {
    joined = false;
    for (std::size_t i = 0; i < groups.size(); ++i) {
      if (groups[i].empty()) continue;
      const auto next = uses.sole_consumer(graph.op(groups[i].back()).output);
      if (!next || !is_elementwise(graph.op(*next).kind) || group_of[*next] == i) continue;
      if (!group_of[*next]) {
        group_of[*next] = groups.size();
        groups.push_back({*next});
      }
      const std::size_t into = *group_of[*next];
      for (const auto op : groups[i]) group_of[op] = into;
      groups[into].insert(groups[into].end(), groups[i].begin(), groups[i].end());
      groups[i].clear();
      std::sort(groups[into].begin(), groups[into].end(), [&](OpId a, OpId b) { return position[a] < position[b]; });
      joined = true;
    }
  }
  std::erase_if(groups, [](const std::vector<OpId>& group) { return group.empty(); });
  return groups;
}
}  // namespace

Graph fuse_epilogues(const Graph& graph) {
  const auto groups = chains(
      graph, [](const Op& op) { return op.kind == OpKind::conv2d || op.kind == OpKind::matmul; },
      [](const Op& op) { return is_elementwise(op.kind) && op.kind != OpKind::cast; });
  return apply_groups(graph, groups, make_fused);
}

Graph fuse_elementwise(const Graph& graph) {
  const auto groups = join_elementwise(graph, chains(
                                                  graph, [](const Op& op) { return is_elementwise(op.kind); },
                                                  [](const Op& op) { return is_elementwise(op.kind); }));
  return apply_groups(graph, groups, make_fused);
}

Graph fuse_attention(const Graph& graph) {
  const Uses uses(graph);
  std::vector<std::vector<OpId>> groups;
  for (OpId id = 0; id < graph.ops().size(); ++id) {
    const Op& scores = graph.op(id);
    if (scores.kind != OpKind::matmul || scores.inputs.size() != 2 || scores.attributes.contains("out_features"))
      continue;
    if (!reads_b_transposed(scores)) continue;
    std::vector<OpId> group{id};
    auto next = uses.sole_consumer(scores.output);
    // optional scale by a constant, then an optional mask add
    if (next && (graph.op(*next).kind == OpKind::mul || graph.op(*next).kind == OpKind::div) &&
        graph.tensor(graph.op(*next).inputs.back()).constant) {
      group.push_back(*next);
      next = uses.sole_consumer(graph.op(*next).output);
    }
    if (next && graph.op(*next).kind == OpKind::add) {
      group.push_back(*next);
      next = uses.sole_consumer(graph.op(*next).output);
    }
    if (!next || graph.op(*next).kind != OpKind::softmax) continue;
    group.push_back(*next);
    next = uses.sole_consumer(graph.op(*next).output);
    if (!next || graph.op(*next).kind != OpKind::matmul ||
        graph.op(*next).inputs.at(0) != graph.op(group.back()).output)
      continue;
    group.push_back(*next);
    groups.push_back(group);
  }
  return apply_groups(
      graph, groups,
      [](Graph& out, const Graph& in, const std::vector<OpId>& group, const std::vector<TensorId>& external_in,
         const std::vector<TensorId>& external_out) -> TensorId {
        // Inputs by role: Q and K from the scores matmul, V from the context matmul, the mask from the add.
        const auto mapped = [&](TensorId old) {
          const auto at = std::find(external_in.begin(), external_in.end(), old) - external_in.begin();
          return external_out.at(static_cast<std::size_t>(at));
        };
        const Op& scores = in.op(group.front());
        const Op& context = in.op(group.back());
        std::optional<TensorId> mask;
        for (const auto member : group) {
          const Op& op = in.op(member);
          if (op.kind != OpKind::add) continue;
          for (const auto input : op.inputs)  // the operand not computed inside the group
            if (std::find(external_in.begin(), external_in.end(), input) != external_in.end()) mask = mapped(input);
        }
        std::string name = scores.name;
        if (const auto dot = name.rfind('.'); dot != std::string::npos) name = name.substr(0, dot);
        return ops::attention(out, name + ".attention", mapped(scores.inputs[0]), mapped(scores.inputs[1]),
                              mapped(context.inputs[1]), mask);
      });
}

// `mapped` is a scratch table over the graph's tensors, all empty, which it leaves empty again (one
// per graph rather than per segment: cut op by op, a 100,000-op graph would clear it 100,000 times).
Graph split_segment_helper(const Graph& graph, const std::vector<OpId>& ops, std::size_t index,
                           std::vector<std::optional<TensorId>>& mapped) {
  Graph out(graph.name() + ".segment" + std::to_string(index));
  std::vector<TensorId> touched;
  const auto map_input = [&](TensorId id) {
    if (mapped[id]) return *mapped[id];
    const Tensor& t = graph.tensor(id);
    mapped[id] = t.constant ? out.add_constant(t.name, t.shape, t.dtype, t.parameter)
                            : out.add_input(t.name, t.shape, t.dtype, t.layout);
    touched.push_back(id);
    return *mapped[id];
  };
  for (const auto id : ops) {
    const Op& op = graph.op(id);
    std::vector<TensorId> inputs;
    for (const auto input : op.inputs) inputs.push_back(map_input(input));
    mapped[op.output] = ops::make_op(out, op.kind, op.name, inputs, op.attributes);
    touched.push_back(op.output);
  }
  for (const TensorId id : touched) mapped[id].reset();
  return out;
}

std::vector<Graph> split_segments(const Graph& graph, const std::vector<std::string>& cut_after) {
  std::set<std::string> cuts(cut_after.begin(), cut_after.end());
  std::set<std::string_view> names;
  for (const Op& op : graph.ops()) names.insert(op.name);
  for (const auto& name : cut_after)
    if (!names.contains(name)) throw std::invalid_argument(graph.name() + ": no op named '" + name + "' to cut after");
  std::vector<Graph> segments;
  std::vector<OpId> current;
  std::vector<std::optional<TensorId>> mapped(graph.tensors().size());
  for (const OpId id : graph.topological_order()) {
    current.push_back(id);
    if (cuts.contains(graph.op(id).name)) {
      segments.push_back(split_segment_helper(graph, current, segments.size(), mapped));
      current.clear();
    }
  }
  if (!current.empty()) segments.push_back(split_segment_helper(graph, current, segments.size(), mapped));
  return segments;
}

DSE_REGISTER_FACTORY(GraphTransform, "fold_batchnorm", "conv + batchnorm -> conv with bias (inference folding)",
                     fold_batchnorm)
DSE_REGISTER_FACTORY(GraphTransform, "fuse_epilogues", "conv/matmul + following elementwise ops -> one kernel",
                     fuse_epilogues)
DSE_REGISTER_FACTORY(GraphTransform, "fuse_elementwise", "chains of elementwise ops -> one kernel", fuse_elementwise)
DSE_REGISTER_FACTORY(GraphTransform, "fuse_attention", "matmul-scale-mask-softmax-matmul -> fused attention",
                     fuse_attention)
DSE_REGISTER_FACTORY(GraphTransform, "remove_dead_ops", "drop ops no graph output depends on",
                     [](const Graph& g) { return remove_dead_ops(g); })

}  // namespace dse::transforms
