// ONNX operators to dse operators, one handler per op type.
#include <algorithm>
#include <functional>
#include <map>

#include "models/import/onnx_importer.h"
#include "models/ops/op_library.h"

namespace dse::onnx_import {
namespace {

using Handler = std::function<void(Importer&)>;

std::string out_name(Importer& im, int index = 0) {
  return im.node().output_size() > index && !im.node().output(index).empty() ? im.node().output(index) : im.node_name();
}

// kernel, strides, pads (symmetric; asymmetric pads become an explicit Pad), dilations.
Window window_of(Importer& im, std::int64_t in_h, std::int64_t in_w, std::vector<std::int64_t> kernel,
                 std::vector<std::int64_t>* asymmetric_pads) {
  if (kernel.size() != 2) im.fail("expected a 2-D kernel, found " + std::to_string(kernel.size()) + "-D");
  const auto strides = im.ints_attr("strides").value_or(std::vector<std::int64_t>{1, 1});
  const auto dilations = im.ints_attr("dilations").value_or(std::vector<std::int64_t>{1, 1});
  auto pads = im.ints_attr("pads").value_or(std::vector<std::int64_t>{0, 0, 0, 0});
  const std::string auto_pad = im.string_attr("auto_pad", "NOTSET");
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    const std::int64_t in[] = {in_h, in_w};
    for (int d = 0; d < 2; ++d) {
      const std::int64_t out = (in[d] + strides[d] - 1) / strides[d];
      const std::int64_t total =
          std::max<std::int64_t>(0, (out - 1) * strides[d] + dilations[d] * (kernel[d] - 1) + 1 - in[d]);
      pads[d] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pads[d + 2] = total - pads[d];
    }
  } else if (auto_pad == "VALID") {
    pads = {0, 0, 0, 0};
  }
  if (pads.size() != 4 || strides.size() != 2 || dilations.size() != 2)
    im.fail("expected 2-D pads, strides and dilations");
  Window w{kernel[0], kernel[1], strides[0], strides[1], pads[0], pads[1], dilations[0], dilations[1]};
  if (pads[0] != pads[2] || pads[1] != pads[3]) {
    if (!asymmetric_pads) im.fail("asymmetric padding is not supported here");
    *asymmetric_pads = {0, 0, pads[0], pads[1], 0, 0, pads[2], pads[3]};
    w.pad_h = w.pad_w = 0;
  }
  return w;
}

TensorId padded(Importer& im, TensorId x, const std::vector<std::int64_t>& pads) {
  return pads.empty() ? x : ops::pad(im.graph(), out_name(im) + ".pad", x, pads);
}

void conv(Importer& im) {
  const auto x = im.tensor(0);
  const Shape w = im.input(1).shape;
  if (w.size() != 4) im.fail("expected a 4-D weight, found " + shape_string(w));
  const Shape xs = im.graph().tensor(x).shape;
  if (xs.size() != 4) im.fail("expected an NCHW input, found " + shape_string(xs));
  std::vector<std::int64_t> pads;
  const Window window =
      window_of(im, xs[2], xs[3], im.ints_attr("kernel_shape").value_or(std::vector<std::int64_t>{w[2], w[3]}), &pads);
  const auto groups = im.int_attr("group", 1);
  const bool transposed = im.node().op_type() == "ConvTranspose";
  std::int64_t output_padding = 0;  // ONNX: one per spatial axis, added to the output's far side
  if (const auto extra = im.ints_attr("output_padding"); transposed && extra) {
    if (extra->size() != 2 || (*extra)[0] != (*extra)[1] || (*extra)[0] < 0)
      im.fail("expected output_padding of two equal non-negative values (the same for height and width)");
    output_padding = (*extra)[0];
  }
  const auto input = padded(im, x, pads);
  const TensorId y = transposed ? ops::conv_transpose2d(im.graph(), out_name(im), input, w[1] * groups, window, groups,
                                                        im.has_input(2), output_padding)
                                : ops::conv2d(im.graph(), out_name(im), input, w[0], window, groups, im.has_input(2));
  im.set_output_tensor(0, y);
}

void pool(Importer& im) {
  const auto x = im.tensor(0);
  const Shape xs = im.graph().tensor(x).shape;
  const auto kernel = im.ints_attr("kernel_shape");
  if (!kernel) im.fail("expected kernel_shape");
  std::vector<std::int64_t> pads;
  Window window = window_of(im, xs.at(2), xs.at(3), *kernel, &pads);
  window.rounding = im.int_attr("ceil_mode", 0) != 0 ? Window::Rounding::ceil : Window::Rounding::floor;
  const auto input = padded(im, x, pads);
  const bool max = im.node().op_type() == "MaxPool";
  im.set_output_tensor(0, max ? ops::maxpool(im.graph(), out_name(im), input, window)
                              : ops::avgpool(im.graph(), out_name(im), input, window));
}

// MatMul / Gemm with a constant 2-D right operand: a linear layer (its weights count as params).
void matmul(Importer& im) {
  const bool gemm = im.node().op_type() == "Gemm";
  if (gemm && im.int_attr("transA", 0) != 0) im.fail("transA is not supported");
  const bool trans_b = gemm && im.int_attr("transB", 0) != 0;
  const Value& b = im.input(1);
  if (!b.tensor && b.shape.size() == 2) {
    const auto x = im.tensor(0);
    const std::int64_t n = trans_b ? b.shape[0] : b.shape[1];
    im.set_output_tensor(0, ops::linear(im.graph(), out_name(im), x, n, gemm && im.has_input(2)));
    return;
  }
  auto y = ops::matmul(im.graph(), out_name(im), im.tensor(0), im.tensor(1), trans_b);
  if (gemm && im.has_input(2)) y = ops::add(im.graph(), out_name(im) + ".bias", y, im.tensor(2));
  im.set_output_tensor(0, y);
}

void unary(Importer& im, OpKind kind) {
  im.set_output_tensor(0, ops::unary(im.graph(), out_name(im), kind, im.tensor(0)));
}
void binary(Importer& im, OpKind kind) {
  im.set_output_tensor(0, ops::binary(im.graph(), out_name(im), kind, im.tensor(0), im.tensor(1)));
}

// Views and aliases: the output is the input under another shape (or the same).
void view(Importer& im, Shape shape) {
  const auto x = im.tensor(0);
  if (shape == im.graph().tensor(x).shape) {
    im.set_output_tensor(0, x);
    return;
  }
  im.set_output_tensor(0, ops::reshape(im.graph(), out_name(im), x, std::move(shape)));
}

void reshape(Importer& im) {
  auto target = im.known_ints(1);
  const Shape in = im.input(0).shape;
  for (std::size_t d = 0; d < target.size(); ++d)
    if (target[d] == 0 && !(im.int_attr("allowzero", 0) != 0) && d < in.size()) target[d] = in[d];
  const auto x = im.tensor(0);
  im.set_output_tensor(0, ops::reshape(im.graph(), out_name(im), x, Shape(target.begin(), target.end())));
}

std::vector<std::int64_t> axes_input_or_attr(Importer& im, std::size_t input_index) {
  if (const auto attr = im.ints_attr("axes")) return *attr;
  if (im.has_input(input_index)) return im.known_ints(input_index);
  return {};
}

void squeeze_unsqueeze(Importer& im) {
  view(im, squeezed_shape(im.node().op_type(), im.input(0).shape, axes_input_or_attr(im, 1)));
}

void slice(Importer& im) {
  std::vector<std::int64_t> starts, ends, axes, steps;
  if (im.opset() >= 10) {
    starts = im.known_ints(1);
    ends = im.known_ints(2);
    if (im.has_input(3)) axes = im.known_ints(3);
    if (im.has_input(4)) steps = im.known_ints(4);
  } else {
    starts = im.ints_attr("starts").value_or(starts);
    ends = im.ints_attr("ends").value_or(ends);
    axes = im.ints_attr("axes").value_or(axes);
  }
  if (axes.empty())
    for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<std::int64_t>(i));
  auto x = im.tensor(0);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::int64_t step = steps.empty() ? 1 : steps[i];
    if (step < 1) im.fail("negative slice steps are not supported");
    const std::string name = starts.size() == 1 ? out_name(im) : out_name(im) + "." + std::to_string(i);
    x = ops::slice(im.graph(), name, x, axes.at(i), starts[i], std::min<std::int64_t>(ends.at(i), 1LL << 40), step);
  }
  im.set_output_tensor(0, x);
}

void split(Importer& im) {
  const auto x = im.tensor(0);
  const Shape shape = im.graph().tensor(x).shape;
  const std::int64_t axis = ops::normalize_axis(im.int_attr("axis", 0), shape.size(), im.node_name());
  std::vector<std::int64_t> sizes = im.ints_attr("split").value_or(std::vector<std::int64_t>{});
  if (sizes.empty() && im.has_input(1)) sizes = im.known_ints(1);
  const auto parts = im.node().output_size();
  if (sizes.empty()) sizes.assign(static_cast<std::size_t>(parts), shape[static_cast<std::size_t>(axis)] / parts);
  std::int64_t start = 0;
  for (int i = 0; i < parts; ++i) {
    const auto size = sizes.at(static_cast<std::size_t>(i));
    im.set_output_tensor(static_cast<std::size_t>(i),
                         ops::slice(im.graph(), out_name(im, i), x, axis, start, start + size));
    start += size;
  }
}

void concat(Importer& im) {
  std::vector<TensorId> inputs;
  for (std::size_t i = 0; i < im.input_count(); ++i)
    if (im.has_input(i) && element_count(im.input(i).shape) > 0) inputs.push_back(im.tensor(i));
  im.set_output_tensor(0, ops::concat(im.graph(), out_name(im), inputs, im.int_attr("axis", 0)));
}

void gather(Importer& im) {
  im.set_output_tensor(0, ops::gather(im.graph(), out_name(im), im.tensor(0), im.tensor(1), im.int_attr("axis", 0)));
}

void softmax(Importer& im) {
  // Before opset 13 softmax flattened from `axis` (default 1); on the last axis both agree.
  const auto rank = static_cast<std::int64_t>(im.input(0).shape.size());
  const std::int64_t axis = im.int_attr("axis", im.opset() >= 13 ? -1 : 1);
  if (im.opset() < 13 && axis != rank - 1 && axis != -1)
    im.fail("softmax over several axes (opset < 13) is not supported");
  im.set_output_tensor(0, ops::softmax(im.graph(), out_name(im), im.tensor(0), axis));
}

void reduce(Importer& im, OpKind kind) {
  const auto axes = axes_input_or_attr(im, 1);
  im.set_output_tensor(
      0, ops::reduce(im.graph(), out_name(im), kind, im.tensor(0), axes, im.int_attr("keepdims", 1) != 0));
}

void transpose(Importer& im) {
  auto perm = im.ints_attr("perm").value_or(std::vector<std::int64_t>{});
  if (perm.empty())
    for (auto d = static_cast<std::int64_t>(im.input(0).shape.size()); d-- > 0;) perm.push_back(d);
  im.set_output_tensor(0, ops::transpose(im.graph(), out_name(im), im.tensor(0), perm));
}

void pad(Importer& im) {
  const auto pads = im.opset() >= 11 ? im.known_ints(1) : im.ints_attr("pads").value_or(std::vector<std::int64_t>{});
  im.set_output_tensor(0, ops::pad(im.graph(), out_name(im), im.tensor(0), pads));
}

void resize(Importer& im) {
  const auto x = im.tensor(0);
  const Shape shape = im.graph().tensor(x).shape;
  if (shape.size() != 4) im.fail("expected an NCHW input");
  std::int64_t out_h = 0, out_w = 0;
  const std::size_t scales_input = im.node().op_type() == "Upsample" ? 1 : (im.opset() >= 11 ? 2 : 1);
  if (im.opset() >= 11 && im.has_input(3)) {
    const auto sizes = im.known_ints(3);
    out_h = sizes.at(2);
    out_w = sizes.at(3);
  } else if (im.has_input(scales_input) && im.input(scales_input).known && !im.input(scales_input).values.empty()) {
    const auto& scales = im.input(scales_input).values;
    out_h = static_cast<std::int64_t>(static_cast<double>(shape[2]) * scales.at(2));
    out_w = static_cast<std::int64_t>(static_cast<double>(shape[3]) * scales.at(3));
  } else {
    im.fail("expected scales or sizes known at import time");
  }
  const std::string mode = im.string_attr("mode", "nearest") == "nearest" ? "nearest" : "linear";
  im.set_output_tensor(0, ops::resize(im.graph(), out_name(im), x, out_h, out_w, mode));
}

void flatten(Importer& im) {
  im.set_output_tensor(0, ops::flatten(im.graph(), out_name(im), im.tensor(0), im.int_attr("axis", 1)));
}

void clip(Importer& im) { im.set_output_tensor(0, ops::unary(im.graph(), out_name(im), OpKind::clip, im.tensor(0))); }

void layernorm(Importer& im) {
  const auto rank = static_cast<std::int64_t>(im.input(0).shape.size());
  const auto axis = im.int_attr("axis", -1);
  if (axis != -1 && axis != rank - 1) im.fail("layer normalisation over several axes is not supported");
  im.set_output_tensor(0, ops::layernorm(im.graph(), out_name(im), im.tensor(0)));
}

void cast(Importer& im) {
  static const std::map<std::int64_t, DType> types{{1, DType::fp32},  {10, DType::fp16},   {16, DType::bf16},
                                                   {3, DType::int8},  {2, DType::int8},    {6, DType::int32},
                                                   {7, DType::int64}, {9, DType::boolean}, {11, DType::fp32}};
  const auto it = types.find(im.int_attr("to", 1));
  if (it == types.end()) im.fail("unsupported cast target type " + std::to_string(im.int_attr("to", 1)));
  const auto x = im.tensor(0);
  const DType to = im.float_type(it->second);
  if (to == im.graph().tensor(x).dtype) {
    im.set_output_tensor(0, x);
    return;
  }
  im.set_output_tensor(0, ops::cast(im.graph(), out_name(im), x, to));
}

void expand(Importer& im) {
  const auto shape = im.known_ints(1);
  im.set_output_tensor(0, ops::expand(im.graph(), out_name(im), im.tensor(0), Shape(shape.begin(), shape.end())));
}

// ONNX elementwise operators without a kind of their own: the function's name and flops per
// element (transcendental functions and comparisons count as one).
struct ElementwiseInfo {
  const char* function;
  std::int64_t flops;
  bool boolean_output;
};
const std::map<std::string, ElementwiseInfo>& other_elementwise() {
  static const std::map<std::string, ElementwiseInfo> table = {
      {"Abs", {"abs", 1, false}},
      {"Log", {"log", 1, false}},
      {"Floor", {"floor", 1, false}},
      {"Ceil", {"ceil", 1, false}},
      {"Round", {"round", 1, false}},
      {"Sign", {"sign", 1, false}},
      {"Sin", {"sin", 1, false}},
      {"Cos", {"cos", 1, false}},
      {"Softplus", {"softplus", 3, false}},
      {"Softsign", {"softsign", 3, false}},
      {"Elu", {"elu", 3, false}},
      {"Selu", {"selu", 4, false}},
      {"Celu", {"celu", 4, false}},
      {"Mish", {"mish", 5, false}},
      {"ThresholdedRelu", {"thresholded_relu", 1, false}},
      {"PRelu", {"prelu", 2, false}},
      {"Mod", {"mod", 1, false}},
      {"Sum", {"sum", 1, false}},
      {"Mean", {"mean", 2, false}},
      {"Not", {"not", 1, true}},
      {"IsNaN", {"isnan", 1, true}},
      {"IsInf", {"isinf", 1, true}},
      {"Equal", {"equal", 1, true}},
      {"Less", {"less", 1, true}},
      {"Greater", {"greater", 1, true}},
      {"LessOrEqual", {"less_or_equal", 1, true}},
      {"GreaterOrEqual", {"greater_or_equal", 1, true}},
      {"And", {"and", 1, true}},
      {"Or", {"or", 1, true}},
      {"Xor", {"xor", 1, true}},
  };
  return table;
}

const std::map<std::string, Handler>& handlers() {
  static const std::map<std::string, Handler> table = {
      {"Conv", conv},
      {"ConvTranspose", conv},
      {"Gemm", matmul},
      {"MatMul", matmul},
      {"BatchNormalization",
       [](Importer& im) { im.set_output_tensor(0, ops::batchnorm(im.graph(), out_name(im), im.tensor(0))); }},
      {"LayerNormalization", layernorm},
      {"InstanceNormalization",
       [](Importer& im) {
         const auto x = im.tensor(0);
         im.set_output_tensor(0, ops::groupnorm(im.graph(), out_name(im), x, im.graph().tensor(x).shape.at(1)));
       }},
      {"Softmax", softmax},
      {"Relu", [](Importer& im) { unary(im, OpKind::relu); }},
      {"LeakyRelu", [](Importer& im) { unary(im, OpKind::leaky_relu); }},
      {"Clip", clip},
      {"Sigmoid", [](Importer& im) { unary(im, OpKind::sigmoid); }},
      {"HardSigmoid", [](Importer& im) { unary(im, OpKind::hardsigmoid); }},
      {"HardSwish", [](Importer& im) { unary(im, OpKind::hardswish); }},
      {"Tanh", [](Importer& im) { unary(im, OpKind::tanh); }},
      {"Exp", [](Importer& im) { unary(im, OpKind::exp); }},
      {"Sqrt", [](Importer& im) { unary(im, OpKind::sqrt); }},
      {"Erf", [](Importer& im) { unary(im, OpKind::erf); }},
      {"Neg", [](Importer& im) { unary(im, OpKind::neg); }},
      {"Reciprocal", [](Importer& im) { unary(im, OpKind::reciprocal); }},
      {"Add", [](Importer& im) { binary(im, OpKind::add); }},
      {"Sub", [](Importer& im) { binary(im, OpKind::sub); }},
      {"Mul", [](Importer& im) { binary(im, OpKind::mul); }},
      {"Div", [](Importer& im) { binary(im, OpKind::div); }},
      {"Pow", [](Importer& im) { binary(im, OpKind::pow); }},
      {"Max", [](Importer& im) { binary(im, OpKind::maximum); }},
      {"Min", [](Importer& im) { binary(im, OpKind::minimum); }},
      {"Where",
       [](Importer& im) {
         im.set_output_tensor(0, ops::where(im.graph(), out_name(im), im.tensor(0), im.tensor(1), im.tensor(2)));
       }},
      {"MaxPool", pool},
      {"AveragePool", pool},
      {"GlobalAveragePool",
       [](Importer& im) { im.set_output_tensor(0, ops::global_avgpool(im.graph(), out_name(im), im.tensor(0))); }},
      {"GlobalMaxPool",
       [](Importer& im) { im.set_output_tensor(0, ops::global_maxpool(im.graph(), out_name(im), im.tensor(0))); }},
      {"ReduceMean", [](Importer& im) { reduce(im, OpKind::reduce_mean); }},
      {"ReduceSum", [](Importer& im) { reduce(im, OpKind::reduce_sum); }},
      {"ReduceMax", [](Importer& im) { reduce(im, OpKind::reduce_max); }},
      {"Concat", concat},
      {"Split", split},
      {"Slice", slice},
      {"Transpose", transpose},
      {"Pad", pad},
      {"Gather", gather},
      {"Expand", expand},
      {"Resize", resize},
      {"Upsample", resize},
      {"Reshape", reshape},
      {"Flatten", flatten},
      {"Squeeze", squeeze_unsqueeze},
      {"Unsqueeze", squeeze_unsqueeze},
      {"Cast", cast},
      {"Identity", [](Importer& im) { im.set_output_tensor(0, im.tensor(0)); }},
      {"Dropout", [](Importer& im) { im.set_output_tensor(0, im.tensor(0)); }},
  };
  return table;
}

}  // namespace

bool import_node(Importer& importer) {
  const auto it = handlers().find(importer.node().op_type());
  if (it != handlers().end()) {
    it->second(importer);
    return true;
  }
  const auto other = other_elementwise().find(importer.node().op_type());
  if (other == other_elementwise().end()) return false;
  std::vector<TensorId> inputs;
  for (std::size_t i = 0; i < importer.input_count(); ++i)
    if (importer.has_input(i)) inputs.push_back(importer.tensor(i));
  const auto& info = other->second;
  importer.set_output_tensor(
      0, ops::elementwise(importer.graph(), out_name(importer), info.function, inputs, info.flops,
                          info.boolean_output ? std::optional<DType>(DType::boolean) : std::nullopt));
  return true;
}

std::vector<std::string> supported_op_types() {
  std::vector<std::string> out;
  for (const auto& [name, handler] : handlers()) out.push_back(name);
  for (const auto& [name, info] : other_elementwise()) out.push_back(name);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace dse::onnx_import
