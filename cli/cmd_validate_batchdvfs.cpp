// `dse validate batchdvfs RUN.csv`: one of the BatchDVFS paper's recorded P40 runs beside dse's
// simulation of the same job (sim/serving/batchdvfs_validation.h); this file parses and prints.
#include <fmt/format.h>

#include <cmath>
#include <set>

#include "cli/command.h"
#include "sim/serving/batchdvfs_validation.h"

namespace dse {
namespace {

struct BatchDvfsOptions {
  std::string file;
  OutputMode mode;
};

nlohmann::json stats_json(const BatchDvfsRunStats& stats) {
  nlohmann::json clocks = nlohmann::json::object();
  for (const auto& [mhz, share] : stats.clock_time_share) clocks[std::to_string(mhz)] = share;
  return {{"power_mean_w", stats.power_mean_w},
          {"over_cap_share", stats.over_cap_share},
          {"batch_mean", stats.batch_mean},
          {"images_per_s", stats.images_per_s},
          {"clock_time_share", clocks}};
}

std::string relative_error(double simulated, double recorded) {
  return recorded > 0 ? fmt::format("{:+.1f} %", 100 * (simulated - recorded) / recorded) : std::string("-");
}

void print_text(std::FILE* out, const BatchDvfsValidation& v, const BatchDvfsPipeline& pipeline) {
  const BatchDvfsRecordedRun& run = v.run;
  const BatchDvfsRunStats &rec = run.recorded, &sim = v.simulated;
  fmt::print(out,
             "{}: {} (fp32) on dse's p40 under {}, cap {:g} W, {:.1f} s after the warm-up call\n"
             "(the paper's pipeline: {:g} ms + {:g} ms per image of host work before each pass; the sensor read "
             "every {:g} s over {:g} s)\n",
             run.run, run.model, run.controller, run.power_cap_w, run.duration_s, pipeline.host_per_batch_ms,
             pipeline.host_per_image_ms, pipeline.sensor_period_s, pipeline.sensor_window_s);
  fmt::print(out, "{:<18} {:>10} {:>10} {:>9}\n", "", "recorded", "simulated", "error");
  fmt::print(out, "{:<18} {:>10.1f} {:>10.1f} {:>9}   (mean over batches of the logged power)\n", "power_mean_w",
             rec.power_mean_w, sim.power_mean_w, relative_error(sim.power_mean_w, rec.power_mean_w));
  fmt::print(out, "{:<18} {:>10.3f} {:>10.3f} {:>9}   (batches whose logged power is over the cap)\n", "over_cap_share",
             rec.over_cap_share, sim.over_cap_share, "");
  fmt::print(out, "{:<18} {:>10.1f} {:>10.1f} {:>9}\n", "batch_mean", rec.batch_mean, sim.batch_mean,
             relative_error(sim.batch_mean, rec.batch_mean));
  fmt::print(out,
             "{:<18} {:>10.1f} {:>10.1f} {:>9}   (images / wall time, gaps between calls included; not the log's "
             "Througput column)\n",
             "images_per_s", rec.images_per_s, sim.images_per_s, relative_error(sim.images_per_s, rec.images_per_s));
  fmt::print(out, "clock_time_share (share of the time at each SM clock)\n");
  std::set<int> clocks;
  for (const auto& [mhz, share] : rec.clock_time_share) clocks.insert(mhz);
  for (const auto& [mhz, share] : sim.clock_time_share) clocks.insert(mhz);
  const auto share = [](const BatchDvfsRunStats& s, int mhz) {
    const auto it = s.clock_time_share.find(mhz);
    return it == s.clock_time_share.end() ? 0.0 : it->second;
  };
  for (const int mhz : clocks)
    fmt::print(out, "  {:<16} {:>10.3f} {:>10.3f}\n", fmt::format("{} MHz", mhz), share(rec, mhz), share(sim, mhz));
}

int validate_batchdvfs(const BatchDvfsOptions& options) {
  const BatchDvfsPipeline pipeline;
  const BatchDvfsValidation v = validate_batchdvfs_run(options.file, pipeline);
  const BatchDvfsRecordedRun& run = v.run;
  if (!run.skipped.empty()) {
    if (!options.mode.quiet) fmt::print(options.mode.human(), "{}: skipped: {}\n", run.run, run.skipped);
    if (options.mode.json) options.mode.print_json({{"run", run.run}, {"skipped", run.skipped}});
    return 0;
  }
  if (!options.mode.quiet) print_text(options.mode.human(), v, pipeline);
  if (options.mode.json) {
    nlohmann::json error = nullptr;
    if (run.recorded.power_mean_w > 0)
      error = 100 * (v.simulated.power_mean_w - run.recorded.power_mean_w) / run.recorded.power_mean_w;
    options.mode.print_json({{"run", run.run},
                             {"model", run.model},
                             {"controller", run.controller},
                             {"power_cap_w", run.power_cap_w},
                             {"duration_s", run.duration_s},
                             {"images_per_s_definition",
                              "images / wall time, gaps between calls included (not the log's Througput column)"},
                             {"power_mean_error_pct", error},
                             {"recorded", stats_json(run.recorded)},
                             {"simulated", stats_json(v.simulated)}});
  }
  return 0;
}

}  // namespace

Subcommand add_validate_batchdvfs_command(CLI::App& validate) {
  auto options = std::make_shared<BatchDvfsOptions>();
  CLI::App* command = validate.add_subcommand(
      "batchdvfs",
      "Simulate one of the BatchDVFS paper's recorded P40 runs (tests/data/batchdvfs) and print recorded beside "
      "simulated");
  command->add_option("run", options->file, "The run's log: NN_MODEL_CONTROLLER.csv (BatchDVFS, Clipper or DVFS)")
      ->required()
      ->check(CLI::ExistingFile);
  add_output_flags(*command, options->mode, true);
  return {command, [options] { return validate_batchdvfs(*options); }};
}

}  // namespace dse
