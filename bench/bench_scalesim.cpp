// dse's systolic-array model on SCALE-Sim's own reference cases, against SCALE-Sim's run times
// on this kind of machine (tests/data/README.md: AlexNet on google.cfg 32 s, ResNet-18 on
// scale.cfg 303 s; SCALE-Sim itself cannot be installed here, so its times are the recorded ones).
// Target: >= 1000x faster. Each iteration parses the config and topology and computes every layer.
// Run: build/bench/bench_scalesim
#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>

#include "models/import/scalesim_topology.h"
#include "sim/accel/scalesim_config.h"

namespace {

void scalesim_case(benchmark::State& state, const std::string& config, const std::string& topology,
                   double scalesim_seconds) {
  const std::string dir = std::string(DSE_REFERENCE_DIR) + "/scalesim/inputs/";
  if (!std::filesystem::exists(dir + topology)) {
    state.SkipWithError("reference data not present");
    return;
  }
  std::int64_t cycles = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    const dse::ScaleSimConfig cfg = dse::read_scalesim_config(dir + config);
    const dse::Graph graph = dse::import_scalesim_topology(dir + topology);
    cycles = 0;
    for (const auto& op : graph.ops()) cycles += dse::run_gemm(op.gemms.at(0), cfg.array).cycles;
    benchmark::DoNotOptimize(cycles);
  }
  const double seconds_per_case = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
                                  static_cast<double>(state.iterations());
  state.counters["total_cycles"] = static_cast<double>(cycles);
  state.counters["x_faster_than_scalesim"] = scalesim_seconds / seconds_per_case;
}

void alexnet_google_ws256(benchmark::State& state) { scalesim_case(state, "google.cfg", "alexnet.csv", 32.0); }
void resnet18_scale_os32(benchmark::State& state) { scalesim_case(state, "scale.cfg", "Resnet18.csv", 303.0); }
BENCHMARK(alexnet_google_ws256)->Unit(benchmark::kMicrosecond);
BENCHMARK(resnet18_scale_os32)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
