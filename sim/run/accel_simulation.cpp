#include "sim/run/accel_simulation.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/accel/accel_evaluator.h"
#include "sim/run/shared_memo.h"
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

std::shared_ptr<const SharedWorkload> shared_workload(const std::shared_ptr<const Graph>& graph, int batch) {
  static SharedMemo<SharedWorkload> memo(256);
  return memo.get(fmt::format("{}|{}", static_cast<const void*>(graph.get()), batch), [&] {
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
Pass baseline_pass(const std::vector<std::shared_ptr<const SharedWorkload>>& workloads,
                   const std::vector<ModelRequest>& models, const std::shared_ptr<const AcceleratorSpec>& spec) {
  static SharedMemo<BaselinePass> memo(1024);
  Pass pass;
  for (std::size_t m = 0; m < workloads.size(); ++m) {
    const auto key = fmt::format("{}|{}", static_cast<const void*>(workloads[m].get()), static_cast<const void*>(spec.get()));
    const auto e = memo.get(key, [&] {
      const AccelEvaluation eval = evaluate_accelerator(workloads[m]->workload, *spec, FusionMode::epilogue, PaddingMode::array);
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

}  // namespace

RunResult run_accelerator_experiment(const Experiment& experiment, WallDeadline deadline) {
  const AcceleratorSpec& spec = *experiment.accelerator;
  RunResult result;
  result.experiment = experiment.name;
  result.device_kind = "accelerator";
  result.device = spec.name;
  result.timing_model = "accel_template";
  result.calibration = "area and power anchored to TPU-v3";
  result.schedule = experiment.schedule;

  std::vector<std::shared_ptr<const SharedWorkload>> workloads;
  std::vector<AccelEvaluation> evaluations;
  for (const ModelRequest& request : experiment.models) {
    workloads.push_back(shared_workload(request.graph, request.params.batch));
    evaluations.push_back(evaluate_accelerator(workloads.back()->workload, spec, experiment.fusion, experiment.padding));
  }

  if (deadline && std::chrono::steady_clock::now() > *deadline)
    throw SimulationTimeout("the mapping and fusion plan passed the wall-clock deadline");
  // One op queue per model with `stream_per_model`, else one for all: queues share the cores and
  // the DMA path (sim/runtime/accel_executor.h).
  Engine engine;
  engine.set_deadline(deadline);
  const bool per_model = experiment.schedule == "stream_per_model";
  AccelExecutor device(engine, per_model ? experiment.models.size() : 1);
  double dynamic_j = 0;
  for (std::size_t m = 0; m < experiment.models.size(); ++m) {
    const Graph& graph = *experiment.models[m].graph;
    result.models.push_back({experiment.models[m].name, experiment.models[m].params, graph.total_cost(),
                             graph.ops().size(), -1, 0});
    const AccelEvaluation& e = evaluations[m];
    dynamic_j += e.dynamic_energy_j;
    for (std::size_t i = 0; i < workloads[m]->workload.ops.size(); ++i) {
      const Op& op = graph.op(workloads[m]->workload.ops[i].op);
      const FusedOpTiming& t = e.fusion.ops[i];
      const std::string bound = t.time_s <= 0                        ? "none"
                                : t.compute_s >= t.time_s * 0.999 ? "compute"
                                                                  : "memory";
      result.ops.push_back({m, op.name, "group " + std::to_string(t.group), op.kind, graph.tensor(op.output).shape,
                            static_cast<int>(per_model ? m : 0), 0, 0, op.cost, t.dram_bytes, bound});
      // The op's time alone is max(core, DMA) + first tiles; the first tiles count on both sides.
      const double dma_s = t.dram_bytes / spec.dram_bytes_per_s();
      const std::size_t row = result.ops.size() - 1;
      device.enqueue(per_model ? m : 0, {t.core_s + t.first_tiles_s, dma_s + t.first_tiles_s,
                                         [&result, row](TimePs start, TimePs end) {
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

  const AcceleratorPowerArea& power = evaluations.front().power_area;
  const double makespan_s = static_cast<double>(result.makespan_ps) * 1e-12;
  result.energy_j = dynamic_j + power.static_w * makespan_s;

  AcceleratorMetrics metrics;
  metrics.fusion = fusion_mode_name(experiment.fusion);
  metrics.padding = padding_mode_name(experiment.padding);
  double samples = 0;
  for (std::size_t m = 0; m < evaluations.size(); ++m) {
    metrics.fusion_groups += evaluations[m].fusion.groups;
    metrics.dram_bytes += evaluations[m].dram_bytes;
    samples += experiment.models[m].params.batch;
  }
  metrics.area_mm2 = power.area_mm2;
  metrics.tdp_w = power.tdp_w;
  metrics.static_w = power.static_w;
  metrics.inferences_per_s = makespan_s > 0 ? samples / makespan_s : 0;
  metrics.perf_per_tdp = metrics.inferences_per_s / power.tdp_w;
  metrics.perf_per_mm2 = metrics.inferences_per_s / power.area_mm2;
  metrics.energy_per_inference_j = samples > 0 ? *result.energy_j / samples : 0;
  if (experiment.baseline_accelerator) {
    const Pass pass = baseline_pass(workloads, experiment.models, experiment.baseline_accelerator);
    const AcceleratorPowerArea& base_power = pass.power;
    const double base_ips = pass.samples / pass.latency_s;
    metrics.inferences_per_s_vs_tpu_v3 = metrics.inferences_per_s / base_ips;
    metrics.perf_per_tdp_vs_tpu_v3 = metrics.perf_per_tdp / (base_ips / base_power.tdp_w);
    metrics.perf_per_mm2_vs_tpu_v3 = metrics.perf_per_mm2 / (base_ips / base_power.area_mm2);
    metrics.energy_per_inference_vs_tpu_v3 = metrics.energy_per_inference_j / (pass.energy_j / pass.samples);
    double log_sum = 0;
    for (std::size_t m = 0; m < evaluations.size(); ++m)
      log_sum += std::log(pass.model_latency_s[m] / evaluations[m].latency_s * base_power.tdp_w / power.tdp_w);
    metrics.perf_per_tdp_vs_tpu_v3_geomean = std::exp(log_sum / static_cast<double>(evaluations.size()));
  }
  result.accelerator = metrics;
  return result;
}

}  // namespace dse
