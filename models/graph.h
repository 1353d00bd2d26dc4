// A DNN as a DAG of operators over named tensors (Boost.Graph underneath, hidden here).
//
// Contract: an op can only consume tensors that already exist (graph inputs or outputs of earlier
// ops), so the graph is acyclic by construction and insertion order is one topological order.
// Ids are dense indices, stable for the life of the graph. Copying a Graph copies everything.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "models/op.h"
#include "models/tensor.h"

namespace dse {

class Graph {
 public:
  explicit Graph(std::string name);
  Graph(const Graph& other);
  Graph& operator=(const Graph& other);
  Graph(Graph&&) noexcept;
  Graph& operator=(Graph&&) noexcept;
  ~Graph();

  const std::string& name() const { return name_; }

  TensorId add_input(std::string name, Shape shape, DType dtype);
  TensorId add_input(std::string name, Shape shape, DType dtype, Layout layout);
  // A constant tensor (an initializer). A learnt one (`parameter`) counts as parameters in the ops
  // that read it; a literal (a scale factor, say) only as bytes.
  TensorId add_constant(std::string name, Shape shape, DType dtype, bool parameter = true);
  // Adds `op` producing `output`; fills op.output and returns the new tensor's id.
  // Throws std::invalid_argument if an input id does not exist.
  TensorId add_op(Op op, Tensor output);

  // References stay valid only until the next add_*: copy what you keep across one.
  const Tensor& tensor(TensorId id) const { return tensors_.at(id); }
  const Op& op(OpId id) const { return ops_.at(id); }
  std::span<const Op> ops() const { return ops_; }
  std::span<const Tensor> tensors() const { return tensors_; }
  // Graph inputs (not constants).
  std::span<const TensorId> inputs() const { return inputs_; }
  // Tensors no op consumes.
  std::vector<TensorId> outputs() const;
  // The op that writes `tensor`, or nullopt for a graph input.
  std::optional<OpId> producer(TensorId tensor) const { return producers_.at(tensor); }

  std::vector<OpId> predecessors(OpId op) const;
  std::vector<OpId> successors(OpId op) const;
  // The topological order that takes the lowest ready op id first (insertion order for graphs
  // built op by op; deterministic for any graph).
  std::vector<OpId> topological_order() const;

  // Sum over ops, counting a parameter tensor read by several ops once.
  OpCost total_cost() const;

 private:
  struct Adjacency;
  std::string name_;
  std::vector<Tensor> tensors_;
  std::vector<std::optional<OpId>> producers_;
  std::vector<TensorId> inputs_;
  std::vector<Op> ops_;
  std::unique_ptr<Adjacency> adjacency_;
};

}  // namespace dse
