// Speed of the serving simulation (sim/serving/serving_sim.h), measured with Google Benchmark:
//   serving_resnet50_dynamic_1m   1,000,000 requests of ResNet-50 (fp16, H200, kernel model) under
//                       Poisson arrivals at 4,000/s and Triton-style dynamic batching (max 64,
//                       preferred 16/32/64, 2 ms queue delay); target <= 10 s wall on one core.
//                       Includes reading the config and simulating each distinct batch's pass.
//   reference_priority_queue_3m   a bare std::priority_queue of 3,000,000 pushes and pops, a fixed
//                       workload to compare machines by (bench/reference_workload.h; the serving
//                       run's events are of that order)
// Run: build/bench/bench_serving   (the ratio of the two is what to compare across machines)
#include <benchmark/benchmark.h>

#include "bench/reference_workload.h"
#include "sim/config/config_loader.h"
#include "sim/run/simulation.h"

namespace {

constexpr const char* kConfig = R"(name: bench_serving
workload:
  models: [{name: resnet50, dtype: fp16}]
  serving:
    requests: 1000000
    seed: 1
    tenants:
      - arrivals: {name: poisson, rate_per_s: 4000}
        slo_ms: 25
        batching: {name: dynamic, max_batch: 64, preferred: [16, 32, 64], max_queue_delay_ms: 2}
device: {gpu: h200, timing_model: kernel}
output: ~
)";

void serving_resnet50_dynamic_1m(benchmark::State& state) {
  double requests = 0;
  for (auto _ : state) {
    const dse::ConfigNode root = dse::load_config_text(kConfig, "bench_serving.yaml");
    const dse::RunResult result = dse::run_experiment(dse::read_experiment(root, "bench_serving.yaml"));
    requests = result.metrics.at("requests");
    benchmark::DoNotOptimize(result.metrics.at("latency_p99_ms"));
  }
  state.counters["requests"] = requests;
}
BENCHMARK(serving_resnet50_dynamic_1m)->Unit(benchmark::kMillisecond)->Iterations(3);

using dse::bench::reference_priority_queue_3m;
BENCHMARK(reference_priority_queue_3m)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
