// `dse models list` and `dse models show NAME`: the zoo and what each op costs.
#include <fmt/format.h>

#include "cli/command.h"
#include "cli/run_report.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "models/export/graphviz.h"
#include "models/import/onnx_import.h"
#include "models/transforms/fusion.h"
#include "models/transforms/rebuild.h"
#include "models/zoo/published_counts.h"
#include "models/zoo/zoo.h"
#include "sim/graph_io/graph_yaml.h"
#include "sim/output/atomic_file.h"
#include "sim/run/model_source.h"

#include <cmath>

namespace dse {
namespace {

struct ShowOptions {
  std::string name;
  std::vector<std::string> input_shapes;
  int batch = 1;
  std::string dtype = "fp32";
  int resolution = 0;
  int seq_len = 0;
  bool dtype_given = false;
  bool batch_given = false;
  bool dot = false;
  std::vector<std::string> transforms;
  std::string save_yaml;
  OutputMode mode;
};

std::string input_shapes(const Graph& graph) {
  std::string out;
  for (const auto id : graph.inputs()) {
    if (!out.empty()) out += ", ";
    out += graph.tensor(id).name + " " + shape_string(graph.tensor(id).shape);
  }
  return out;
}

Graph build(const std::string& name, const ModelParams& params) {
  const auto* entry = ModelRegistry::instance().find(name);
  if (!entry) {
    const auto names = ModelRegistry::instance().names();
    throw UserError("dse models show: NAME: expected a model name (" + join_names(names) + "), found '" + name + "'" +
                    did_you_mean_suffix(name, names));
  }
  try {
    return entry->factory(params);
  } catch (const std::invalid_argument& error) {
    throw UserError("dse models show: " + name + ": cannot build with these parameters: " + error.what());
  }
}

int list_models(const OutputMode& mode) {
  nlohmann::json rows = nlohmann::json::array();
  if (!mode.quiet)
    fmt::print(mode.human(), "{:<20} {:>14} {:>10}  {}\n", "model", "params", "GMACs", "default input (batch 1)");
  for (const auto& info : ModelRegistry::instance().infos()) {
    const Graph graph = build(info.name, ModelParams{});
    const OpCost total = graph.total_cost();
    rows.push_back({{"name", info.name},
                    {"description", info.description},
                    {"params", total.params},
                    {"macs", total.macs},
                    {"input", input_shapes(graph)}});
    if (!mode.quiet)
      fmt::print(mode.human(), "{:<20} {:>14} {:>10.3f}  {}\n", info.name, total.params,
                 static_cast<double>(total.macs) / 1e9, input_shapes(graph));
  }
  if (mode.json) mode.print_json({{"models", rows}});
  return 0;
}

int show_model(const ShowOptions& options) {
  const auto dtype = parse_dtype(options.dtype);
  const auto names = compute_dtype_names();
  if (!dtype || std::find(names.begin(), names.end(), options.dtype) == names.end())
    throw UserError("dse models show: --dtype: expected one of " + join_names(names) + ", found '" + options.dtype +
                    "'" + did_you_mean_suffix(options.dtype, names));
  ModelParams params;
  params.batch = options.batch;
  params.dtype = *dtype;
  params.resolution = options.resolution;
  params.seq_len = options.seq_len;
  Graph graph("");
  if (options.name.find('.') != std::string::npos) {  // a file: .onnx, .yaml, .csv
    ModelFileOptions file_options;
    for (const auto& text : options.input_shapes) file_options.input_shapes.insert(parse_input_shape(text));
    if (options.dtype_given) file_options.dtype = *dtype;
    graph = load_model_file(options.name, file_options);
    if (options.batch_given) graph = transforms::set_batch(graph, options.batch);
  } else {
    if (!options.input_shapes.empty()) throw UserError("dse models show: --input-shape applies to .onnx files only");
    graph = build(options.name, params);
  }
  for (const auto& name : options.transforms) {
    const auto* transform = transforms::TransformRegistry::instance().find(name);
    if (!transform) {
      const auto names = transforms::TransformRegistry::instance().names();
      throw UserError("dse models show: --transform: expected one of " + join_names(names) + ", found '" + name + "'" +
                      did_you_mean_suffix(name, names));
    }
    graph = transform->factory(graph);
  }
  if (!options.save_yaml.empty()) write_file_atomically(options.save_yaml, graph_to_yaml(graph));
  if (options.dot) {
    std::fputs(to_graphviz(graph).c_str(), stdout);
    return 0;
  }
  const OpCost total = graph.total_cost();
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : graph.ops()) {
    ops.push_back({{"name", op.name},
                   {"kind", std::string(op_kind_name(op.kind))},
                   {"output_shape", graph.tensor(op.output).shape},
                   {"macs", op.cost.macs},
                   {"flops", op.cost.flops},
                   {"bytes_read", op.cost.bytes_read},
                   {"bytes_written", op.cost.bytes_written}});
  }
  if (!options.mode.quiet) print_graph_table(options.mode.human(), graph);
  if (options.mode.json) {
    options.mode.print_json({{"name", graph.name()},
                             {"params", total.params},
                             {"macs", total.macs},
                             {"flops", total.flops},
                             {"bytes_read", total.bytes_read},
                             {"bytes_written", total.bytes_written},
                             {"ops", ops}});
  }
  return 0;
}

int check_models(const OutputMode& mode) {
  nlohmann::json rows = nlohmann::json::array();
  std::string table =
      "| model | input | params (published) | params (dse) | error | GMACs (published) | GMACs (dse) | error | source "
      "|\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---|\n";
  bool all_within = true;
  for (const auto& published : published_counts()) {
    const Graph graph = build(published.model, published.params);
    const OpCost total = graph.total_cost();
    const double param_error = static_cast<double>(total.params) / published.parameters - 1;
    const double gmacs = static_cast<double>(total.macs) / 1e9;
    const std::optional<double> mac_error =
        published.gmacs ? std::optional<double>(gmacs / *published.gmacs - 1) : std::nullopt;
    const bool within =
        std::abs(static_cast<double>(total.params) - published.parameters) <= parameter_tolerance(published) &&
        (!mac_error || std::abs(*mac_error) <= kMacTolerance);
    all_within = all_within && within;
    table += fmt::format("| {} | {} | {:.0f} | {} | {:+.2f} % | {} | {:.3f} | {} | {} |\n", published.model,
                         input_shapes(graph), published.parameters, total.params, 100 * param_error,
                         published.gmacs ? fmt::format("{:.3f}", *published.gmacs) : "—", gmacs,
                         mac_error ? fmt::format("{:+.2f} %", 100 * *mac_error) : "—", published.source);
    rows.push_back({{"name", published.model},
                    {"published_params", published.parameters},
                    {"params", total.params},
                    {"published_gmacs", published.gmacs ? nlohmann::json(*published.gmacs) : nlohmann::json(nullptr)},
                    {"gmacs", gmacs},
                    {"within_bounds", within},
                    {"source", published.source}});
  }
  if (!mode.quiet) fmt::print(mode.human(), "{}", table);
  if (mode.json) mode.print_json({{"models", rows}, {"all_within_bounds", all_within}});
  return 0;
}

}  // namespace

Subcommand add_models_command(CLI::App& app) {
  CLI::App* command = app.add_subcommand("models", "The model zoo: list models, show one op by op");
  command->require_subcommand(1);
  auto list_mode = std::make_shared<OutputMode>();
  CLI::App* list = command->add_subcommand("list", "Every zoo model with its parameters, MACs and default input");
  add_output_flags(*list, *list_mode, true);

  auto check_mode = std::make_shared<OutputMode>();
  CLI::App* check = command->add_subcommand(
      "check", "Compare every zoo model's parameters and MACs with published figures (a Markdown table)");
  add_output_flags(*check, *check_mode, true);

  auto show = std::make_shared<ShowOptions>();
  CLI::App* show_command = command->add_subcommand("show", "One model op by op: shapes, MACs, bytes, intensity");
  show_command->add_option("name", show->name, "A zoo model name (see 'dse models list') or an .onnx file")->required();
  show_command->add_option("--input-shape", show->input_shapes, "ONNX: bind an input's shape, NAME=AxBxC (repeatable)")
      ->type_name("NAME=SHAPE")
      ->allow_extra_args(false);
  show_command->add_option("--batch", show->batch, "Batch size (files: replaces the leading dimension)")
      ->check(CLI::Range(1, kMaxBatch))
      ->each([show](const std::string&) { show->batch_given = true; });
  show_command->add_option("--dtype", show->dtype, "Compute type: fp32, tf32, fp16, bf16, fp8, int8")
      ->each([show](const std::string&) { show->dtype_given = true; });
  show_command->add_option("--resolution", show->resolution, "Input height = width (vision models)")
      ->check(CLI::Range(kMinResolution, kMaxResolution));
  show_command->add_option("--seq-len", show->seq_len, "Sequence length (transformers)")
      ->check(CLI::Range(1, kMaxSeqLen));
  show_command
      ->add_option("--transform", show->transforms,
                   "Apply a graph transform (repeatable, in order; 'dse list transform')")
      ->type_name("NAME")
      ->allow_extra_args(false);
  show_command->add_flag("--dot", show->dot, "Print the graph as GraphViz DOT on stdout instead of the table");
  show_command->add_option("--save", show->save_yaml, "Also write the graph in dse's YAML graph format")
      ->type_name("FILE.yaml");
  add_output_flags(*show_command, show->mode, true);

  return {command, [list, list_mode, check, check_mode, show] {
            if (list->parsed()) return list_models(*list_mode);
            if (check->parsed()) return check_models(*check_mode);
            return show_model(*show);
          }};
}

}  // namespace dse
