// Speed of the simulation core, measured with Google Benchmark (never in unit tests):
//   engine_events       events per second of the bare discrete-event core (target: >= 10 M/s)
//   resnet50_h200_b1_roofline    one ResNet-50 batch-1 inference on the H200 roofline model, the graph
//                       already built (target: <= 100 us wall)
//   resnet50_h100_b1_kernel_model the same on the H100 SXM spec with the kernel timing model
//                       (target: <= 100 us wall)
//   resnet50_h200_b1_roofline_with_build   the same as resnet50_h200_b1_roofline, building the zoo graph first
//   resnet50_h100_b64_power_limited/W       ResNet-50 batch 64 on the H100 SXM under a W-watt power
//                       limit: 700 fits at boost (one pass simulated), 250 makes the firmware model
//                       search the clock (several passes); the ratio is what a power limit costs
// Measured side by side on the 2-core dev machine (engine_events ~24 M/s in both builds): the power
// model made one kernel-model pass 108-112 -> 125-126 us and one roofline pass 78-82 -> 100 us (each
// kernel's power and the board-power series); a power-limited pass costs 8.1x an unconstrained
// one (1,010 against 124 us): the clock search simulates it about eight times, and the pass it
// settles on is the last of those (8.8x when it was simulated once more).
//   two_models/0, two_models/1    ResNet-50 + ResNet-18 on one stream / on two concurrent streams
// Run: build/bench/bench_simulation
#include <benchmark/benchmark.h>

#include "sim/config/config_loader.h"
#include "sim/config/overrides.h"
#include "sim/engine/engine.h"
#include "sim/run/simulation.h"

namespace {

// The embedded quickstart experiment with `overrides` applied (and no output files).
dse::Experiment quickstart_experiment(std::vector<std::string> overrides) {
  const std::string file = "embedded:configs/experiments/quickstart.yaml";
  dse::ConfigNode config = dse::load_config_file(file);
  overrides.push_back("output=");
  dse::apply_overrides(config, overrides);
  return dse::read_experiment(config, file);
}

void engine_events(benchmark::State& state) {
  const std::int64_t events = state.range(0);
  for (auto _ : state) {
    dse::Engine engine;
    std::int64_t remaining = events;
    std::function<void()> tick = [&] {
      if (--remaining > 0) engine.schedule_after(1000, tick);
    };
    // Eight chains interleaved, so the heap holds more than one event.
    for (int chain = 0; chain < 8; ++chain) engine.schedule_at(chain, tick);
    benchmark::DoNotOptimize(engine.run());
  }
  state.SetItemsProcessed(state.iterations() * (events + 7));
}
BENCHMARK(engine_events)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void resnet50_h200_b1_roofline(benchmark::State& state) {
  const dse::Experiment experiment =
      quickstart_experiment({"workload.models[0].batch=1", "device.timing_model=roofline"});
  for (auto _ : state) benchmark::DoNotOptimize(dse::run_experiment(experiment).makespan_ps);
}
BENCHMARK(resnet50_h200_b1_roofline)->Unit(benchmark::kMicrosecond);

// Issue target: one ResNet-50 batch-1 inference on the H100 spec, kernel timing model, <= 100 us.
void resnet50_h100_b1_kernel_model(benchmark::State& state) {
  const dse::Experiment experiment =
      quickstart_experiment({"workload.models[0].batch=1", "device.gpu=h100_sxm", "device.timing_model=kernel"});
  for (auto _ : state) benchmark::DoNotOptimize(dse::run_experiment(experiment).makespan_ps);
}
BENCHMARK(resnet50_h100_b1_kernel_model)->Unit(benchmark::kMicrosecond);

void resnet50_h100_b64_power_limited(benchmark::State& state) {
  const dse::Experiment experiment = quickstart_experiment(
      {"workload.models[0].batch=64", "device.gpu=h100_sxm", "device.power_limit_w=" + std::to_string(state.range(0))});
  for (auto _ : state) benchmark::DoNotOptimize(dse::run_experiment(experiment).makespan_ps);
}
BENCHMARK(resnet50_h100_b64_power_limited)->Arg(700)->Arg(250)->Unit(benchmark::kMicrosecond);

void resnet50_h200_b1_roofline_with_build(benchmark::State& state) {
  dse::Experiment experiment = quickstart_experiment({"workload.models[0].batch=1", "device.timing_model=roofline"});
  const auto& build = dse::ModelRegistry::instance().find("resnet50")->factory;
  for (auto _ : state) {
    experiment.models[0].graph = std::make_shared<const dse::Graph>(build(experiment.models[0].params));
    benchmark::DoNotOptimize(dse::run_experiment(experiment).makespan_ps);
  }
}
BENCHMARK(resnet50_h200_b1_roofline_with_build)->Unit(benchmark::kMicrosecond);

// The cost of concurrency: ResNet-50 and ResNet-18 (batch 8) on one stream versus a stream each,
// kernel timing model on the H100 SXM spec (rates recomputed at every kernel start and end).
void two_models(benchmark::State& state) {
  const dse::Experiment experiment =
      quickstart_experiment({"device.gpu=h100_sxm", "device.timing_model=kernel",
                             "workload.models[1]={name: resnet18, batch: 8, dtype: fp16}",
                             state.range(0) ? "schedule.policy=stream_per_model" : "schedule.policy=single_stream"});
  for (auto _ : state) benchmark::DoNotOptimize(dse::run_experiment(experiment).makespan_ps);
  state.SetLabel(state.range(0) ? "two streams" : "one stream");
}
BENCHMARK(two_models)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
