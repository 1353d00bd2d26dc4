#include "sim/accel/accel_device.h"
#include "sim/runtime/schedule.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "models/base/did_you_mean.h"
#include "sim/accel/accel_evaluator.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/metrics/board_power.h"
#include "sim/metrics/power_series.h"
#include "sim/run/experiment.h"
#include "sim/runtime/accel_executor.h"

namespace dse {
namespace {

// A workload depends only on its graph and batch, and the baseline's pass over it only on the
// baseline spec besides: a search's trials share both, as they share the graphs. Each memo entry
// holds what its key's addresses point to, so no other object can take those addresses while it
// exists.
struct SharedWorkload {
  std::shared_ptr<const Graph> graph;
  AccelWorkload workload;
};
struct BaselinePass {
  std::shared_ptr<const SharedWorkload> workload;
  std::shared_ptr<const AcceleratorSpec> spec;
  double latency_s = 0, energy_j = 0;
  AcceleratorPowerArea power;
};

std::shared_ptr<const SharedWorkload> shared_workload(RunCache& cache, const std::shared_ptr<const Graph>& graph,
                                                      int batch) {
  return cache.get<SharedWorkload>(
      "accelerator workload", 256, fmt::format("{}|{}", static_cast<const void*>(graph.get()), batch), [&] {
        return std::make_shared<const SharedWorkload>(SharedWorkload{graph, make_accel_workload(*graph, batch)});
      });
}

struct Pass {
  std::vector<double> model_latency_s;
  double latency_s = 0;
  double energy_j = 0;
  double samples = 0;
  AcceleratorPowerArea power;
};

// The workloads once through the baseline as XLA compiles for it (epilogue fusion, tensors
// padded to the lanes), models one after another.
Pass baseline_pass(RunCache& cache, const std::vector<std::shared_ptr<const SharedWorkload>>& workloads,
                   const std::vector<ModelRequest>& models, const std::shared_ptr<const AcceleratorSpec>& spec) {
  Pass pass;
  for (std::size_t m = 0; m < workloads.size(); ++m) {
    const auto key =
        fmt::format("{}|{}", static_cast<const void*>(workloads[m].get()), static_cast<const void*>(spec.get()));
    const auto e = cache.get<BaselinePass>("accelerator baseline pass", 1024, key, [&] {
      const AccelEvaluation eval =
          evaluate_accelerator(workloads[m]->workload, *spec, FusionMode::epilogue, PaddingMode::array);
      return std::make_shared<const BaselinePass>(
          BaselinePass{workloads[m], spec, eval.latency_s, eval.energy_j, eval.power_area});
    });
    pass.model_latency_s.push_back(e->latency_s);
    pass.latency_s += e->latency_s;
    pass.energy_j += e->energy_j;
    pass.samples += models[m].params.batch;
    pass.power = e->power;
  }
  return pass;
}

// Sets `key` of `target` to `value`, merging mappings key by key. The copied nodes keep their own
// file, line and key path, so errors point at the experiment ("device.array.rows").
void merge_key(ConfigNode& target, const std::string& key, const ConfigNode& value, const SourceMark& key_mark) {
  ConfigNode* existing = target.mutable_child(key);
  if (existing && existing->is_map() && value.is_map()) {
    for (const auto& child : value.keys()) merge_key(*existing, child, *value.find(child), value.key_mark(child));
    return;
  }
  target.set(key, value, key_mark).set_path(value.path());
}

}  // namespace

AcceleratorDevice::AcceleratorDevice(AcceleratorSpec spec, FusionMode fusion, PaddingMode padding,
                                     std::shared_ptr<const AcceleratorSpec> baseline, std::vector<HardwareFile> files,
                                     Sharing sharing)
    : spec_(std::move(spec)),
      fusion_(fusion),
      padding_(padding),
      baseline_(std::move(baseline)),
      files_(std::move(files)),
      sharing_(std::move(sharing)) {}

Sharing AcceleratorDevice::automatic_sharing() {
  return {make_sharing_rule("proportional_dram"), make_sharing_rule("proportional")};
}

std::shared_ptr<const Device> AcceleratorDevice::from_config(const ConfigNode& device, const std::string& config_file,
                                                             RunCache& cache) {
  const ConfigNode& name = device.at("accelerator", "an accelerator spec name such as tpu_v3_like, or a .yaml file");
  const std::string file = find_hardware_spec_file(name, "accel", "accelerator spec", config_file);
  const FusionMode fusion = read_enum(device, "fusion", kFusionModeNames, "a fusion plan", FusionMode::exact);
  const PaddingMode padding =
      read_enum(device, "padding", kPaddingModeNames, "a tensor padding", PaddingMode::automatic);
  Sharing sharing = read_sharing(device, automatic_sharing());
  ConfigNode spec = load_config_file(file);
  spec.expect_map("an accelerator spec");
  // Key paths as the device block would write them ("device.arary: unknown key"); file and line
  // still say whether a value came from the spec file or from the experiment.
  spec.set_path("device");
  for (const auto& key : device.keys()) {
    if (key == "accelerator" || key == "fusion" || key == "padding" || key == "sharing") continue;
    merge_key(spec, key, *device.find(key), device.key_mark(key));  // find() marks the key as read
  }
  // The baseline is the same for every trial of a search: read once per file content.
  std::shared_ptr<const AcceleratorSpec> baseline;
  const HardwareCatalog catalog = HardwareCatalog::for_experiment(config_file);
  if (const auto baseline_file = catalog.find("accel", "tpu_v3_like")) {
    const std::string path = *baseline_file;
    baseline = cache.get<AcceleratorSpec>(
        "accelerator baseline spec", 8, path + "\n" + read_config_bytes(path),
        [&path] { return std::make_shared<const AcceleratorSpec>(read_accelerator_spec(load_config_file(path))); });
  }
  return std::make_shared<const AcceleratorDevice>(read_accelerator_spec(spec), fusion, padding, std::move(baseline),
                                                   std::vector<HardwareFile>{{file, read_config_bytes(file)}},
                                                   std::move(sharing));
}

std::vector<KeySpec> AcceleratorDevice::declared_keys() {
  return {{"accelerator", "string", "required", "",
           "an accelerator spec name (dse list accel) or a .yaml file; any key of the spec given here overrides it",
           "tpu_v3_like"},
          {"fusion", "string", "exact", "",
           "which ops run as one group with on-chip intermediates: " + join_names(kFusionModeNames.names()), "greedy"},
          {"padding", "string", "auto", "",
           "whether activation rows are padded to whole array lines in DRAM: " + join_names(kPaddingModeNames.names()),
           "none"},
          sharing_key("how concurrent work shares the accelerator: the ops of its queues and serving passes")};
}

void AcceleratorDevice::check_models(const std::vector<ModelRequest>& models, const ConfigNode& models_node) const {
  const std::string native(dtype_name(spec_.dtype));
  for (std::size_t m = 0; m < models.size(); ++m) {
    if (models[m].params.dtype == spec_.dtype) continue;
    models_node.items()[m].fail("expected dtype " + native + ": the accelerator '" + spec_.name + "' computes in " +
                                native + ", found " + std::string(dtype_name(models[m].params.dtype)) +
                                " (set dtype: " + native + ")");
  }
}

void AcceleratorDevice::check_schedule(const ResolvedSchedule& schedule, const ConfigNode* block) const {
  if (schedule.stream_per_tenant()) return;
  block->fail(
      "expected a schedule that runs each model whole on one op queue (single_stream, stream_per_model, or "
      "tenants without cuts or sync points): the accelerator's queues have no events, found " +
      schedule.summary());
}

MetricTable AcceleratorDevice::cheap_metrics() const {
  const AcceleratorPowerArea pa = accelerator_power_area(spec_);
  MetricTable metrics;
  metrics.set("area_mm2", pa.area_mm2);
  metrics.set("tdp_w", pa.tdp_w);
  return metrics;
}

std::vector<std::string> AcceleratorDevice::metric_names(std::size_t model_count) const {
  std::vector<std::string> names = workload_metric_names(model_count);
  for (const char* name : {"energy_j", "area_mm2", "static_w", "supply_v", "fusion_groups", "dram_bytes",
                           "inferences_per_s", "perf_per_mm2", "energy_per_inference_j"})
    names.emplace_back(name);
  if (baseline_)
    for (const char* name : {"inferences_per_s_vs_tpu_v3", "perf_per_tdp_vs_tpu_v3", "perf_per_mm2_vs_tpu_v3",
                             "energy_per_inference_vs_tpu_v3", "perf_per_tdp_vs_tpu_v3_geomean"})
      names.emplace_back(name);
  return names;
}

RunResult AcceleratorDevice::run(const Experiment& experiment, WallDeadline deadline) const {
  return run_pass(experiment, spec_, deadline, nullptr);
}

std::vector<OperatingPoint> AcceleratorDevice::operating_points() const {
  const double top = spec_.clock_mhz;
  const double floor = std::min(accelerator_min_voltage_clock_mhz(), top / 2);
  std::vector<OperatingPoint> points;
  for (int i = 0; i < kDvfsLevels; ++i) {
    // Whole MHz, as clock tables are written; the top is the design clock itself.
    const double mhz = i + 1 == kDvfsLevels ? top : std::round(floor + (top - floor) * i / (kDvfsLevels - 1));
    if (points.empty() || mhz > points.back().clock_mhz) points.push_back({mhz, accelerator_voltage_v(mhz)});
  }
  return points;
}

PassProfile AcceleratorDevice::profile(const Experiment& experiment, std::optional<double> clock_mhz,
                                       WallDeadline deadline) const {
  const std::vector<OperatingPoint> points = operating_points();
  AcceleratorSpec at = spec_;
  if (clock_mhz) at.clock_mhz = std::clamp(*clock_mhz, points.front().clock_mhz, points.back().clock_mhz);
  AcceleratorSpec parked = spec_;
  parked.clock_mhz = points.front().clock_mhz;
  double dynamic_j = 0;
  const RunResult run = run_pass(experiment, at, deadline, &dynamic_j);
  PassProfile profile;
  profile.latency_s = ps_to_ms(run.makespan_ps) * 1e-3;
  profile.clock_mhz = at.clock_mhz;
  profile.idle_w = accelerator_power_area(parked).static_w;
  profile.static_w = std::max(0.0, accelerator_power_area(at).static_w - profile.idle_w);
  profile.dynamic_w = profile.latency_s > 0 ? dynamic_j / profile.latency_s : 0;
  profile.dram_bytes = run.metrics.at("dram_bytes");
  return profile;  // device_share 1: a pass keeps every core and the DMA path busy in turn
}

RunResult AcceleratorDevice::run_pass(const Experiment& experiment, const AcceleratorSpec& spec, WallDeadline deadline,
                                      double* dynamic_j_out) const {
  RunResult result;
  result.experiment = experiment.name;
  result.device_kind = kind();
  result.device = spec.name;
  result.timing_model = timing_model();
  result.calibration = calibration();
  result.schedule = experiment.schedule->spec.policy;
  result.schedule_summary = experiment.schedule->summary();
  result.device_settings = {{"fusion", kFusionModeNames.name(fusion_)}, {"padding", kPaddingModeNames.name(padding_)}};
  // Workloads and the baseline's passes are shared through the experiment's cache (a search's).
  RunCache local;
  RunCache& cache = experiment.cache ? *experiment.cache : local;

  std::vector<std::shared_ptr<const SharedWorkload>> workloads;
  std::vector<AccelEvaluation> evaluations;
  for (const ModelRequest& request : experiment.models) {
    workloads.push_back(shared_workload(cache, request.graph, request.params.batch));
    evaluations.push_back(evaluate_accelerator(workloads.back()->workload, spec, fusion_, padding_));
  }

  if (deadline && std::chrono::steady_clock::now() > *deadline)
    throw SimulationTimeout("the mapping and fusion plan passed the wall-clock deadline");
  // The schedule's streams as op queues (checked by check_models: every model one segment, no sync
  // points); queues share the cores and the DMA path (sim/runtime/accel_executor.h).
  Engine engine;
  engine.set_deadline(deadline);
  const std::vector<int> queue_of = *experiment.schedule->stream_per_tenant();
  AccelExecutor device(engine, experiment.schedule->stream_priority.size(), sharing_.kernels, spec.dram_bytes_per_s());
  // Board power: the design's leakage at its supply, plus what the running ops draw.
  const AcceleratorPowerArea& power = evaluations.front().power_area;
  BoardPower board;
  board.set(0, power.static_w, spec.clock_mhz);
  device.load_changed().connect([&board, &power, &spec](TimePs now, const SharedResource::Load& load) {
    board.set(now, power.static_w + load.dynamic_w, spec.clock_mhz);
  });
  double dynamic_j = 0;
  for (std::size_t m = 0; m < experiment.models.size(); ++m) {
    const Graph& graph = *experiment.models[m].graph;
    result.models.push_back(
        {experiment.models[m].name, experiment.models[m].params, graph.total_cost(), graph.ops().size(), -1, 0});
    const AccelEvaluation& e = evaluations[m];
    dynamic_j += e.dynamic_energy_j;
    for (std::size_t i = 0; i < workloads[m]->workload.ops.size(); ++i) {
      const Op& op = graph.op(workloads[m]->workload.ops[i].op);
      const FusedOpTiming& t = e.fusion.ops[i];
      const std::string bound = t.time_s <= 0 ? "none" : t.compute_s >= t.time_s * 0.999 ? "compute" : "memory";
      result.ops.push_back({m, op.name, "group " + std::to_string(t.group), op.kind, graph.tensor(op.output).shape,
                            queue_of[m], 0, 0, op.cost, t.dram_bytes, bound});
      // The op's time alone is max(core, DMA) + first tiles; the first tiles count on both sides.
      const double dma_s = t.dram_bytes / spec.dram_bytes_per_s();
      const std::size_t row = result.ops.size() - 1;
      const double alone_s = std::max(t.core_s, dma_s) + t.first_tiles_s;
      device.enqueue(static_cast<std::size_t>(queue_of[m]),
                     {t.core_s + t.first_tiles_s, dma_s + t.first_tiles_s,
                      alone_s > 0 ? e.op_dynamic_energy_j[i] / alone_s : 0.0, [&result, row](TimePs start, TimePs end) {
                        result.ops[row].start_ps = start;
                        result.ops[row].end_ps = end;
                      }});
    }
  }
  engine.schedule_at(0, [&device] { device.start(); });
  engine.run();
  std::stable_sort(result.ops.begin(), result.ops.end(),
                   [](const OpRecord& a, const OpRecord& b) { return a.start_ps < b.start_ps; });

  result.close_timeline();
  result.power = board.take_series(result.makespan_ps);

  const double makespan_s = static_cast<double>(result.makespan_ps) * 1e-12;
  const double energy_j = series_energy_j(result.power, result.makespan_ps);
  if (dynamic_j_out) *dynamic_j_out = dynamic_j;
  double samples = 0, dram_bytes = 0;
  int fusion_groups = 0;
  for (std::size_t m = 0; m < evaluations.size(); ++m) {
    fusion_groups += evaluations[m].fusion.groups;
    dram_bytes += evaluations[m].dram_bytes;
    samples += experiment.models[m].params.batch;
  }
  add_workload_metrics(result, power.tdp_w);
  const double inferences_per_s = makespan_s > 0 ? samples / makespan_s : 0;
  const double perf_per_tdp = inferences_per_s / power.tdp_w;
  const double perf_per_mm2 = inferences_per_s / power.area_mm2;
  const double energy_per_inference_j = samples > 0 ? energy_j / samples : 0;
  MetricTable& metrics = result.metrics;
  metrics.set("energy_j", energy_j);
  metrics.set("area_mm2", power.area_mm2);
  metrics.set("static_w", power.static_w);
  metrics.set("supply_v", power.voltage_v);
  metrics.set("fusion_groups", fusion_groups);
  metrics.set("dram_bytes", dram_bytes);
  metrics.set("inferences_per_s", inferences_per_s);
  metrics.set("perf_per_mm2", perf_per_mm2);
  metrics.set("energy_per_inference_j", energy_per_inference_j);
  if (baseline_) {
    const Pass pass = baseline_pass(cache, workloads, experiment.models, baseline_);
    const AcceleratorPowerArea& base_power = pass.power;
    const double base_ips = pass.samples / pass.latency_s;
    metrics.set("inferences_per_s_vs_tpu_v3", inferences_per_s / base_ips);
    metrics.set("perf_per_tdp_vs_tpu_v3", perf_per_tdp / (base_ips / base_power.tdp_w));
    metrics.set("perf_per_mm2_vs_tpu_v3", perf_per_mm2 / (base_ips / base_power.area_mm2));
    metrics.set("energy_per_inference_vs_tpu_v3", energy_per_inference_j / (pass.energy_j / pass.samples));
    double log_sum = 0;
    for (std::size_t m = 0; m < evaluations.size(); ++m)
      log_sum += std::log(pass.model_latency_s[m] / evaluations[m].latency_s * base_power.tdp_w / power.tdp_w);
    metrics.set("perf_per_tdp_vs_tpu_v3_geomean", std::exp(log_sum / static_cast<double>(evaluations.size())));
  }
  return result;
}

DSE_REGISTER_ENTRY(Device, "accelerator",
                   "A TPU-like accelerator template (cores x systolic arrays, buffers, DRAM), mapped, fused and timed",
                   AcceleratorDevice::from_config, AcceleratorDevice::declared_keys())

}  // namespace dse
