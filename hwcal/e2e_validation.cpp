#include "hwcal/e2e_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include "models/base/checked_count.h"
#include "models/base/csv_table.h"
#include "models/base/cut_input.h"
#include "models/base/errors.h"
#include "models/transforms/fusion.h"
#include "models/zoo/decoder_lm.h"
#include "models/zoo/switch_transformer.h"
#include "models/zoo/zoo.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_device.h"
#include "sim/run/simulation.h"

namespace dse {
namespace {

// A NeuSight model name (its configurations: trsharm25/NeuSight,
// scripts/asplos/data/DLmodel_configs/NAME.json, built with Hugging Face's AutoModelFor*.from_config)
// as a builder: the zoo model of that configuration, or the configuration itself where no published
// model has it. NeuSight's "gpt3_xl" is GPT2LMHeadModel with n_embd 3,072, 24 heads and 24 layers
// (2.88B parameters): the GPT-3 paper's XL row read at heads x d_head wide, where its d_model column
// says 2,048 (1.3B). Its "gpt3_13" is 40 layers of 5,120 (40 heads of 128; 12.85B), where the
// paper's 13B row says d_model 5,140.
std::optional<ModelZoo::Factory> neusight_model(const std::string& name, bool training) {
  static const zoo::DecoderLmConfig gpt3_xl{
      "gpt3_xl_neusight", 24, 3072, 24, 4 * 3072, 50257, 2048, 2048, zoo::Activation::hugging_face_gelu_new()};
  static const zoo::DecoderLmConfig gpt3_13{
      "gpt3_13_neusight", 40, 5120, 40, 4 * 5120, 50257, 2048, 2048, zoo::Activation::hugging_face_gelu_new()};
  if (name == "gpt3_xl") return [](const ModelParams& p) { return zoo::decoder_lm(gpt3_xl, p); };
  if (name == "gpt3_13") return [](const ModelParams& p) { return zoo::decoder_lm(gpt3_13, p); };
  // switchxl4.json: d_model 1,024, 32 heads of 128, d_ff 16,384, 24 + 24 layers, every second
  // feed-forward four experts with a capacity of 64 tokens, vocabulary 32,128.
  static const zoo::SwitchTransformerConfig switchxl4{
      "switchxl4_neusight", 1024, 128, 32, 16384, 24, 24, 2, 4, 64, 32128};
  if (name == "switchxl4") return [](const ModelParams& p) { return zoo::switch_transformer(switchxl4, p); };
  // NeuSight trains BERT as BertForPreTraining (its training traces end in cls.predictions and
  // cls.seq_relationship); the decoders train as they run inference.
  static const std::map<std::string, std::string> training_names = {{"bert", "bert_base_pretraining"},
                                                                    {"bert_large", "bert_large_pretraining"}};
  if (const auto trained = training_names.find(name); training && trained != training_names.end())
    return ModelRegistry::instance().find(trained->second)->factory;
  static const std::map<std::string, std::string> zoo_names = {{"bert", "bert_base"},
                                                               {"gpt2_med", "gpt2_medium"},
                                                               {"gpt3_27", "gpt3_2_7b"},
                                                               {"gpt3_67", "gpt3_6_7b"},
                                                               {"opt_13", "opt_1_3b"}};
  const auto renamed = zoo_names.find(name);
  const auto* entry = ModelRegistry::instance().find(renamed == zoo_names.end() ? name : renamed->second);
  return entry ? std::optional(entry->factory) : std::nullopt;
}

}  // namespace

E2eValidation predict_e2e_labels(const std::string& file) {
  const CsvTable table = CsvTable::read(file);
  const auto device_col = table.column("device"), config_col = table.column(table.header().at(1)),
             latency_col = table.column("e2e_latency_ms");
  const auto& header = table.header();
  const bool has_forward = std::find(header.begin(), header.end(), "fw_latency_ms") != header.end();
  const std::size_t forward_col = has_forward ? table.column("fw_latency_ms") : 0;
  const std::vector<GpuSpec> specs = read_catalog_gpu_specs(HardwareCatalog::for_listing());
  E2eValidation out;
  for (const auto& row : table.rows()) {
    const auto skip = [&](const std::string& reason) {
      out.skipped.push_back(
          {static_cast<std::size_t>(row.line), table.text(row, device_col), table.text(row, config_col), reason});
    };
    std::string device = table.text(row, device_col);
    std::replace(device.begin(), device.end(), '_', ' ');
    const GpuSpec* spec = find_spec_by_device_name(specs, device);
    const std::string config = table.text(row, config_col);
    std::vector<std::string> parts;
    for (std::size_t start = 0, dash; start <= config.size(); start = dash + 1) {
      dash = config.find('-', start);
      if (dash == std::string::npos) dash = config.size();
      parts.push_back(config.substr(start, dash - start));
    }
    if (!spec) {
      skip("no GPU spec in the catalog reports the device name '" + cut_input(device) + "'");
      continue;
    }
    if (parts.size() < 4 || (parts[1] != "inf" && parts[1] != "train")) {
      skip("expected MODEL-inf|train-SEQ-BATCH[-...], found '" + cut_input(config) + "'");
      continue;
    }
    // A fifth part is "fusion" (the model compiled) or how a run spread across GPUs (dp4, tp4, pp4_1).
    const bool fused = parts.size() == 5 && parts[4] == "fusion";
    if (parts.size() > 4 && !fused) {
      std::string layout = parts[4];
      for (std::size_t i = 5; i < parts.size(); ++i) layout += "-" + parts[i];
      skip("a run across GPUs ('" + layout + "'): dse validates one GPU's time");
      continue;
    }
    const bool training = parts[1] == "train";
    double forward_ms = 0;
    if (training) {
      forward_ms = has_forward ? table.number(row, forward_col) : 0;
      if (!(forward_ms > 0)) {
        skip("a training row without a forward-pass time (fw_latency_ms)");
        continue;
      }
    }
    const auto bad_cell = [&](std::size_t column, const std::string& expected) {
      return UserError(fmt::format("{}:{}:{}: {}: expected {}, found '{}'", table.path(), row.line,
                                   table.cell_column(row, column), table.header()[column], expected,
                                   table.text(row, column)));
    };
    const auto positive_int = [&](const std::string& text) {
      int value = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc{} || end != text.data() + text.size() || value <= 0)
        throw bad_cell(config_col, "MODEL-inf-SEQ-BATCH[-fusion] with positive integers SEQ and BATCH");
      return value;
    };
    ModelRequest model;
    model.name = parts[0];
    model.params.seq_len = positive_int(parts[2]);
    model.params.batch = positive_int(parts[3]);
    model.params.training = training;  // a training row's forward pass: the training model, its dropouts active
    const std::optional<ModelZoo::Factory> factory = neusight_model(parts[0], training);
    if (!factory) {
      skip("model '" + parts[0] + "' is not in dse's zoo (dse models list)");
      continue;
    }
    double measured = 0, predicted_ms = 0;
    try {
      Graph graph = (*factory)(model.params);
      if (fused)
        for (const char* t : {"fuse_attention", "fuse_epilogues", "fuse_elementwise"})
          graph = transforms::TransformRegistry::instance().find(t)->factory(graph);
      model.graph = std::make_shared<const Graph>(std::move(graph));
      measured = training ? forward_ms : table.number(row, latency_col);
      if (!(measured > 0)) throw bad_cell(latency_col, "a latency in ms > 0");
      Experiment experiment;
      experiment.name = config;
      experiment.device = std::make_shared<const GpuDevice>(*spec, "kernel");
      experiment.models.push_back(model);
      experiment.schedule = single_stream_schedule(experiment.models);
      predicted_ms = run_experiment(experiment).latency_ms();
    } catch (const std::invalid_argument& shape) {  // more tokens than the model has positions
      skip(std::string("the model cannot take this shape: ") + shape.what());
      continue;
    } catch (const CountOverflow& size) {  // a count beyond 64 bits, in the graph or a kernel
      skip(std::string("the model cannot take this shape: ") + size.what());
      continue;
    }
    out.rows.push_back({spec->name, config, training, measured, predicted_ms});
  }
  return out;
}

}  // namespace dse
