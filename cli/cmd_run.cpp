// `dse run [CONFIG]`: simulate what the experiment config describes; write its result file.
#include "cli/command.h"
#include "cli/run_report.h"
#include "sim/config/config_loader.h"
#include "sim/config/embedded_files.h"
#include "sim/config/overrides.h"
#include "sim/output/chrome_trace.h"
#include "sim/output/hdf5_result.h"
#include "sim/output/summary_json.h"
#include "sim/run/gpu_simulation.h"

namespace dse {
namespace {

struct RunOptions {
  std::string config_file;
  std::vector<std::string> overrides;
  std::string trace_file;
  OutputMode mode;
};

int run(const RunOptions& options) {
  const std::string config_file = options.config_file.empty()
                                      ? std::string(kEmbeddedPrefix) + "configs/experiments/quickstart.yaml"
                                      : options.config_file;
  ConfigNode config = load_config_file(config_file);
  apply_overrides(config, options.overrides);
  const Experiment experiment = read_experiment(config, config_file);
  const RunResult result = run_experiment(experiment);

  if (!experiment.output_path.empty()) write_hdf5_result(experiment.output_path, experiment, result);
  if (!options.trace_file.empty()) write_chrome_trace(options.trace_file, result);

  if (!options.mode.quiet) {
    print_op_table(options.mode.human(), experiment, result);
    print_run_summary(options.mode.human(), experiment, result);
    if (!options.trace_file.empty()) std::fprintf(options.mode.human(), "trace             %s\n", options.trace_file.c_str());
  }
  if (options.mode.json) {
    nlohmann::json summary = summary_json(experiment, result);
    summary["trace"] = options.trace_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(options.trace_file);
    options.mode.print_json(summary);
  }
  return 0;
}

}  // namespace

Subcommand add_run_command(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Simulate the experiment a YAML config describes");
  command->add_option("config", options->config_file,
                      "Experiment YAML (default: the embedded configs/experiments/quickstart.yaml)");
  command->add_option("-p,--param", options->overrides, "Override a config key: KEY.PATH=VALUE (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one value per -p, so a config path after it stays positional
  command->add_option("--trace", options->trace_file, "Write the simulated timeline as a Chrome trace JSON")
      ->type_name("FILE");
  add_output_flags(*command, options->mode, true);
  return {command, [options] { return run(*options); }};
}

}  // namespace dse
