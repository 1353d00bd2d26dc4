// Search throughput and TBB scaling: the same seeded random search over GPU x batch (ResNet-50,
// kernel timing model) with 1 and 2 threads; the results are identical (tested), the ratio of the
// evaluation rates is the scaling (target on a 2-core machine: >= 1.8x). Both run with the shared
// graph and timing-model memo warm.
// Run: build/bench/bench_search
#include <benchmark/benchmark.h>

#include "search/search_run.h"
#include "sim/config/config_loader.h"

namespace {

const char* kExperiment = R"(name: bench
workload:
  models:
    - {name: resnet50, batch: 8, dtype: fp16}
device: {gpu: t4, timing_model: kernel}
output: ~
)";

const char* kSearch = R"(space:
  workload.models[0].batch: {int: [1, 256]}
  device.gpu: {choice: [t4, l4, a10, a100_pcie_40gb, h100_sxm, v100_pcie]}
objective: {maximize: throughput_per_s}
strategy: {name: random, trials: 2000, batch: 64, seed: 1}
)";

void random_search(benchmark::State& state) {
  const dse::ConfigNode base = dse::load_config_text(kExperiment, "bench.yaml");
  const dse::SearchSettings settings = dse::read_search_settings(dse::load_config_text(kSearch, "search.yaml"));
  dse::SearchRunOptions options;
  options.threads = static_cast<int>(state.range(0));
  // Zoo graphs and timing models are shared between the trials of a search through its cache
  // (sim/run/run_cache.h); handing every run the same cache, one untimed run fills it, so both
  // thread counts are measured warm.
  options.cache = std::make_shared<dse::RunCache>();
  dse::run_search(base, "bench.yaml", settings, options);
  std::int64_t evaluated = 0;
  for (auto _ : state) evaluated += dse::run_search(base, "bench.yaml", settings, options).evaluated;
  state.counters["evaluations_per_s"] = benchmark::Counter(static_cast<double>(evaluated), benchmark::Counter::kIsRate);
}
BENCHMARK(random_search)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
