#include "models/graph.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <functional>
#include <queue>
#include <stdexcept>

namespace dse {

struct Graph::Adjacency {
  boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS> dag;
};

Graph::Graph(std::string name) : name_(std::move(name)), adjacency_(std::make_unique<Adjacency>()) {}
Graph::Graph(const Graph& other)
    : name_(other.name_),
      tensors_(other.tensors_),
      producers_(other.producers_),
      inputs_(other.inputs_),
      ops_(other.ops_),
      adjacency_(std::make_unique<Adjacency>(*other.adjacency_)) {}
Graph& Graph::operator=(const Graph& other) {
  if (this != &other) *this = Graph(other);
  return *this;
}
Graph::Graph(Graph&&) noexcept = default;
Graph& Graph::operator=(Graph&&) noexcept = default;
Graph::~Graph() = default;

TensorId Graph::add_input(std::string name, Shape shape, DType dtype) {
  const Layout layout = default_layout(shape.size());
  return add_input(std::move(name), std::move(shape), dtype, layout);
}

TensorId Graph::add_input(std::string name, Shape shape, DType dtype, Layout layout) {
  tensors_.push_back({std::move(name), std::move(shape), dtype, false, false, layout});
  producers_.push_back(std::nullopt);
  inputs_.push_back(tensors_.size() - 1);
  return tensors_.size() - 1;
}

TensorId Graph::add_constant(std::string name, Shape shape, DType dtype, bool parameter) {
  const Layout layout = default_layout(shape.size());
  tensors_.push_back({std::move(name), std::move(shape), dtype, true, parameter, layout});
  producers_.push_back(std::nullopt);
  return tensors_.size() - 1;
}

TensorId Graph::add_op(Op op, Tensor output) {
  for (const auto input : op.inputs) {
    if (input >= tensors_.size()) {
      throw std::invalid_argument("op '" + op.name + "' consumes tensor id " + std::to_string(input) +
                                  " that does not exist");
    }
  }
  const OpId id = ops_.size();
  const auto vertex = boost::add_vertex(adjacency_->dag);
  (void)vertex;
  for (const auto input : op.inputs) {
    if (const auto from = producers_[input]) boost::add_edge(*from, id, adjacency_->dag);
  }
  tensors_.push_back(std::move(output));
  producers_.push_back(id);
  op.output = tensors_.size() - 1;
  ops_.push_back(std::move(op));
  return ops_.back().output;
}

std::vector<TensorId> Graph::outputs() const {
  std::vector<bool> consumed(tensors_.size(), false);
  for (const auto& op : ops_)
    for (const auto input : op.inputs) consumed[input] = true;
  std::vector<TensorId> out;
  for (TensorId id = 0; id < tensors_.size(); ++id)
    if (!consumed[id] && producers_[id]) out.push_back(id);
  return out;
}

std::vector<OpId> Graph::predecessors(OpId op) const {
  std::vector<OpId> out;
  for (auto [it, end] = boost::in_edges(op, adjacency_->dag); it != end; ++it)
    out.push_back(boost::source(*it, adjacency_->dag));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<OpId> Graph::successors(OpId op) const {
  std::vector<OpId> out;
  for (auto [it, end] = boost::out_edges(op, adjacency_->dag); it != end; ++it)
    out.push_back(boost::target(*it, adjacency_->dag));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<OpId> Graph::topological_order() const {
  // Kahn's algorithm taking the smallest ready id first: deterministic, and insertion order for
  // graphs built op by op.
  const auto& dag = adjacency_->dag;
  std::vector<std::size_t> waiting(ops_.size());
  std::priority_queue<OpId, std::vector<OpId>, std::greater<>> ready;
  for (OpId op = 0; op < ops_.size(); ++op) {
    waiting[op] = boost::in_degree(op, dag);
    if (waiting[op] == 0) ready.push(op);
  }
  std::vector<OpId> order;
  order.reserve(ops_.size());
  while (!ready.empty()) {
    const OpId op = ready.top();
    ready.pop();
    order.push_back(op);
    for (auto [it, end] = boost::out_edges(op, dag); it != end; ++it) {
      const OpId next = boost::target(*it, dag);
      if (--waiting[next] == 0) ready.push(next);
    }
  }
  return order;
}

OpCost Graph::total_cost() const {
  OpCost total;
  std::vector<int> readers(tensors_.size(), 0);
  for (const auto& op : ops_) {
    total += op.cost;
    for (const auto input : op.inputs) ++readers[input];
  }
  // A parameter read by several ops (tied embeddings) is still one set of parameters.
  for (TensorId id = 0; id < tensors_.size(); ++id) {
    if (tensors_[id].parameter && readers[id] > 1) total.params -= (readers[id] - 1) * tensors_[id].elements();
  }
  return total;
}

}  // namespace dse
