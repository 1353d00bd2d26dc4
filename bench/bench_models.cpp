// Speed of graph construction and import (Google Benchmark; never in unit tests):
//   efficientnet_b7_build_and_analyse  build the zoo graph (ops, shapes, costs) and total it
//                                      (target: <= 5 ms)
//   onnx_import_bert_base              import the 1,336-node BERT-base ONNX fixture, folding its
//                                      shape chains (target: <= 100 ms); needs the test fixtures
//                                      (built with the tests when python3-onnx is installed)
// Run: build/bench/bench_models
#include <benchmark/benchmark.h>

#include <filesystem>

#include "models/import/onnx_import.h"
#include "models/zoo/zoo.h"

namespace {

void efficientnet_b7_build_and_analyse(benchmark::State& state) {
  const auto& build = dse::ModelRegistry::instance().find("efficientnet_b7")->factory;
  for (auto _ : state) {
    const dse::Graph graph = build(dse::ModelParams{});
    benchmark::DoNotOptimize(graph.total_cost().macs);
  }
}
BENCHMARK(efficientnet_b7_build_and_analyse)->Unit(benchmark::kMillisecond);

void onnx_import_bert_base(benchmark::State& state) {
  const std::string path = std::string(DSE_ONNX_FIXTURES) + "/bert_base.onnx";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("fixture missing: build the tests with python3-onnx installed");
    return;
  }
  dse::OnnxImportOptions options;
  options.input_shapes = {{"input_ids", {1, 128}}, {"token_type_ids", {1, 128}}, {"attention_mask", {1, 1, 1, 128}}};
  for (auto _ : state) benchmark::DoNotOptimize(dse::import_onnx(path, options).ops().size());
}
BENCHMARK(onnx_import_bert_base)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
