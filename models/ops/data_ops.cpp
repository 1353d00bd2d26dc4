// Data-movement operators and views.

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "models/base/checked_count.h"
#include "models/ops/op_common.h"
#include "models/ops/op_library.h"

namespace dse::ops {
using namespace detail;

TensorId concat(Graph& graph, std::string name, const std::vector<TensorId>& inputs, std::int64_t axis) {
  if (inputs.empty()) throw std::invalid_argument(name + ": concat of nothing");
  Shape out = shape_of(graph, inputs[0]);
  const std::int64_t a = normalize_axis(axis, out.size(), name);
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    const Shape& s = shape_of(graph, inputs[i]);
    if (s.size() != out.size()) throw std::invalid_argument(name + ": concat of different ranks");
    for (std::size_t d = 0; d < s.size(); ++d) {
      if (static_cast<std::int64_t>(d) == a) continue;
      if (s[d] != out[d])
        throw std::invalid_argument(name + ": concat of " + shape_string(out) + " and " + shape_string(s));
    }
    out[static_cast<std::size_t>(a)] += s[static_cast<std::size_t>(a)];
  }
  Op op = start(graph, std::move(name), OpKind::concat, inputs);
  op.attributes["axis"] = a;
  return finish(graph, std::move(op), out, graph.tensor(inputs[0]).dtype);
}

TensorId slice(Graph& graph, std::string name, TensorId input, std::int64_t axis, std::int64_t start_index,
               std::int64_t end, std::int64_t step) {
  Shape out = shape_of(graph, input);
  const auto a = static_cast<std::size_t>(normalize_axis(axis, out.size(), name));
  const std::int64_t dim = out[a];
  const auto clamp = [dim](std::int64_t i) { return std::clamp(i < 0 ? i + dim : i, std::int64_t{0}, dim); };
  const std::int64_t first = clamp(start_index), last = clamp(end);
  if (step < 1) throw std::invalid_argument(name + ": slice step must be positive");
  out[a] = last > first ? (last - first + step - 1) / step : 0;
  const DType dtype = graph.tensor(input).dtype;
  Op op = start(graph, std::move(name), OpKind::slice, {input});
  op.cost.bytes_read =
      checked_mul(element_count(out), dtype_bytes(dtype), "the bytes an op reads");  // reads only what it keeps
  op.attributes["axis"] = static_cast<std::int64_t>(a);
  op.attributes["range"] = std::vector<std::int64_t>{first, last, step};
  return finish(graph, std::move(op), out, dtype);
}

TensorId transpose(Graph& graph, std::string name, TensorId input, const std::vector<std::int64_t>& permutation) {
  const Shape x = shape_of(graph, input);
  std::vector<std::int64_t> sorted = permutation;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int64_t> identity(x.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (sorted != identity) throw std::invalid_argument(name + ": not a permutation of the input's axes");
  Shape out;
  for (const auto p : permutation) out.push_back(x[static_cast<std::size_t>(p)]);
  Op op = start(graph, std::move(name), OpKind::transpose, {input});
  op.attributes["permutation"] = permutation;
  return finish(graph, std::move(op), out, graph.tensor(input).dtype);
}

TensorId pad(Graph& graph, std::string name, TensorId input, const std::vector<std::int64_t>& pads) {
  Shape out = shape_of(graph, input);
  if (pads.size() != 2 * out.size()) throw std::invalid_argument(name + ": pads must have 2 x rank entries");
  for (std::size_t d = 0; d < out.size(); ++d) out[d] += pads[d] + pads[d + out.size()];
  if (std::any_of(out.begin(), out.end(), [](std::int64_t v) { return v < 0; }))
    throw std::invalid_argument(name + ": negative padded size");
  Op op = start(graph, std::move(name), OpKind::pad, {input});
  op.attributes["pads"] = pads;
  return finish(graph, std::move(op), out, graph.tensor(input).dtype);
}

TensorId gather(Graph& graph, std::string name, TensorId data, TensorId indices, std::int64_t axis) {
  const Shape d = shape_of(graph, data), idx = shape_of(graph, indices);
  const auto a = static_cast<std::size_t>(normalize_axis(axis, d.size(), name));
  Shape out(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(a));
  out.insert(out.end(), idx.begin(), idx.end());
  out.insert(out.end(), d.begin() + static_cast<std::ptrdiff_t>(a) + 1, d.end());
  const Tensor table = graph.tensor(data);  // a copy: adding the op reallocates the tensor table
  Op op = start(graph, std::move(name), OpKind::gather, {data, indices});
  // Reads the indices and only the rows it picks, not the whole table.
  const std::int64_t picked = element_count(out) * dtype_bytes(table.dtype);
  op.cost.bytes_read = checked_add(graph.tensor(indices).bytes(), picked, "the bytes an op reads");
  if (table.constant) op.cost.param_bytes = picked;  // params (the whole table) were counted by start()
  op.attributes["axis"] = static_cast<std::int64_t>(a);
  return finish(graph, std::move(op), out, table.dtype);
}

TensorId expand(Graph& graph, std::string name, TensorId input, Shape shape) {
  const Shape out = broadcast_shapes(shape_of(graph, input), shape, name);
  Op op = start(graph, std::move(name), OpKind::expand, {input});
  op.attributes["shape"] = shape;
  return finish(graph, std::move(op), out, graph.tensor(input).dtype);
}

TensorId embedding(Graph& graph, std::string name, TensorId indices, std::int64_t vocab, std::int64_t dim,
                   DType dtype) {
  const TensorId table = graph.add_constant(name + ".weight", {vocab, dim}, dtype);
  return gather(graph, std::move(name), table, indices, 0);
}

TensorId resize(Graph& graph, std::string name, TensorId input, std::int64_t out_h, std::int64_t out_w,
                const std::string& mode) {
  require_rank(graph, input, 4, name);
  if (mode != "nearest" && mode != "linear")
    throw std::invalid_argument(name + ": resize mode must be nearest or linear");
  const Shape x = shape_of(graph, input);
  Op op = start(graph, std::move(name), OpKind::resize, {input});
  op.attributes["mode"] = mode;
  op.attributes["size"] = std::vector<std::int64_t>{out_h, out_w};
  if (mode == "linear")
    op.cost.flops = checked_product("the FLOPs of a resize", 7, x[0], x[1], out_h,
                                    out_w);  // 4 taps: 3 lerps (2 flops) + index math
  return finish(graph, std::move(op), {x[0], x[1], out_h, out_w}, graph.tensor(input).dtype);
}

TensorId kv_cache_append(Graph& graph, std::string name, TensorId cache, TensorId update, std::int64_t axis) {
  Shape out = shape_of(graph, cache);
  const Shape& u = shape_of(graph, update);
  const auto a = static_cast<std::size_t>(normalize_axis(axis, out.size(), name));
  if (u.size() != out.size()) throw std::invalid_argument(name + ": cache and update ranks differ");
  for (std::size_t d = 0; d < u.size(); ++d)
    if (d != a && u[d] != out[d])
      throw std::invalid_argument(name + ": update " + shape_string(u) + " does not fit cache " + shape_string(out));
  out[a] += u[a];
  const DType dtype = graph.tensor(update).dtype;
  Op op = start(graph, std::move(name), OpKind::kv_cache_append, {cache, update});
  // In place: reads the new entries and writes them after the past ones; consumers read the whole
  // cache (their bytes_read), so the past is not counted here.
  op.cost.bytes_read = graph.tensor(update).bytes();
  op.attributes["axis"] = static_cast<std::int64_t>(a);
  const TensorId result = finish(graph, std::move(op), out, dtype);
  return result;
}

namespace {
TensorId view(Graph& graph, std::string name, OpKind kind, TensorId input, Shape out, Attributes attributes) {
  if (element_count(out) != graph.tensor(input).elements())
    throw std::invalid_argument(name + ": cannot view " + shape_string(shape_of(graph, input)) + " as " +
                                shape_string(out));
  Op op = start(graph, std::move(name), kind, {input});
  op.cost = OpCost{};  // a view reads and writes nothing
  op.attributes = std::move(attributes);
  Tensor output{op.name + ":out", std::move(out), graph.tensor(input).dtype};
  return graph.add_op(std::move(op), std::move(output));
}
}  // namespace

TensorId reshape(Graph& graph, std::string name, TensorId input, Shape shape) {
  const std::int64_t total = graph.tensor(input).elements();
  std::int64_t known = 1;
  int inferred = -1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (inferred >= 0) throw std::invalid_argument(name + ": more than one -1 in reshape");
      inferred = static_cast<int>(i);
    } else if (shape[i] < 0) {
      throw std::invalid_argument(name + ": negative dimension in reshape");
    } else {
      known *= shape[i];
    }
  }
  if (inferred >= 0) {
    if (known == 0 || total % known != 0) throw std::invalid_argument(name + ": cannot infer -1 in reshape");
    shape[static_cast<std::size_t>(inferred)] = total / known;
  }
  Attributes attributes{{"shape", std::vector<std::int64_t>(shape.begin(), shape.end())}};
  return view(graph, std::move(name), OpKind::reshape, input, std::move(shape), std::move(attributes));
}

TensorId flatten(Graph& graph, std::string name, TensorId input, std::int64_t axis) {
  const Shape& x = shape_of(graph, input);
  if (x.empty()) throw std::invalid_argument(name + ": flatten of a scalar");
  const auto a = static_cast<std::size_t>(axis < 0 ? axis + static_cast<std::int64_t>(x.size()) : axis);
  if (a > x.size()) throw std::invalid_argument(name + ": flatten axis out of range");
  const Shape head(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(a));
  const Shape tail(x.begin() + static_cast<std::ptrdiff_t>(a), x.end());
  return view(graph, std::move(name), OpKind::flatten, input, {element_count(head), element_count(tail)},
              {{"axis", static_cast<std::int64_t>(a)}});
}

}  // namespace dse::ops
