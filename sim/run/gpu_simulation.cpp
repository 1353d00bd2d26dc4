#include "sim/run/gpu_simulation.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "sim/gpu/gpu_timing_model.h"
#include "sim/runtime/streams.h"

namespace dse {

RunResult run_gpu_experiment(const Experiment& experiment, WallDeadline deadline) {
  std::shared_ptr<const GpuTimingModel> timing = experiment.timing;
  if (!timing) {  // an Experiment assembled in code rather than read
    const auto* entry = GpuTimingRegistry::instance().find(experiment.timing_model);
    if (!entry) throw std::logic_error("timing model '" + experiment.timing_model + "' not registered");
    timing = entry->factory(experiment.gpu, experiment.calibration, experiment.calibration_file);
  }

  RunResult result;
  result.experiment = experiment.name;
  result.device = experiment.gpu.name;
  result.timing_model = experiment.timing_model;
  result.calibration = timing->calibration();
  result.schedule = experiment.schedule;

  Engine engine;
  engine.set_deadline(deadline);
  GpuExecutor gpu(engine, timing->dram_bandwidth_bytes_per_s());
  StreamRuntime runtime(engine, gpu);
  const bool per_model = experiment.schedule == "stream_per_model";
  const int shared_stream = runtime.create_stream();

  // Enqueue every kernel up front, as a host thread launching asynchronously would; rows are
  // filled in as the kernels run.
  std::vector<std::size_t> row_of_first_kernel;
  for (std::size_t m = 0; m < experiment.models.size(); ++m) {
    const ModelRequest& request = experiment.models[m];
    const Graph& graph = *request.graph;
    result.models.push_back({request.name, request.params, graph.total_cost(), graph.ops().size(), -1, 0});
    const int stream = per_model && m > 0 ? runtime.create_stream() : shared_stream;
    for (const OpId id : graph.topological_order()) {
      const Op& op = graph.op(id);
      const auto kernels = timing->kernels(graph, op);
      for (std::size_t k = 0; k < kernels.size(); ++k) {
        result.ops.push_back({m, op.name, kernels[k].name, op.kind, graph.tensor(op.output).shape, stream, 0, 0,
                              k == 0 ? op.cost : OpCost{}, kernels[k].dram_bytes, kernels[k].bound});
        const std::size_t row = result.ops.size() - 1;
        runtime.launch(stream, kernels[k], [&result, row](TimePs start, TimePs end) {
          result.ops[row].start_ps = start;
          result.ops[row].end_ps = end;
        });
      }
    }
  }
  engine.schedule_at(0, [&runtime] { runtime.start(); });
  engine.run();

  result.close_timeline();
  std::stable_sort(result.ops.begin(), result.ops.end(),
                   [](const OpRecord& a, const OpRecord& b) { return a.start_ps < b.start_ps; });
  return result;
}

}  // namespace dse
