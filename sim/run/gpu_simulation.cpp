#include "sim/run/gpu_simulation.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "sim/gpu/gpu_timing_model.h"

namespace dse {

double RunResult::throughput_per_s() const {
  double samples = 0;
  for (const auto& model : models) samples += model.params.batch;
  return makespan_ps > 0 ? samples / (latency_ms() * 1e-3) : 0.0;
}

namespace {

// A stream: ops issued in order, each starting when the previous one ends.
class SingleStream {
 public:
  SingleStream(Engine& engine, std::vector<OpRecord>& records, const std::vector<TimePs>& durations)
      : engine_(engine), records_(records), durations_(durations) {}

  void launch(std::size_t next) {
    if (next >= records_.size()) return;
    OpRecord& record = records_[next];
    record.start_ps = engine_.now();
    record.end_ps = record.start_ps + durations_[next];
    engine_.schedule_at(record.end_ps, [this, next] { launch(next + 1); });
  }

 private:
  Engine& engine_;
  std::vector<OpRecord>& records_;
  const std::vector<TimePs>& durations_;
};

}  // namespace

RunResult run_experiment(const Experiment& experiment) {
  const auto* timing_entry = GpuTimingRegistry::instance().find(experiment.timing_model);
  if (!timing_entry) throw std::logic_error("timing model '" + experiment.timing_model + "' not registered");
  const std::unique_ptr<GpuTimingModel> timing = timing_entry->factory(experiment.gpu);

  RunResult result;
  result.experiment = experiment.name;
  result.gpu = experiment.gpu.name;
  result.timing_model = experiment.timing_model;
  result.calibration = timing->calibration();

  std::vector<TimePs> durations;
  for (std::size_t m = 0; m < experiment.models.size(); ++m) {
    const ModelRequest& request = experiment.models[m];
    const Graph& graph = *request.graph;
    ModelResult model{request.name, request.params, graph.total_cost(), graph.ops().size(), 0, 0};
    result.models.push_back(model);
    for (const OpId id : graph.topological_order()) {
      const Op& op = graph.op(id);
      const OpTiming timing_of_op = timing->time(graph, op);
      result.ops.push_back({m, op.name, op.kind, graph.tensor(op.output).shape, 0, 0, 0, op.cost, timing_of_op.bound});
      durations.push_back(timing_of_op.duration_ps);
    }
  }

  Engine engine;
  SingleStream stream(engine, result.ops, durations);
  engine.schedule_at(0, [&stream] { stream.launch(0); });
  engine.run();

  for (auto& model : result.models) model.start_ps = -1;
  for (const auto& op : result.ops) {
    ModelResult& model = result.models[op.model_index];
    if (model.start_ps < 0 || op.start_ps < model.start_ps) model.start_ps = op.start_ps;
    model.end_ps = std::max(model.end_ps, op.end_ps);
    result.makespan_ps = std::max(result.makespan_ps, op.end_ps);
  }
  return result;
}

}  // namespace dse
