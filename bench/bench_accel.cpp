// The accelerator model's speed (DESIGN.md targets):
//   resnet50_on_tpu_v3_like: one ResNet-50 (batch 1) evaluated on tpu_v3_like with exact fusion,
//     given the prepared graph: <= 50 us wall;
//   efficientnet_b0_designs/T: complete EfficientNet-B0 design evaluations (mapping of every layer,
//     exact fusion, area and power) over a fixed list of varied designs on T TBB threads:
//     >= 20,000 designs/s on 2 cores; the 1- vs 2-thread ratio is the scaling;
//   reference_priority_queue_3m: a fixed workload to compare machines by (bench/reference_workload.h).
// Run: build/bench/bench_accel   (the ratios to the reference are what carry across machines)
#include <benchmark/benchmark.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <atomic>

#include "bench/reference_workload.h"
#include "models/zoo/zoo.h"
#include "sim/accel/accel_evaluator.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"

namespace {

dse::AcceleratorSpec catalog_spec(const std::string& name) {
  const auto path = dse::HardwareCatalog::for_listing().find("accel", name);
  return dse::read_accelerator_spec(dse::load_config_file(*path));
}

dse::AccelWorkload zoo_workload(const std::string& model, int batch) {
  dse::ModelParams params;
  params.batch = batch;
  params.dtype = dse::DType::bf16;
  return dse::make_accel_workload(dse::ModelRegistry::instance().find(model)->factory(params), batch);
}

void resnet50_on_tpu_v3_like(benchmark::State& state) {
  const dse::AccelWorkload workload = zoo_workload("resnet50", 1);
  const dse::AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  for (auto _ : state)
    benchmark::DoNotOptimize(
        dse::evaluate_accelerator(workload, spec, dse::FusionMode::exact, dse::PaddingMode::automatic).latency_s);
}
BENCHMARK(resnet50_on_tpu_v3_like)->Unit(benchmark::kMicrosecond);

// 256 designs spanning edge to datacenter parts: arrays 8..256 per side, 1..64 cores, L1 64 KiB..16 MiB,
// global buffer none..64 MiB, DRAM 50..3200 GB/s; a fixed pattern, so every run evaluates the same list.
std::vector<dse::AcceleratorSpec> design_list() {
  const dse::AcceleratorSpec base = catalog_spec("tpu_v3_like");
  std::vector<dse::AcceleratorSpec> designs;
  for (int i = 0; i < 256; ++i) {
    dse::AcceleratorSpec s = base;
    s.array.rows = std::int64_t{8} << (i % 6);
    s.array.cols = std::int64_t{8} << ((i / 6) % 6);
    s.cores_x = 1 << (i % 4);
    s.cores_y = 1 << ((i / 4) % 3);
    s.l1_bytes = (std::int64_t{64} << 10) << ((i / 3) % 9);
    s.global_buffer_bytes = (i % 5 == 0) ? 0 : (std::int64_t{1} << 20) << (i % 7);
    s.noc_bandwidth_gbps = 2048;
    s.dram_bandwidth_gbps = 50.0 * (1 << (i % 7));
    s.array.dataflow = static_cast<dse::Dataflow>(i % 3);
    designs.push_back(s);
  }
  return designs;
}

void efficientnet_b0_designs(benchmark::State& state) {
  const dse::AccelWorkload workload = zoo_workload("efficientnet_b0", 1);
  const auto designs = design_list();
  tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(state.range(0)));
  std::int64_t evaluated = 0;
  for (auto _ : state) {
    std::atomic<double> sink{0};
    tbb::parallel_for(std::size_t{0}, designs.size(), [&](std::size_t i) {
      const auto e =
          dse::evaluate_accelerator(workload, designs[i], dse::FusionMode::exact, dse::PaddingMode::automatic);
      sink.store(e.latency_s + e.power_area.tdp_w, std::memory_order_relaxed);
    });
    evaluated += static_cast<std::int64_t>(designs.size());
  }
  state.counters["designs_per_s"] = benchmark::Counter(static_cast<double>(evaluated), benchmark::Counter::kIsRate);
  state.counters["ops_per_design"] = static_cast<double>(workload.ops.size());
}
BENCHMARK(efficientnet_b0_designs)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

using dse::bench::reference_priority_queue_3m;
BENCHMARK(reference_priority_queue_3m)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
