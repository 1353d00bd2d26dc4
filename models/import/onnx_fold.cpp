// Import-time evaluation of the small integer tensors exporters use to compute shapes
// (Shape -> Gather -> Unsqueeze -> Concat -> Reshape and friends), so that they leave no ops.
#include <algorithm>
#include <cmath>

#include "models/import/onnx_values.h"
#include "models/ops/op_library.h"

namespace dse::onnx_import {
namespace {

bool all_known(const std::vector<const Value*>& inputs, std::size_t from = 0) {
  for (std::size_t i = from; i < inputs.size(); ++i)
    if (!inputs[i] || !inputs[i]->known) return false;
  return true;
}

Value known(Shape shape, std::vector<double> values, DType dtype = DType::int64) {
  Value v;
  v.shape = std::move(shape);
  v.values = std::move(values);
  v.dtype = dtype;
  v.known = true;
  return v;
}

std::vector<std::int64_t> as_ints(const Value& v) {
  std::vector<std::int64_t> out;
  for (const double x : v.values) out.push_back(static_cast<std::int64_t>(x));
  return out;
}

// Elementwise with numpy broadcasting over known values.
std::optional<Value> elementwise(const Value& a, const Value& b, const std::function<double(double, double)>& f,
                                 DType dtype) {
  const Shape out = ops::broadcast_shapes(a.shape, b.shape, "fold");
  const std::int64_t n = element_count(out);
  std::vector<double> values(static_cast<std::size_t>(n));
  const auto index_into = [&out](const Shape& shape, std::int64_t flat) {
    std::int64_t index = 0, stride = 1;
    for (std::size_t d = out.size(); d-- > 0;) {
      const std::int64_t coordinate = flat % out[d];
      flat /= out[d];
      const std::size_t offset = out.size() - shape.size();
      if (d >= offset) {
        const std::int64_t dim = shape[d - offset];
        index += (dim == 1 ? 0 : coordinate) * stride;
        stride *= dim;
      }
    }
    return index;
  };
  for (std::int64_t i = 0; i < n; ++i)
    values[static_cast<std::size_t>(i)] = f(a.values[static_cast<std::size_t>(index_into(a.shape, i))],
                                            b.values[static_cast<std::size_t>(index_into(b.shape, i))]);
  return known(out, std::move(values), dtype);
}

std::vector<std::int64_t> axes_of(const std::vector<const Value*>& inputs, std::size_t input_index,
                                  const FoldContext& context) {
  if (const auto attr = context.ints_attr("axes")) return *attr;
  if (inputs.size() > input_index && inputs[input_index] && inputs[input_index]->known)
    return as_ints(*inputs[input_index]);
  return {};
}

}  // namespace

Shape squeezed_shape(const std::string& op_type, Shape shape, std::vector<std::int64_t> axes) {
  if (op_type == "Unsqueeze") {
    const auto rank = static_cast<std::int64_t>(shape.size() + axes.size());
    for (auto& axis : axes) axis = axis < 0 ? axis + rank : axis;
    std::sort(axes.begin(), axes.end());
    for (const auto axis : axes)
      shape.insert(shape.begin() + std::clamp<std::int64_t>(axis, 0, static_cast<std::int64_t>(shape.size())), 1);
    return shape;
  }
  const auto rank = static_cast<std::int64_t>(shape.size());
  Shape kept;
  for (std::int64_t d = 0; d < rank; ++d) {
    const bool listed = axes.empty() ? shape[static_cast<std::size_t>(d)] == 1
                                     : std::any_of(axes.begin(), axes.end(),
                                                   [&](std::int64_t x) { return (x < 0 ? x + rank : x) == d; });
    if (!listed) kept.push_back(shape[static_cast<std::size_t>(d)]);
  }
  return kept;
}

std::optional<Value> fold(const std::string& op, const std::vector<const Value*>& in, const FoldContext& context) {
  if (op == "Shape") {
    if (in.empty() || !in[0]) return std::nullopt;
    const auto rank = static_cast<std::int64_t>(in[0]->shape.size());
    std::int64_t start = context.int_attr("start").value_or(0), end = context.int_attr("end").value_or(rank);
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = std::clamp<std::int64_t>(start, 0, rank);
    end = std::clamp<std::int64_t>(end, start, rank);
    std::vector<double> dims(in[0]->shape.begin() + start, in[0]->shape.begin() + end);
    return known({static_cast<std::int64_t>(dims.size())}, dims);
  }
  if (op == "Size" && !in.empty() && in[0]) return known({}, {static_cast<double>(element_count(in[0]->shape))});
  if (op == "ConstantOfShape" && all_known(in)) {
    const Shape shape(as_ints(*in[0]).begin(), as_ints(*in[0]).end());
    if (element_count(shape) > (1 << 20)) return std::nullopt;
    return known(
        shape,
        std::vector<double>(static_cast<std::size_t>(element_count(shape)), context.float_attr("value").value_or(0.0)),
        DType::int64);
  }
  if (in.empty() || !all_known(in)) return std::nullopt;
  const Value& a = *in[0];
  if (op == "Identity" || op == "Cast") {
    Value out = a;
    if (op == "Cast") {
      const auto to = context.int_attr("to").value_or(7);
      if (to == 6 || to == 7) std::for_each(out.values.begin(), out.values.end(), [](double& x) { x = std::trunc(x); });
    }
    return out;
  }
  if (op == "Unsqueeze" || op == "Squeeze")
    return known(squeezed_shape(op, a.shape, axes_of(in, 1, context)), a.values, a.dtype);
  if (op == "Concat") {
    std::vector<double> values;
    std::int64_t length = 0;
    for (const auto* v : in) {
      if (v->shape.size() > 1) return std::nullopt;  // shape vectors only
      values.insert(values.end(), v->values.begin(), v->values.end());
      length += v->shape.empty() ? 1 : v->shape[0];
    }
    return known({length}, values, a.dtype);
  }
  if (op == "Gather") {
    if (a.shape.size() != 1 || context.int_attr("axis").value_or(0) != 0) return std::nullopt;
    const Value& indices = *in.at(1);
    std::vector<double> values;
    for (const double index : indices.values) {
      auto i = static_cast<std::int64_t>(index);
      if (i < 0) i += a.shape[0];
      if (i < 0 || i >= a.shape[0]) return std::nullopt;
      values.push_back(a.values[static_cast<std::size_t>(i)]);
    }
    return known(indices.shape, values, a.dtype);
  }
  if (op == "Slice") {
    if (a.shape.size() != 1) return std::nullopt;
    std::vector<std::int64_t> starts, ends, steps;
    if (in.size() >= 3) {
      starts = as_ints(*in[1]);
      ends = as_ints(*in[2]);
      if (in.size() >= 5 && in[4]) steps = as_ints(*in[4]);
    } else {
      starts = context.ints_attr("starts").value_or(std::vector<std::int64_t>{});
      ends = context.ints_attr("ends").value_or(std::vector<std::int64_t>{});
    }
    if (starts.size() != 1 || ends.size() != 1) return std::nullopt;
    const std::int64_t n = a.shape[0], step = steps.empty() ? 1 : steps[0];
    if (step <= 0) return std::nullopt;
    const auto clamp = [n](std::int64_t i) { return std::clamp<std::int64_t>(i < 0 ? i + n : i, 0, n); };
    std::vector<double> values;
    for (std::int64_t i = clamp(starts[0]); i < clamp(ends[0]); i += step)
      values.push_back(a.values[static_cast<std::size_t>(i)]);
    return known({static_cast<std::int64_t>(values.size())}, values, a.dtype);
  }
  if (op == "Reshape") {
    auto shape = as_ints(*in.at(1));
    std::int64_t known_product = 1, inferred = -1;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 0 && d < a.shape.size()) shape[d] = a.shape[d];
      if (shape[d] == -1)
        inferred = static_cast<std::int64_t>(d);
      else
        known_product *= shape[d];
    }
    if (inferred >= 0 && known_product > 0)
      shape[static_cast<std::size_t>(inferred)] = element_count(a.shape) / known_product;
    return known(Shape(shape.begin(), shape.end()), a.values, a.dtype);
  }
  if (op == "Range") {
    const double start = a.values.at(0), limit = in.at(1)->values.at(0), delta = in.at(2)->values.at(0);
    if (delta == 0) return std::nullopt;
    const auto n = std::max<std::int64_t>(0, static_cast<std::int64_t>(std::ceil((limit - start) / delta)));
    if (n > (1 << 20)) return std::nullopt;
    std::vector<double> values;
    for (std::int64_t i = 0; i < n; ++i) values.push_back(start + static_cast<double>(i) * delta);
    return known({n}, values, a.dtype);
  }
  if (in.size() == 2) {
    const Value& b = *in[1];
    using F = std::function<double(double, double)>;
    const std::pair<const char*, F> binary[] = {
        {"Add", [](double x, double y) { return x + y; }},
        {"Sub", [](double x, double y) { return x - y; }},
        {"Mul", [](double x, double y) { return x * y; }},
        {"Div",
         [&a](double x, double y) { return y == 0 ? 0 : (a.dtype == DType::int64 ? std::trunc(x / y) : x / y); }},
        {"Max", [](double x, double y) { return std::max(x, y); }},
        {"Min", [](double x, double y) { return std::min(x, y); }},
        {"Equal", [](double x, double y) { return x == y ? 1.0 : 0.0; }},
        {"Less", [](double x, double y) { return x < y ? 1.0 : 0.0; }},
        {"Greater", [](double x, double y) { return x > y ? 1.0 : 0.0; }},
    };
    for (const auto& [name, f] : binary)
      if (op == name)
        return elementwise(a, b, f, op == "Equal" || op == "Less" || op == "Greater" ? DType::boolean : a.dtype);
  }
  if (op == "Where" && in.size() == 3) {
    // where(c, x, y) = c * x + (1 - c) * y, elementwise with broadcasting
    const auto picked = elementwise(
        *in[0], *in[1], [](double c, double x) { return c != 0 ? x : 0; }, in[1]->dtype);
    const auto others = elementwise(
        *in[0], *in[2], [](double c, double y) { return c != 0 ? 0 : y; }, in[2]->dtype);
    return elementwise(
        *picked, *others, [](double x, double y) { return x + y; }, in[1]->dtype);
  }
  return std::nullopt;
}

}  // namespace dse::onnx_import
