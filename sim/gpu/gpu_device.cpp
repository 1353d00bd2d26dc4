#include "sim/gpu/gpu_device.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include "models/base/ceil_div.h"
#include "models/base/checked_count.h"
#include "models/base/did_you_mean.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/metrics/board_power.h"
#include "sim/metrics/power_series.h"
#include "sim/run/experiment.h"
#include "sim/runtime/schedule.h"
#include "sim/runtime/streams.h"

namespace dse {

GpuDevice::GpuDevice(GpuSpec spec, std::string timing_model, const ConfigNode& device, const std::string& config_file,
                     std::vector<HardwareFile> files, RunCache* cache)
    : spec_(std::move(spec)), timing_model_(std::move(timing_model)), files_(std::move(files)) {
  const auto* entry = GpuTimingRegistry::instance().find(timing_model_);
  if (!entry) throw std::logic_error("timing model '" + timing_model_ + "' not registered");
  timing_ = entry->factory(spec_, {device, config_file, files_, cache});
  point_ = GpuOperatingPoint::defaults(spec_);
  sharing_ = read_sharing(device);
  const std::vector<double> table = spec_.clock_table_mhz();
  clock_floor_mhz_ = table.back();
  if (const auto clock =
          device.param<double>("sm_clock_mhz").in_range(table.back(), spec_.boost_clock_mhz).optional()) {
    // A driver table in the spec: the clock must be one of its entries, as nvidia-smi -lgc insists.
    if (spec_.supported_clocks) {
      const auto nearest = std::min_element(
          table.begin(), table.end(), [&](double a, double b) { return std::abs(a - *clock) < std::abs(b - *clock); });
      if (std::abs(*nearest - *clock) > 0.5)
        device.find("sm_clock_mhz")
            ->fail(fmt::format("expected a clock of {}'s driver table ({}), found {:g} (nearest: {:g})", spec_.name,
                               spec_.supported_clocks->describe(), *clock, *nearest));
      point_.clock_cap_mhz = *nearest;
    } else {
      point_.clock_cap_mhz = *clock;
    }
    clock_locked_ = true;
  }
  // Up to the board's maximum; below the driver's minimum (nvidia-smi -pl refuses it) as a what-if
  // that the result names.
  point_.power_limit_w =
      device.param<double>("power_limit_w").in_range(1, spec_.max_power_limit_w()).with_default(spec_.tdp_w);
  below_driver_minimum_ = point_.power_limit_w < spec_.min_power_limit_w();
  // The firmware averages power over a sensor period before it moves the clock. NVML's power
  // reading (nvmlDeviceGetPowerUsage, as torch.cuda.power_draw documents it) is an average over
  // "between 1 second and 1/6 second, depending on the product": the shortest is the default.
  const double window_ms = device.param<double>("power_window_ms").in_range(0.001, 60'000).with_default(1000.0 / 6);
  power_window_ps_ = checked_ps(window_ms * 1e9, "device.power_window_ms in picoseconds");
}

GpuDevice::GpuDevice(GpuSpec spec, std::string timing_model)
    : GpuDevice(std::move(spec), std::move(timing_model), ConfigNode::map({}), "", {}) {}

std::shared_ptr<const Device> GpuDevice::from_config(const ConfigNode& device, const std::string& config_file,
                                                     RunCache& cache) {
  const std::string gpu_file = find_hardware_spec_file(
      device.at("gpu", "a GPU spec name such as h200, or a .yaml file"), "gpu", "GPU spec", config_file);
  const std::string timing_model = device.param<std::string>("timing_model")
                                       .one_of(GpuTimingRegistry::instance().names(), "a timing model")
                                       .with_default("kernel");
  GpuSpec spec = read_gpu_spec(load_config_file(gpu_file));
  return std::make_shared<const GpuDevice>(std::move(spec), timing_model, device, config_file,
                                           std::vector<HardwareFile>{{gpu_file, read_config_bytes(gpu_file)}}, &cache);
}

std::vector<KeySpec> GpuDevice::declared_keys() {
  return {{"gpu", "string", "required", "", "a GPU spec name (dse list gpu) or a .yaml file, relative to the config",
           "h200"},
          {"timing_model", "string", "kernel", "",
           "how op durations are computed (dse list gpu_timing); its own keys go in this block too", "roofline"},
          {"sm_clock_mhz", "number", "none", "MHz",
           "a locked SM clock (nvidia-smi -lgc), one of the spec's driver table where it has one", "1500"},
          {"power_limit_w", "number", "the spec's TDP", "W",
           "the firmware power limit (nvidia-smi -pl), at most the spec's maximum", "500"},
          {"power_window_ms", "number", "166.7 (1/6 s)", "ms",
           "the firmware's power averaging window (0.001 to 60,000)", "100"},
          sharing_key("how concurrent kernels and passes share the GPU")};
}

void GpuDevice::check_models(const std::vector<ModelRequest>& models, const ConfigNode& models_node) const {
  for (std::size_t m = 0; m < models.size(); ++m) {
    const std::string dtype(dtype_name(models[m].params.dtype));
    if (dtype != "fp8" || spec_.tensor_core_flops_per_clock.contains(dtype)) continue;
    std::vector<std::string> supported;  // the compute dtypes it has units for, in the usual order
    for (const std::string& name : compute_dtype_names())
      if (spec_.cuda_core_flops_per_clock.contains(name) || spec_.tensor_core_flops_per_clock.contains(name))
        supported.push_back(name);
    const ConfigNode& entry = models_node.items()[m];
    const ConfigNode* key = entry.is_map() ? entry.peek("dtype") : nullptr;
    (key ? *key : entry)
        .fail(fmt::format("expected a dtype {} has units for ({}), found fp8: the {} has no FP8 tensor cores (Ada and "
                          "Hopper GPUs have them), and FP8 would run at its FP32 rate",
                          spec_.name, join_names(supported), spec_.display_name));
  }
}

MetricTable GpuDevice::cheap_metrics() const {
  MetricTable metrics;
  metrics.set("tdp_w", spec_.tdp_w);
  return metrics;
}

std::vector<std::string> GpuDevice::metric_names(std::size_t model_count) const {
  std::vector<std::string> names = workload_metric_names(model_count);
  for (const char* name : {"energy_j", "power_avg_w", "power_peak_w", "energy_per_inference_j", "perf_per_w",
                           "sm_clock_mhz", "power_limit_w"})
    names.emplace_back(name);
  return names;
}

std::optional<std::vector<std::string>> GpuDevice::supported_values(std::string_view key) const {
  if (key != "device.sm_clock_mhz") return std::nullopt;
  std::vector<std::string> clocks;  // highest first, as the driver lists them
  const std::vector<OperatingPoint> points = operating_points();
  for (auto it = points.rbegin(); it != points.rend(); ++it) clocks.push_back(fmt::format("{:g}", it->clock_mhz));
  return clocks;
}

namespace {

// The window over which power_peak_w averages: a millisecond, the time scale of a power controller
// reacting to a load step (nvidia-smi's power.draw averages over longer: 100 ms to 1 s).
constexpr TimePs kPeakWindowPs = 1'000'000'000;

double average_w(const RunResult& result) {
  return result.makespan_ps > 0
             ? series_energy_j(result.power, result.makespan_ps) / (ps_to_ms(result.makespan_ps) * 1e-3)
             : 0;
}

}  // namespace

RunResult GpuDevice::run(const Experiment& experiment, WallDeadline deadline) const {
  return run_at(experiment, std::nullopt, deadline).result;
}

GpuDevice::Pass GpuDevice::run_at(const Experiment& experiment, std::optional<double> clock_mhz,
                                  WallDeadline deadline) const {
  if (clock_mhz)
    return run_capped(experiment, std::clamp(*clock_mhz, clock_floor_mhz_, spec_.boost_clock_mhz), "application clock",
                      deadline);
  return run_capped(experiment, point_.clock_cap_mhz, clock_locked_ ? "locked clock" : "boost clock", deadline);
}

std::vector<OperatingPoint> GpuDevice::operating_points() const {
  std::vector<OperatingPoint> points;
  const std::vector<double> table = spec_.clock_table_mhz();  // highest first
  for (auto it = table.rbegin(); it != table.rend(); ++it) points.push_back({*it, timing_->power().voltage_v(*it)});
  return points;
}

PassProfile GpuDevice::profile(const Experiment& experiment, std::optional<double> clock_mhz,
                               WallDeadline deadline) const {
  const Pass pass = run_at(experiment, clock_mhz, deadline);
  const RunResult& run = pass.result;
  const GpuPowerModel& power = timing_->power();
  PassProfile profile;
  profile.latency_s = ps_to_ms(run.makespan_ps) * 1e-3;
  profile.clock_mhz = run.metrics.at("sm_clock_mhz");
  profile.idle_w = power.idle_w();
  // Leakage while busy, at the pass's (time-averaged) clock.
  profile.static_w = power.busy_static_w(profile.clock_mhz);
  profile.device_share = pass.gpu_share;
  for (const OpRecord& op : run.ops) profile.dram_bytes += op.dram_bytes;
  if (!run.power.empty() && run.makespan_ps > 0)
    profile.dynamic_w = std::max(0.0, average_w(run) - profile.idle_w - profile.static_w);
  return profile;
}

GpuDevice::Pass GpuDevice::run_capped(const Experiment& experiment, double cap, const std::string& cap_name,
                                      WallDeadline deadline) const {
  const double limit = point_.power_limit_w;
  std::vector<OpLaunch> launches;
  Pass at_cap = simulate(experiment, cap, deadline, {}, &launches);
  Pass pass;
  std::string reason;
  double clock_mhz = 0;  // the pass's, or its time average
  if (at_cap.result.makespan_ps > power_window_ps_) {
    pass = run_windowed(experiment, cap, cap_name, std::move(at_cap), std::move(launches), deadline, reason);
    clock_mhz = series_mean_clock_mhz(pass.result.power, pass.result.makespan_ps);
  } else {
    // Every pass simulated while the firmware rule looks for the clock, kept so the one it settles
    // on is not simulated again (the last one evaluated).
    std::map<double, Pass> passes;
    passes.emplace(cap, std::move(at_cap));
    const auto excess_w = [&](double mhz) {
      auto it = passes.find(mhz);
      if (it == passes.end()) it = passes.emplace(mhz, simulate(experiment, mhz, deadline)).first;
      return average_w(it->second.result) - limit;
    };
    const double floor = clock_floor_mhz_;
    const FirmwareClock clock = firmware_clock(excess_w, floor, cap, 0.1 / cap);  // to 0.1 MHz
    pass = passes.contains(clock.mhz) ? std::move(passes.at(clock.mhz)) : simulate(experiment, clock.mhz, deadline);
    clock_mhz = clock.mhz;
    switch (clock.held) {
      case ClockHeld::fits_at_cap:
        reason = fmt::format("{:g} MHz, the {}: the pass draws {:.0f} W on average, within the {:.0f} W power limit",
                             cap, cap_name, clock.excess_at_cap_w + limit, limit);
        break;
      case ClockHeld::over_at_floor:
        reason = fmt::format(
            "{:.0f} MHz, the lowest clock of the table: the {:.0f} W power limit is not met even there ({:.0f} W)",
            floor, limit, clock.excess_at_floor_w + limit);
        break;
      case ClockHeld::by_limit:
        reason = fmt::format(
            "{:.0f} MHz, held by the {:.0f} W power limit: at the {} ({:g} MHz) the pass would draw {:.0f} W on "
            "average",
            clock.mhz, limit, cap_name, cap, clock.excess_at_cap_w + limit);
        break;
    }
  }
  RunResult& result = pass.result;
  if (below_driver_minimum_)
    reason += fmt::format(" (a what-if: {} accepts limits from {:.0f} W{})", spec_.name, spec_.min_power_limit_w(),
                          spec_.power_limit_min_w ? "" : ", half its TDP: the spec gives no range");
  if (clock_locked_ && !spec_.supported_clocks)
    reason += fmt::format(" (the locked clock is not checked against a driver table: {}'s spec has none)", spec_.name);
  result.device_settings.emplace_back("clock", reason);
  const double energy_j = series_energy_j(result.power, result.makespan_ps);
  const double average = average_w(result);
  double samples = 0;
  for (const auto& model : result.models) samples += static_cast<double>(model.params.batch);
  result.metrics.set("energy_j", energy_j);
  result.metrics.set("power_avg_w", average);
  result.metrics.set("power_peak_w", series_peak_w(result.power, result.makespan_ps, kPeakWindowPs));
  result.metrics.set("energy_per_inference_j", samples > 0 ? energy_j / samples : 0);
  result.metrics.set("perf_per_w", average > 0 ? result.throughput_per_s() / average : 0);
  result.metrics.set("sm_clock_mhz", clock_mhz);
  result.metrics.set("power_limit_w", limit);
  return pass;
}

GpuDevice::Pass GpuDevice::run_windowed(const Experiment& experiment, double cap, const std::string& cap_name,
                                        Pass pass, std::vector<OpLaunch> launches, WallDeadline deadline,
                                        std::string& reason) const {
  const RunResult& result = pass.result;  // pass is simulated again below; this names its result
  const double limit = point_.power_limit_w, floor = clock_floor_mhz_;
  const GpuPowerModel& power = timing_->power();
  std::vector<double> clocks(launches.size(), cap);
  std::vector<FirmwareClock> held;  // per window, of the last round
  // The windows are those of the pass as it runs: a slower clock stretches the pass and moves ops
  // into later windows, so the clocks are set again until they settle (at most a few rounds).
  constexpr int kRounds = 6;
  for (int round = 0; round < kRounds; ++round) {
    const std::int64_t windows = std::max<std::int64_t>(1, ceil_div(result.makespan_ps, power_window_ps_));
    std::vector<std::vector<std::size_t>> members(static_cast<std::size_t>(windows));
    for (std::size_t i = 0; i < launches.size(); ++i)
      members[static_cast<std::size_t>(std::min(windows - 1, launches[i].start_ps / power_window_ps_))].push_back(i);
    std::vector<double> next = clocks;
    const StepIntegral drawn(result.power, result.makespan_ps);  // joules
    // A window whose ops launch nothing draws the idle power of a GPU with a process on it (the
    // idle draw and the leakage at the cap's voltage): it fits at the cap.
    held.assign(members.size(), FirmwareClock{cap, ClockHeld::fits_at_cap, power.held_idle_w(cap) - limit, 0});
    // An op runs at the clock of the window it starts in: the windows it runs on into, where no
    // op starts, keep that clock.
    TimePs running_until = 0;
    for (std::size_t w = 0; w < members.size(); ++w) {
      if (members[w].empty()) {
        if (w > 0 && running_until > static_cast<TimePs>(w) * power_window_ps_) held[w] = held[w - 1];
        continue;
      }
      // The window's work: the ops that start in it, from the first one's start to the last end.
      TimePs from = result.makespan_ps, to = 0;
      for (const std::size_t i : members[w]) {
        from = std::min(from, launches[i].start_ps);
        to = std::max(to, launches[i].end_ps);
      }
      if (to <= from) continue;  // ops that launch nothing
      running_until = std::max(running_until, to);
      // The window's ops one after another at `mhz` (each at the clock it ran at when absent):
      // their kernel time and energy by the model.
      const auto window_load = [&](std::optional<double> mhz) {
        std::pair<double, double> seconds_joules{0, 0};
        for (const std::size_t i : members[w]) {
          const double f = mhz.value_or(launches[i].clock_mhz);
          const double held_w = power.held_idle_w(f);
          for (const KernelWork& k : timing_->kernels(*launches[i].graph, *launches[i].op, f)) {
            const double s = static_cast<double>(k.duration_ps) * 1e-12;
            seconds_joules.first += s;
            seconds_joules.second += (held_w + k.dynamic_w) * s;
          }
        }
        return seconds_joules;
      };
      // With the time the window held nothing else as it ran (host gaps), idle at the window's
      // clock: the idle draw and that clock's leakage (the process keeps the GPU in P0).
      const double span_s = static_cast<double>(to - from) * 1e-12;
      const auto ran = window_load(std::nullopt);
      const double gap_s = std::max(0.0, span_s - ran.first);
      const auto modelled_w = [&](std::pair<double, double> load, double gap_mhz) {
        const double gap_w = power.held_idle_w(gap_mhz);
        const double seconds = gap_s + load.first;
        return seconds > 0 ? (gap_w * gap_s + load.second) / seconds : gap_w;
      };
      // What the window drew as simulated, less what the model gives it at the clocks it ran at:
      // work spilling across its edges, overlap; carried into the clock it gets next.
      const double offset_w = drawn.between(from, to) / span_s - modelled_w(ran, clocks[members[w].front()]);
      const auto excess_w = [&](double mhz) { return modelled_w(window_load(mhz), mhz) + offset_w - limit; };
      held[w] = firmware_clock(excess_w, floor, cap, 0.1 / cap);
      for (const std::size_t i : members[w]) next[i] = held[w].mhz;
    }
    bool settled = true;
    for (std::size_t i = 0; i < next.size(); ++i) settled = settled && std::abs(next[i] - clocks[i]) <= 1e-3 * cap;
    if (settled) break;
    clocks = std::move(next);
    launches.clear();
    pass = simulate(experiment, cap, deadline, clocks, &launches);
  }
  // What the firmware did, window by window.
  std::size_t at_cap = 0, by_limit = 0, at_floor = 0;
  double lowest = cap, heaviest_w = 0;
  for (const FirmwareClock& c : held) {
    at_cap += c.held == ClockHeld::fits_at_cap;
    by_limit += c.held == ClockHeld::by_limit;
    at_floor += c.held == ClockHeld::over_at_floor;
    lowest = std::min(lowest, c.mhz);
    heaviest_w = std::max(heaviest_w, c.excess_at_cap_w + limit);
  }
  const double pass_ms = ps_to_ms(result.makespan_ps), window_ms = ps_to_ms(power_window_ps_);
  if (by_limit + at_floor == 0) {
    reason = fmt::format(
        "{:.0f} MHz, the {}: every {:g} ms window of the {:.1f} ms pass draws at most {:.0f} W, within the {:.0f} W "
        "power limit",
        cap, cap_name, window_ms, pass_ms, heaviest_w, limit);
  } else {
    reason = fmt::format(
        "{:.0f} MHz time-averaged, set per {:g} ms window of the {:.1f} ms pass: {} of {} windows at the {} "
        "({:.0f} MHz), {} held by the {:.0f} W power limit (down to {:.0f} MHz; at the {} the heaviest would draw "
        "{:.0f} W)",
        series_mean_clock_mhz(result.power, result.makespan_ps), window_ms, pass_ms, at_cap, held.size(), cap_name, cap,
        by_limit + at_floor, limit, lowest, cap_name, heaviest_w);
    if (at_floor > 0) reason += fmt::format("; {} at the table's lowest clock, over the limit even there", at_floor);
  }
  return pass;
}

GpuDevice::Pass GpuDevice::simulate(const Experiment& experiment, double clock_mhz, WallDeadline deadline,
                                    const std::vector<double>& op_clocks, std::vector<OpLaunch>* launches) const {
  Pass pass;
  RunResult& result = pass.result;
  result.experiment = experiment.name;
  result.device_kind = kind();
  result.device = spec_.name;
  result.timing_model = timing_model_;
  result.calibration = timing_->calibration();
  const ResolvedSchedule& schedule = *experiment.schedule;
  result.schedule = schedule.spec.policy;
  result.schedule_summary = schedule.summary();

  Engine engine;
  engine.set_deadline(deadline);
  GpuExecutor gpu(engine, timing_->dram_bandwidth_bytes_per_s(), sharing_.kernels);
  StreamRuntime runtime(engine, gpu);
  for (const int priority : schedule.stream_priority) runtime.create_stream(priority);

  // Board power: the GPU held in P0 at the clock the last kernel started at (GpuPowerModel::
  // held_idle_w, also between kernels), plus what the running kernels draw.
  const GpuPowerModel& power = timing_->power();
  const double first_clock = op_clocks.empty() ? clock_mhz : op_clocks.front();
  double clock_now = first_clock, held_w = power.held_idle_w(first_clock);
  double share_ps = 0;  // kernel time weighted by the share of the GPU each fills alone
  BoardPower board;
  board.set(0, held_w, first_clock);
  gpu.kernel_started.connect([&](const KernelWork& kernel, TimePs) {
    if (kernel.clock_mhz != clock_now) {
      clock_now = kernel.clock_mhz;
      held_w = power.held_idle_w(clock_now);
    }
  });
  gpu.dynamic_power_changed.connect(
      [&](TimePs now, double dynamic_w) { board.set(now, held_w + (gpu.running() > 0 ? dynamic_w : 0.0), clock_now); });
  result.utilization.push_back({0, 0, 0});
  gpu.utilization_changed.connect([&](TimePs now, double occupancy, double bytes_per_s) {
    const UtilizationSample sample{now, occupancy, bytes_per_s * 1e-9};
    if (result.utilization.back().start_ps == now)
      result.utilization.back() = sample;
    else
      result.utilization.push_back(sample);
  });

  for (const ModelRequest& request : experiment.models)
    result.models.push_back(
        {request.name, request.params, request.graph->total_cost(), request.graph->ops().size(), -1, 0});
  // The host threads issue the schedule's segments in order, one kernel per launch cost; a sync
  // point is an event recorded after the segment waited for (sim/runtime/schedule.h). Rows are
  // filled in as the kernels run.
  std::vector<std::size_t> done_events;
  for (std::size_t i = 0; i < schedule.segments.size(); ++i) done_events.push_back(runtime.create_event(true));
  const TimePs launch_ps = checked_ps(timing_->host_launch_s() * 1e12, "the host's launch cost");
  std::vector<TimePs> host_thread_ps(static_cast<std::size_t>(schedule.spec.host_threads), 0);
  // The row of each op's first kernel in result.ops, in launch order (kNoRow: it launched none),
  // and how many it launched (their rows follow it).
  constexpr std::size_t kNoRow = static_cast<std::size_t>(-1);
  std::vector<std::size_t> op_launch_rows, op_kernel_counts;
  for (std::size_t i = 0; i < schedule.segments.size(); ++i) {
    const ScheduleSegment& segment = schedule.segments[i];
    const std::size_t m = segment.ref.tenant;
    TimePs& host_ps = host_thread_ps[m % host_thread_ps.size()];
    const Graph& graph = *segment.graph;
    for (const std::size_t waited : segment.waits) runtime.wait(segment.stream, done_events[waited], host_ps);
    for (const OpId id : graph.topological_order()) {
      const Op& op = graph.op(id);
      const std::size_t nth = op_launch_rows.size();
      const double op_clock = nth < op_clocks.size() ? op_clocks[nth] : clock_mhz;
      const auto kernels = timing_->kernels(graph, op, op_clock);
      op_launch_rows.push_back(kernels.empty() ? kNoRow : result.ops.size());
      op_kernel_counts.push_back(kernels.size());
      if (launches) launches->push_back({&graph, &op, 0, 0, op_clock});
      for (std::size_t k = 0; k < kernels.size(); ++k) {
        share_ps += static_cast<double>(kernels[k].duration_ps) * kernels[k].gpu_share;
        result.ops.push_back({m, op.name, kernels[k].name, op.kind, graph.tensor(op.output).shape, segment.stream, 0, 0,
                              k == 0 ? op.cost : OpCost{}, kernels[k].dram_bytes, kernels[k].bound});
        const std::size_t row = result.ops.size() - 1;
        runtime.launch(
            segment.stream, kernels[k],
            [&result, row](TimePs start, TimePs end) {
              result.ops[row].start_ps = start;
              result.ops[row].end_ps = end;
            },
            host_ps);
        host_ps = checked_add(host_ps, launch_ps, "the host's issue time in picoseconds");
      }
    }
    runtime.record(segment.stream, done_events[i], host_ps);
  }
  engine.schedule_at(0, [&runtime] { runtime.start(); });
  engine.run();

  result.close_timeline();
  if (launches)
    for (std::size_t n = 0; n < op_launch_rows.size(); ++n) {
      if (op_launch_rows[n] == kNoRow) continue;
      (*launches)[n].start_ps = result.ops[op_launch_rows[n]].start_ps;
      (*launches)[n].end_ps = result.ops[op_launch_rows[n] + op_kernel_counts[n] - 1].end_ps;
    }
  std::stable_sort(result.ops.begin(), result.ops.end(),
                   [](const OpRecord& a, const OpRecord& b) { return a.start_ps < b.start_ps; });
  result.power = board.take_series(result.makespan_ps);
  while (result.utilization.size() > 1 && result.utilization.back().start_ps >= result.makespan_ps)
    result.utilization.pop_back();
  if (result.makespan_ps > 0) pass.gpu_share = std::min(1.0, share_ps / static_cast<double>(result.makespan_ps));
  add_workload_metrics(result, spec_.tdp_w);
  return pass;
}

DSE_REGISTER_ENTRY(Device, "gpu", "A GPU from its datasheet spec, timed per kernel (device.timing_model)",
                   GpuDevice::from_config, GpuDevice::declared_keys())

}  // namespace dse
