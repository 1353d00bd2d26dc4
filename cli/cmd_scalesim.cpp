// `dse scalesim -c CONFIG.cfg -t TOPOLOGY.csv [-i conv|gemm]`: SCALE-Sim's own inputs, dse's
// systolic-array model (sim/accel/systolic_array.h) and, with InterfaceBandwidth: USER, SCALE-Sim's
// bandwidth mode (sim/accel/scalesim_stalls.h): SCALE-Sim v2's per-layer numbers.

#include <fmt/format.h>

#include "cli/command.h"
#include "models/base/checked_count.h"
#include "models/base/errors.h"
#include "models/import/scalesim_topology.h"
#include "sim/accel/scalesim_config.h"
#include "sim/accel/scalesim_stalls.h"

namespace dse {
namespace {

struct ScaleSimOptions {
  std::string config;
  std::string topology;
  std::string form = "auto";
  OutputMode mode;
};

int scalesim(const ScaleSimOptions& options) {
  const ScaleSimConfig config = read_scalesim_config(options.config);
  const TopologyForm form = options.form == "conv"   ? TopologyForm::conv
                            : options.form == "gemm" ? TopologyForm::gemm
                                                     : TopologyForm::automatic;
  const Graph graph = [&] {
    try {
      return import_scalesim_topology(options.topology, form);
    } catch (const CountOverflow& error) {
      throw UserError(options.topology + ": " + error.what());
    }
  }();
  nlohmann::json layers = nlohmann::json::array();
  std::int64_t total = 0, total_stalls = 0;
  if (!options.mode.quiet) {
    fmt::print(options.mode.human(), "{} -- {}x{} {} array{}\n", config.run_name, config.array.rows, config.array.cols,
               kDataflowNames.name(config.array.dataflow),
               config.user_bandwidth
                   ? fmt::format(", {} words/cycle (SCALE-Sim's USER bandwidth mode)", config.bandwidth_words_per_cycle)
                   : ", InterfaceBandwidth CALC (no stalls)");
    fmt::print(options.mode.human(), "{:<4} {:<14} {:>12} {:>12} {:>9} {:>9}\n", "id", "layer", "cycles", "stall",
               "util %", "mapping %");
  }
  int id = 0;
  for (const auto& op : graph.ops()) {
    const GemmView& gemm = op.gemms.at(0);
    SystolicRun run;
    ScaleSimCycles layer;
    try {
      run = run_gemm(gemm, config.array);
      layer = {run.cycles, 0};
      if (config.user_bandwidth) layer = scalesim_layer_cycles(scalesim_layer(graph, op), config);
      total = checked_add(total, layer.total, "the total cycles");
      total_stalls = checked_add(total_stalls, layer.stalls, "the total stall cycles");
    } catch (const UserError& error) {
      throw UserError(options.topology + ": layer '" + op.name + "': " + error.what());
    }
    const std::int64_t cycles = layer.total, stalls = layer.stalls;
    const double utilization = 100.0 * run.utilization * static_cast<double>(run.cycles) / static_cast<double>(cycles);
    layers.push_back({{"name", op.name},
                      {"cycles", cycles},
                      {"stall_cycles", stalls},
                      {"utilization_pct", utilization},
                      {"mapping_efficiency_pct", 100.0 * run.mapping_efficiency}});
    if (!options.mode.quiet)
      fmt::print(options.mode.human(), "{:<4} {:<14} {:>12} {:>12} {:>9.3f} {:>9.3f}\n", id, op.name, cycles, stalls,
                 utilization, 100.0 * run.mapping_efficiency);
    ++id;
  }
  if (!options.mode.quiet) fmt::print(options.mode.human(), "total_cycles {} (stall {})\n", total, total_stalls);
  if (options.mode.json) options.mode.print_json({{"layers", layers}, {"total_cycles", total}});
  return 0;
}

}  // namespace

Subcommand add_scalesim_command(CLI::App& app) {
  auto options = std::make_shared<ScaleSimOptions>();
  CLI::App* command =
      app.add_subcommand("scalesim", "Per-layer systolic-array cycles from SCALE-Sim's own config and topology files");
  command->add_option("-c,--config", options->config, "SCALE-Sim array config (.cfg)")->required();
  command->add_option("-t,--topology", options->topology, "SCALE-Sim topology (.csv)")->required();
  command->add_option("-i,--input-type", options->form, "Topology form: conv, gemm or auto (by column count)")
      ->check(CLI::IsMember({"conv", "gemm", "auto"}));
  add_output_flags(*command, options->mode, true);
  return {command, [options] { return scalesim(*options); }};
}

}  // namespace dse
