#include "sim/serving/batchdvfs_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "models/base/csv_table.h"
#include "models/base/cut_input.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"
#include "sim/config/config_loader.h"
#include "sim/run/simulation.h"
#include "sim/serving/governor_replay.h"
#include "sim/serving/serving_trace.h"

namespace dse {
namespace {

// The paper's model names (its file names) and dse's zoo models; "" where the zoo has none.
struct PaperModel {
  const char* paper;
  const char* zoo;
  const char* described;  // for a skip's reason
};
constexpr PaperModel kPaperModels[] = {
    {"InceptionV1", "googlenet", "Inception v1"},
    {"InceptionV2", "", "Inception v2 (BN-Inception)"},
    {"InceptionV3", "inception_v3", "Inception v3"},
    {"InceptionV4", "inception_v4", "Inception v4"},
    {"MobilenetV1_1", "mobilenet_v1", "MobileNet v1 1.0"},
    {"MobilenetV1_05", "mobilenet_v1_050", "MobileNet v1 0.5"},
    {"MobilenetV1_025", "mobilenet_v1_025", "MobileNet v1 0.25"},
    {"MobilenetV2_1", "mobilenet_v2", "MobileNet v2 1.0"},
    {"MobilenetV2_14", "mobilenet_v2_140", "MobileNet v2 1.4"},
    {"NASNet_A_Large_331", "", "NASNet-A Large"},
    {"NASNet_A_Mobile_224", "", "NASNet-A Mobile"},
    {"PNASNet_5_Mobile_224", "", "PNASNet-5 Mobile"},
    {"ResNetV2_50", "resnet_v2_50", "ResNet v2 50"},
    {"ResNetV2_101", "resnet_v2_101", "ResNet v2 101"},
    {"ResNetV2_152", "resnet_v2_152", "ResNet v2 152"},
};

// The file name's controller and dse's governor for it, and the columns its log has.
struct PaperController {
  const char* paper;
  const char* governor;
  bool logs_clock;  // a DVFS column
};
constexpr PaperController kPaperControllers[] = {
    {"BatchDVFS", "batch_dvfs", true}, {"Clipper", "clipper_power", false}, {"DVFS", "dvfs_only", true}};

// The simulation runs this much longer than the recorded run: it is compared from the governor's
// first action (after 3 s and a batch) on.
constexpr double kSettle_s = 60;
// The longest recorded run simulated (the paper's longest is ~2,500 s): ~100 images/s for that long
// keeps within a serving run's request budget (sim/serving/serving_budget.h).
constexpr double kLongestRun_s = 50000;

constexpr const char* kNaming =
    "a recorded run named NN_MODEL_CONTROLLER.csv, CONTROLLER one of BatchDVFS, Clipper, DVFS "
    "(tests/data/batchdvfs/README.md)";

std::vector<std::string> paper_model_names() {
  std::vector<std::string> names;
  for (const PaperModel& m : kPaperModels) names.emplace_back(m.paper);
  return names;
}

// NN_MODEL_CONTROLLER: the model and controller (the NN_ prefix is optional).
std::pair<const PaperModel*, const PaperController*> parse_name(const std::string& file, const std::string& stem) {
  const auto last = stem.rfind('_');
  if (last == std::string::npos) throw UserError(fmt::format("{}: expected {}, found '{}'", file, kNaming, stem));
  const std::string controller = stem.substr(last + 1);
  std::string model = stem.substr(0, last);
  if (const auto first = model.find('_'); first != std::string::npos && first > 0 &&
                                          std::all_of(model.begin(), model.begin() + static_cast<std::ptrdiff_t>(first),
                                                      [](char c) { return c >= '0' && c <= '9'; }))
    model = model.substr(first + 1);
  const auto c = std::find_if(std::begin(kPaperControllers), std::end(kPaperControllers),
                              [&](const PaperController& p) { return controller == p.paper; });
  if (c == std::end(kPaperControllers))
    throw UserError(fmt::format("{}: expected {}, found controller '{}'", file, kNaming, cut_input(controller)));
  const auto m = std::find_if(std::begin(kPaperModels), std::end(kPaperModels),
                              [&](const PaperModel& p) { return model == p.paper; });
  if (m == std::end(kPaperModels)) {
    const auto names = paper_model_names();
    throw UserError(fmt::format("{}: expected one of the paper's models ({}) in the name, found '{}'{}", file,
                                join_names(names), cut_input(model), did_you_mean_suffix(model, names)));
  }
  return {&*m, &*c};
}

std::optional<std::size_t> find_column(const CsvTable& table, const std::string& name) {
  const auto& header = table.header();
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? std::nullopt : std::optional<std::size_t>(static_cast<std::size_t>(it - header.begin()));
}

struct LoggedBatch {
  double time_s = 0;
  double power_w = 0;
  int batch = 0;
  int clock_mhz = 0;
};

// The per-batch rows of the log: time stamps in order, one cap, a batch of at least 1 and a clock
// among the paper's levels (the highest, the default, where the log has none).
std::vector<LoggedBatch> read_rows(const std::string& file, const PaperController& controller, double& cap_w) {
  std::vector<std::string> needed = {"time stamp", "power", "batch size", "power cap"};
  if (controller.logs_clock) needed.emplace_back("DVFS");
  std::size_t time = 0, power = 0, batch = 0, cap = 0;
  std::optional<std::size_t> dvfs;
  const auto on_header = [&](const CsvTable& table) {
    for (const std::string& name : needed)
      if (!find_column(table, name))
        throw UserError(fmt::format(
            "{}:1:1: expected a recorded run of the paper's {} controller (tests/data/batchdvfs/README.md) with the "
            "columns {}; found columns {}",
            file, controller.paper, join_names(needed), join_cut_input(table.header())));
    time = *find_column(table, "time stamp");
    power = *find_column(table, "power");
    batch = *find_column(table, "batch size");
    cap = *find_column(table, "power cap");
    if (controller.logs_clock) dvfs = find_column(table, "DVFS");
  };
  const std::vector<double> levels = batch_dvfs_p40_clock_levels_mhz();
  std::vector<LoggedBatch> rows;
  // Rows are read one at a time: only the log's own records are kept.
  const auto on_row = [&](const CsvTable& table, const CsvTable::Row& row) {
    const auto fail = [&](std::size_t column, const std::string& message) {
      throw UserError(fmt::format("{}:{}:{}: {}: {}", file, row.line, table.cell_column(row, column),
                                  cut_input(table.header()[column]), message));
    };
    LoggedBatch r;
    r.time_s = table.number(row, time);
    r.power_w = table.number(row, power);
    const double row_cap = table.number(row, cap);
    const std::int64_t size = table.integer(row, batch);
    if (!rows.empty() && r.time_s < rows.back().time_s)
      fail(time, fmt::format("expected time stamps in non-decreasing order, found {} after {}",
                             cut_input(table.text(row, time)), rows.back().time_s));
    if (r.power_w < 0) fail(power, "expected a power in W >= 0, found " + cut_input(table.text(row, power)));
    if (!(row_cap >= 1 && row_cap <= 100000))
      fail(cap, "expected a cap from 1 to 100,000 W, found " + cut_input(table.text(row, cap)));
    if (!rows.empty() && row_cap != cap_w)
      fail(cap, fmt::format("expected one power cap for the whole run, found {} after {:g}",
                            cut_input(table.text(row, cap)), cap_w));
    cap_w = row_cap;
    if (size < 1 || size > 65536)
      fail(batch, "expected a batch size from 1 to 65,536, found " + cut_input(table.text(row, batch)));
    r.batch = static_cast<int>(size);
    r.clock_mhz = static_cast<int>(levels.back());
    if (dvfs) {
      const double mhz = table.number(row, *dvfs);
      const auto it =
          std::find_if(levels.begin(), levels.end(), [&](double level) { return std::abs(level - mhz) <= 0.5; });
      if (it == levels.end())
        fail(*dvfs, fmt::format("expected one of the paper's clock levels ({}), found {}", fmt::join(levels, ", "),
                                cut_input(table.text(row, *dvfs))));
      r.clock_mhz = static_cast<int>(*it);
    }
    rows.push_back(r);
  };
  CsvTable::for_each_row(file, on_header, on_row, /*drop_trailing_empty=*/true, /*stop_at_blank_line=*/true);
  if (rows.size() < 3)
    throw UserError(
        fmt::format("{}: expected a recorded run of at least three rows (the first is the warm-up call), "
                    "found {}",
                    file, rows.size()));
  if (rows.back().time_s - rows.front().time_s > kLongestRun_s)
    throw UserError(
        fmt::format("{}: expected a recorded run of at most {:g} s (the longest dse simulates here), "
                    "found {:g} s from the first time stamp to the last",
                    file, kLongestRun_s, rows.back().time_s - rows.front().time_s));
  if (!(rows.back().time_s > rows.front().time_s))
    throw UserError(
        fmt::format("{}: expected time stamps that advance over the run, found all at {}", file, rows.front().time_s));
  return rows;
}

// Mean logged power, share over the cap, mean batch, images per second over `span_s`, and the time
// at each clock, each batch holding its clock from the previous batch's end (`start_s` for the
// first) to its own. `field` gives a batch's (end s, logged W, size, clock MHz).
template <class Batch, class Field>
BatchDvfsRunStats summarise(const std::vector<Batch>& batches, double start_s, double span_s, double cap_w,
                            Field field) {
  BatchDvfsRunStats stats;
  if (batches.empty()) return stats;
  double power = 0, over = 0, logged = 0, images = 0, previous_s = start_s, counted_s = 0;
  for (const Batch& b : batches) {
    const auto [end_s, power_w, size, clock_mhz] = field(b);
    if (std::isfinite(power_w)) {  // a simulated batch with no reading since the governor acted logs none
      power += power_w;
      over += power_w > cap_w ? 1 : 0;
      logged += 1;
    }
    images += size;
    stats.clock_time_share[clock_mhz] += end_s - previous_s;
    counted_s += end_s - previous_s;
    previous_s = end_s;
  }
  const auto n = static_cast<double>(batches.size());
  stats.power_mean_w = logged > 0 ? power / logged : std::numeric_limits<double>::quiet_NaN();
  stats.over_cap_share = logged > 0 ? over / logged : std::numeric_limits<double>::quiet_NaN();
  stats.batch_mean = images / n;
  stats.images_per_s = images / span_s;
  for (auto& [mhz, share] : stats.clock_time_share) share = counted_s > 0 ? share / counted_s : 0.0;
  return stats;
}

}  // namespace

BatchDvfsRecordedRun read_batchdvfs_run(const std::string& csv_path) {
  BatchDvfsRecordedRun run;
  run.file = csv_path;
  run.run = std::filesystem::path(csv_path).stem().string();
  const auto [model, controller] = parse_name(csv_path, run.run);
  run.paper_model = model->paper;
  run.model = model->zoo;
  run.controller = controller->governor;
  if (run.model.empty()) run.skipped = fmt::format("dse's zoo has no {} (dse list model)", model->described);

  const std::vector<LoggedBatch> rows = read_rows(csv_path, *controller, run.power_cap_w);
  run.duration_s = rows.back().time_s - rows.front().time_s;
  const std::vector<LoggedBatch> after_warmup(rows.begin() + 1, rows.end());
  run.recorded =
      summarise(after_warmup, rows.front().time_s, run.duration_s, run.power_cap_w, [](const LoggedBatch& b) {
        return std::tuple{b.time_s, b.power_w, b.batch, b.clock_mhz};
      });
  if (run.controller == "dvfs_only") {
    std::map<int, int> counts;
    for (const LoggedBatch& r : rows) ++counts[r.batch];
    run.fixed_batch = std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
                        return a.second < b.second;
                      })->first;
  }
  return run;
}

std::string batchdvfs_experiment_yaml(const BatchDvfsRecordedRun& run, const BatchDvfsPipeline& pipeline) {
  // The paper's code starts BatchDVFS and DVFS-only at 1,063 MHz, BatchDVFS and Clipper at batch 1;
  // Clipper leaves the clock at the default, the highest level (tests/data/batchdvfs/README.md).
  std::string governor = fmt::format("{{name: {}, power_cap_w: {}", run.controller, run.power_cap_w);
  if (run.controller == "batch_dvfs") governor += ", initial_clock_mhz: 1063";
  if (run.controller == "dvfs_only") governor += fmt::format(", batch: {}, initial_clock_mhz: 1063", run.fixed_batch);
  governor += "}";
  const int max_batch = std::max(256, run.fixed_batch);
  return fmt::format(
      "# A recorded run of the BatchDVFS paper in its setting on dse's P40 (dse validate batchdvfs)\n"
      "name: validate_batchdvfs_{run}\n"
      "workload:\n"
      "  models:\n"
      "    - {{name: {model}, dtype: fp32}}\n"
      "  serving:\n"
      "    duration_s: {duration}\n"
      "    sensor_period_s: {period}\n"
      "    sensor_window_s: {window}\n"
      "    clock_change_ms: {clock_change}\n"
      "    clock_levels_mhz: [{levels}]\n"
      "    tenants:\n"
      "      - arrivals: {{name: closed_loop, clients: {clients}, think_ms: 0}}   # a backlog\n"
      "        batching: {{name: fixed, batch: 1, max_batch: {max_batch}}}   # the governor sets the batch\n"
      "        host: {{per_item_ms: {per_item}, per_batch_ms: {per_batch}, stage: batch}}\n"
      "    governor: {governor}\n"
      "device: {{gpu: p40}}\n"
      "output: ~\n",
      fmt::arg("run", run.run), fmt::arg("model", run.model), fmt::arg("duration", run.duration_s + kSettle_s),
      fmt::arg("period", pipeline.sensor_period_s), fmt::arg("window", pipeline.sensor_window_s),
      fmt::arg("clock_change", pipeline.clock_change_ms),
      fmt::arg("levels", fmt::join(batch_dvfs_p40_clock_levels_mhz(), ", ")), fmt::arg("clients", 4 * max_batch),
      fmt::arg("max_batch", max_batch), fmt::arg("per_item", pipeline.host_per_image_ms),
      fmt::arg("per_batch", pipeline.host_per_batch_ms), fmt::arg("governor", governor));
}

BatchDvfsValidation validate_batchdvfs_run(const std::string& csv_path, const BatchDvfsPipeline& pipeline) {
  BatchDvfsValidation validation;
  validation.run = read_batchdvfs_run(csv_path);
  const BatchDvfsRecordedRun& run = validation.run;
  if (!run.skipped.empty()) return validation;
  const std::string yaml = batchdvfs_experiment_yaml(run, pipeline);
  const std::string config_name = run.run + ".simulated.yaml";
  const ConfigNode root = load_config_text(yaml, config_name);
  const RunResult result = run_experiment(read_experiment(root, config_name));
  // From the governor's first action on, for as long as the recorded run lasted after its warm-up
  // call (in which the paper's controller first acted), the batches that ended, in order.
  const ServingTrace& trace = *result.serving;
  const double from_s = trace.actions.empty() ? 0.0 : trace.actions.front().time_s;
  std::vector<ServedBatch> batches;
  for (const ServedBatch& b : trace.batches)
    if (b.end_s > from_s && b.end_s <= from_s + run.duration_s) batches.push_back(b);
  std::sort(batches.begin(), batches.end(),
            [](const ServedBatch& a, const ServedBatch& b) { return a.end_s < b.end_s; });
  validation.simulated = summarise(batches, from_s, run.duration_s, run.power_cap_w, [](const ServedBatch& b) {
    return std::tuple{b.end_s, b.logged_power_w, b.size, static_cast<int>(std::lround(b.clock_mhz))};
  });
  return validation;
}

}  // namespace dse
