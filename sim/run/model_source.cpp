#include "sim/run/model_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "models/base/checked_count.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "models/import/onnx_import.h"
#include "models/transforms/fusion.h"
#include "sim/config/config_loader.h"
#include "sim/graph_io/graph_yaml.h"

namespace dse {
namespace fs = std::filesystem;

Graph load_model_file(const std::string& path, const ModelFileOptions& options) {
  const std::string extension = fs::path(path).extension().string();
  if (extension == ".onnx") {
    OnnxImportOptions onnx;
    onnx.input_shapes = options.input_shapes;
    onnx.float_dtype = options.dtype;
    return import_onnx(path, onnx);
  }
  if (!options.input_shapes.empty()) throw UserError(path + ": input shapes can be bound for .onnx models only");
  if (extension == ".yaml" || extension == ".yml") return load_graph_yaml(path);
  if (extension == ".csv") return import_scalesim_topology(path, options.form, options.dtype.value_or(DType::int8));
  throw UserError(path + ": expected a model file ending in .onnx, .yaml or .csv (SCALE-Sim topology), found '" +
                  extension + "'");
}

namespace {

// The batch of a file model: the leading dimension of its first input.
int leading_batch(const Graph& graph) {
  const auto inputs = graph.inputs();
  if (inputs.empty() || graph.tensor(inputs[0]).shape.empty()) return 1;
  return static_cast<int>(graph.tensor(inputs[0]).shape[0]);
}

// The type a file model computes in: the first op output of a compute dtype (a YAML graph or an
// ONNX file names its own; an integer input such as token ids does not count).
std::optional<DType> graph_compute_dtype(const Graph& graph) {
  const auto names = compute_dtype_names();
  for (const auto& op : graph.ops()) {
    const DType dtype = graph.tensor(op.output).dtype;
    if (std::find(names.begin(), names.end(), std::string(dtype_name(dtype))) != names.end()) return dtype;
  }
  return std::nullopt;
}

ModelRequest read_file_model(const ConfigNode& node, const std::string& config_file, const std::string& key) {
  ModelRequest model;
  const ConfigNode& file = node.at(key, "a model file");
  model.model_file = resolve_config_path(config_file, file.as<std::string>());
  if (!config_file_exists(model.model_file))
    file.fail("expected an existing model file, found no file '" + model.model_file + "'");
  ModelFileOptions options;
  if (key == "onnx") {
    if (const ConfigNode* shapes = node.find("input_shapes")) {
      shapes->expect_map("input name: [dims]");
      for (const auto& input : shapes->keys()) {
        Shape shape;
        for (const auto& dim : shapes->find(input)->items()) {
          const auto value = dim.as<std::int64_t>();
          if (value < 1) dim.fail("expected a positive dimension, found " + dim.text());
          shape.push_back(value);
        }
        options.input_shapes[input] = shape;
      }
    }
  }
  if (key == "scalesim_topology") {
    const std::string form =
        node.param<std::string>("form").one_of({"auto", "conv", "gemm"}, "a topology form").with_default("auto");
    options.form = form == "conv" ? TopologyForm::conv : form == "gemm" ? TopologyForm::gemm : TopologyForm::automatic;
  }
  if (key != "graph") {
    if (const auto dtype = node.param<std::string>("dtype").one_of(compute_dtype_names(), "a dtype").optional())
      options.dtype = *parse_dtype(*dtype);
  }
  model.name = node.param<std::string>("name").with_default(fs::path(model.model_file).stem().string());
  try {
    model.graph = std::make_shared<const Graph>(load_model_file(model.model_file, options));
    (void)model.graph->total_cost();  // the whole model's counts must fit too (CountOverflow)
  } catch (const ConfigError&) {
    throw;  // a YAML graph's own error already points into that file
  } catch (const UserError& error) {
    file.fail(std::string("expected a model that loads, found: ") + error.what());
  }
  model.params.batch = leading_batch(*model.graph);
  if (const auto dtype = options.dtype ? options.dtype : graph_compute_dtype(*model.graph)) model.params.dtype = *dtype;
  return model;
}

ModelRequest read_zoo_model(const ConfigNode& node, RunCache& cache) {
  ModelRequest model;
  model.name = node.param<std::string>("name").one_of(ModelRegistry::instance().names(), "a model name").required();
  model.params.batch = node.param<int>("batch").in_range(1, kMaxBatch).with_default(1);
  const std::string dtype =
      node.param<std::string>("dtype").one_of(compute_dtype_names(), "a dtype").with_default("fp32");
  model.params.dtype = *parse_dtype(dtype);
  model.params.resolution = node.param<int>("resolution").in_range(kMinResolution, kMaxResolution).with_default(0);
  model.params.seq_len = node.param<int>("seq_len").in_range(1, kMaxSeqLen).with_default(0);
  model.params.decode =
      node.param<std::string>("phase").one_of({"prefill", "decode"}, "a phase").with_default("prefill") == "decode";
  model.params.past_len = node.param<int>("past_len").in_range(0, kMaxSeqLen).with_default(0);
  model.params.training = node.param<bool>("training").with_default(false);
  // Shapes the architecture cannot take (a resolution below its down-sampling, a sequence beyond
  // its positions) are user errors at the model's entry.
  // Graphs are shared between runs that ask for the same model (a search's trials).
  const ModelParams& p = model.params;
  const std::string key = fmt::format("{}|{}|{}|{}|{}|{}|{}|{}", model.name, p.batch, dtype_name(p.dtype), p.resolution,
                                      p.seq_len, p.decode, p.past_len, p.training);
  try {
    model.graph = cache.get<Graph>("zoo graph", 256, key, [&model] {
      auto graph = std::make_shared<const Graph>(ModelRegistry::instance().find(model.name)->factory(model.params));
      (void)graph->total_cost();  // the whole model's counts must fit too (CountOverflow)
      return graph;
    });
  } catch (const std::invalid_argument& error) {
    node.fail(std::string("expected parameters the model can be built with, found: ") + error.what());
  } catch (const CountOverflow& error) {
    node.fail(std::string("expected a model dse can count (MACs, bytes and elements in 64 bits), found: ") +
              error.what());
  }
  return model;
}

}  // namespace

ModelRequest read_model_entry(const ConfigNode& node, const std::string& config_file, RunCache& cache) {
  node.expect_map("a model: {name, batch, dtype, ...} from the zoo, or {onnx | graph | scalesim_topology: FILE}");
  ModelRequest model;
  bool from_file = false;
  for (const char* key : {"onnx", "graph", "scalesim_topology"}) {
    if (!from_file && node.has(key)) {
      model = read_file_model(node, config_file, key);
      from_file = true;
    }
  }
  if (!from_file) model = read_zoo_model(node, cache);
  if (const ConfigNode* list = node.find("transforms")) {
    Graph graph = *model.graph;
    for (const auto& item : list->items()) {
      const std::string name = item.as<std::string>();
      const auto* transform = transforms::TransformRegistry::instance().find(name);
      if (!transform) {
        const auto names = transforms::TransformRegistry::instance().names();
        item.fail("expected a transform (" + join_names(names) + "), found " + item.describe() +
                  did_you_mean_suffix(name, names));
      }
      graph = transform->factory(graph);
    }
    model.graph = std::make_shared<const Graph>(std::move(graph));
  }
  // A model with nothing that takes time (no ops, or only views such as reshape) would run in 0 s at
  // 0 W, and served it would never advance the clock: refused for every device.
  const auto& ops = model.graph->ops();
  if (std::none_of(ops.begin(), ops.end(), [](const Op& op) { return op_category(op) != OpCategory::view; }))
    node.fail(
        fmt::format("expected a model with at least one op that takes time (not only reshape or flatten "
                    "views), found '{}' with {}",
                    model.name, ops.empty() ? "no ops" : fmt::format("only views ({} ops)", ops.size())));
  return model;
}

}  // namespace dse
