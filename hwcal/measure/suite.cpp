#include "hwcal/measure/suite.h"

#include <fmt/format.h>

#include <map>
#include <tuple>

#include "models/base/did_you_mean.h"
#include "models/zoo/zoo.h"

namespace dse {
namespace {

KernelMeasurement row(std::string op, DType dtype, const std::string& device) {
  KernelMeasurement m;
  m.op = std::move(op);
  m.dtype = dtype;
  m.device = device;
  m.back_to_back = true;
  return m;
}

std::vector<std::int64_t> integers(const ConfigNode& kernels, const char* key, std::vector<std::int64_t> fallback,
                                   std::int64_t high) {
  const ConfigNode* list = kernels.find(key);
  if (!list) return fallback;
  std::vector<std::int64_t> out;
  for (const auto& item : list->items()) {
    const auto value = item.as<std::int64_t>();
    if (value < 1 || value > high) item.fail(fmt::format("expected a size from 1 to {}, found {}", high, value));
    out.push_back(value);
  }
  return out;
}

std::int64_t first(const AttributeValue& value) {
  const auto* list = std::get_if<std::vector<std::int64_t>>(&value);
  return list && !list->empty() ? list->front() : 0;
}
bool square(const AttributeValue& value) {
  const auto* list = std::get_if<std::vector<std::int64_t>>(&value);
  return list && list->size() == 2 && (*list)[0] == (*list)[1];
}

// Every distinct convolution (square stride and padding) and linear layer of `graph`, counted.
void add_model_shapes(const Graph& graph, const std::string& model, DType dtype, const std::string& device,
                      std::map<std::string, Candidate>& shapes) {
  for (const Op& op : graph.ops()) {
    Candidate c;
    if (op.kind == OpKind::conv2d && square(op.attributes.at("stride")) && square(op.attributes.at("pad"))) {
      const Shape& in = graph.tensor(op.inputs.front()).shape;
      const auto& kernel = std::get<std::vector<std::int64_t>>(op.attributes.at("kernel"));
      ConvShape shape{in[1],
                      in[2],
                      in[3],
                      std::get<std::int64_t>(op.attributes.at("out_channels")),
                      kernel[0],
                      kernel[1],
                      first(op.attributes.at("stride")),
                      first(op.attributes.at("pad")),
                      std::get<std::int64_t>(op.attributes.at("groups"))};
      c.op = row("conv2d", dtype, device);
      c.op.b = in[0];
      c.op.conv = shape;
      c.name =
          fmt::format("conv2d {} {}x{}x{}x{} k{} {}x{} s{} p{} g{}", dtype_name(dtype), in[0], shape.channels,
                      shape.height, shape.width, shape.out, shape.r, shape.s, shape.stride, shape.pad, shape.groups);
    } else if (op.kind == OpKind::matmul && op.attributes.contains("out_features") && op.gemms.size() == 1) {
      const GemmView& g = op.gemms.front();
      c.op = row("linear", dtype, device);
      c.op.b = 1;
      c.op.m = g.m;
      c.op.n = g.k;  // NeuSight's linear: [B*M, N] x [N, K]
      c.op.k = g.n;
      c.name = fmt::format("linear {} {}x{}x{}", dtype_name(dtype), g.m, g.k, g.n);
    } else {
      continue;
    }
    auto [it, fresh] = shapes.emplace(c.name, c);
    if (!fresh) ++it->second.occurrences;
    if (std::find(it->second.models.begin(), it->second.models.end(), model) == it->second.models.end())
      it->second.models.push_back(model);
  }
}

}  // namespace

std::vector<Candidate> read_kernel_suite(const ConfigNode& kernels, const std::string& device) {
  kernels.expect_map(
      "the kernels to measure: dtypes, gemm_sizes, models, batch, vector_ops, vector_rows, vector_cols, launch, "
      "pairs");
  std::vector<DType> dtypes;
  if (const ConfigNode* list = kernels.find("dtypes")) {
    for (const auto& item : list->items()) {
      const auto dtype = parse_dtype(item.as<std::string>());
      if (!dtype || (*dtype != DType::fp32 && *dtype != DType::fp16 && *dtype != DType::bf16))
        item.fail("expected fp32, fp16 or bf16, found \"" + item.as<std::string>() + "\"");
      dtypes.push_back(*dtype);
    }
    if (dtypes.empty()) list->fail("expected at least one dtype, found none");
  } else {
    dtypes = {DType::fp16, DType::fp32};
  }
  std::vector<Candidate> out;
  const auto add = [&out](Candidate c) { out.push_back(std::move(c)); };
  // Square GEMMs in every dtype.
  for (const DType dtype : dtypes)
    for (const std::int64_t size : integers(kernels, "gemm_sizes", {256, 512, 1024, 2048, 4096, 8192}, 65536)) {
      Candidate c;
      c.op = row("linear", dtype, device);
      c.op.b = 1;
      c.op.m = c.op.n = c.op.k = size;
      c.name = fmt::format("linear {} {}x{}x{}", dtype_name(dtype), size, size, size);
      add(std::move(c));
    }
  // The models' convolutions and linear layers, in the first dtype.
  const auto batch = kernels.param<int>("batch").in_range(1, kMaxBatch).with_default(8);
  std::map<std::string, Candidate> shapes;
  std::vector<std::string> models = {"resnet50", "mobilenet_v2", "bert_base"};
  if (const ConfigNode* list = kernels.find("models")) {
    models.clear();
    for (const auto& item : list->items()) {
      const std::string name = item.as<std::string>();
      const auto* builder = ModelRegistry::instance().find(name);
      if (!builder)
        item.fail(fmt::format("expected a zoo model, found '{}'{}", name,
                              did_you_mean_suffix(name, ModelRegistry::instance().names())));
      models.push_back(name);
    }
  }
  for (const auto& name : models) {
    ModelParams params;
    params.batch = batch;
    params.dtype = dtypes.front();
    add_model_shapes(ModelRegistry::instance().find(name)->factory(params), name, dtypes.front(), device, shapes);
  }
  for (auto& entry : shapes) {  // (no structured binding: clang 14 cannot capture one in the lambda)
    const std::string& name = entry.first;
    if (std::none_of(out.begin(), out.end(), [&](const Candidate& o) { return o.name == name; }))
      add(std::move(entry.second));
  }
  // Vector ops over rows x cols.
  std::vector<std::string> vector_ops = {"add", "relu", "reduce", "ln", "softmax"};
  if (const ConfigNode* list = kernels.find("vector_ops")) {
    vector_ops.clear();
    const std::vector<std::string> known = {"add", "mul", "relu", "gelu", "tanh", "reduce", "ln", "softmax"};
    for (const auto& item : list->items()) {
      const std::string op = item.as<std::string>();
      if (std::find(known.begin(), known.end(), op) == known.end())
        item.fail(fmt::format("expected a vector op ({}), found '{}'{}", join_names(known), op,
                              did_you_mean_suffix(op, known)));
      vector_ops.push_back(op);
    }
  }
  const std::size_t first_vector = out.size();
  for (const auto& op : vector_ops)
    for (const std::int64_t rows : integers(kernels, "vector_rows", {4096, 65536}, 1 << 24))
      for (const std::int64_t cols : integers(kernels, "vector_cols", {256, 4096}, 1 << 20)) {
        Candidate c;
        c.op = row(op, dtypes.front(), device);
        c.op.b = rows;
        c.op.m = cols;
        c.name = fmt::format("{} {} {}x{}", op, dtype_name(dtypes.front()), rows, cols);
        add(std::move(c));
      }
  const std::size_t vectors = out.size() - first_vector;
  if (kernels.param<bool>("launch").with_default(true)) {
    Candidate c;
    c.op = row("launch", DType::fp32, device);
    c.name = "launch";
    add(std::move(c));
  }
  // Pairs: the i-th GEMM beside the i-th vector op, on two streams.
  const auto pairs = kernels.param<int>("pairs").in_range(0, 1000).with_default(6);
  const std::size_t gemms = first_vector;
  for (int i = 0; i < pairs && gemms > 0 && vectors > 0; ++i) {
    const Candidate& a = out[static_cast<std::size_t>(i) % gemms];
    const Candidate& b = out[first_vector + static_cast<std::size_t>(i) % vectors];
    Candidate c;
    c.op = a.op;
    c.paired = b.op;
    c.name = "pair: " + a.name + " + " + b.name;
    add(std::move(c));
  }
  kernels.check_unknown_keys();
  return out;
}

}  // namespace dse
