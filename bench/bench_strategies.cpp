// How many evaluations each search strategy needs on a design space small enough to enumerate.
//
// The space: the accelerator template for EfficientNet-B0 (batch 8, bf16, exact fusion) over
// 4 x 4 x 6 x 6 x 6 x 7 x 4 = 145,152 designs (cores x, y; array rows, cols; vector lanes; L1; DRAM
// bandwidth), objective Perf/TDP under TPU-v3's area (700 mm^2) and TDP (450 W). Every design is
// evaluated once (on TBB) to find the true optimum; then each strategy runs ask/tell against that
// table for 10 seeds, counting distinct designs evaluated until one within 1 % of the optimum.
// Target (issue #6): the best strategy needs <= 2 % of the space and >= 5x fewer than random.
// Run: build/bench/bench_strategies [--seeds N]
#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "models/zoo/zoo.h"
#include "search/search_run.h"
#include "search/strategy.h"
#include "sim/accel/accel_evaluator.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"

namespace {

const char* kSpace = R"(cores_x: {pow2: [1, 8]}
cores_y: {pow2: [1, 8]}
rows: {pow2: [8, 256]}
cols: {pow2: [8, 256]}
lanes: {pow2: [32, 1024]}
l1_kib: {pow2: [128, 8192]}
dram_gbps: {choice: [300, 600, 900, 1200]}
)";

struct Table {
  dse::SearchSpace space;
  std::vector<std::int64_t> radix;                // levels per parameter
  std::vector<std::map<std::string, int>> index;  // value text -> level
  std::vector<double> score;                      // perf/TDP, or -1 when infeasible
  double best = 0;
  std::size_t within_1pct = 0;

  std::int64_t key(const std::vector<std::string>& values) const {
    std::int64_t k = 0;
    for (std::size_t p = 0; p < values.size(); ++p) k = k * radix[p] + index[p].at(values[p]);
    return k;
  }
};

Table enumerate(const dse::AccelWorkload& workload, const dse::AcceleratorSpec& base) {
  Table t;
  t.space = dse::read_search_space(dse::load_config_text(kSpace, "space.yaml"));
  std::int64_t size = 1;
  for (const auto& p : t.space.parameters) {
    t.radix.push_back(*p.levels());
    std::map<std::string, int> levels;
    for (std::int64_t i = 0; i < *p.levels(); ++i) levels[p.level(i)] = static_cast<int>(i);
    t.index.push_back(levels);
    size *= *p.levels();
  }
  t.score.assign(static_cast<std::size_t>(size), -1);
  tbb::parallel_for(std::int64_t{0}, size, [&](std::int64_t k) {
    std::int64_t rest = k;
    std::vector<std::int64_t> level(t.radix.size());
    for (std::size_t p = t.radix.size(); p-- > 0;) {
      level[p] = rest % t.radix[p];
      rest /= t.radix[p];
    }
    const auto value = [&](std::size_t p) { return std::stod(t.space.parameters[p].level(level[p])); };
    dse::AcceleratorSpec s = base;
    s.cores_x = static_cast<int>(value(0));
    s.cores_y = static_cast<int>(value(1));
    s.array.rows = static_cast<std::int64_t>(value(2));
    s.array.cols = static_cast<std::int64_t>(value(3));
    s.vector_lanes = static_cast<std::int64_t>(value(4));
    s.l1_bytes = static_cast<std::int64_t>(value(5)) * 1024;
    s.dram_bandwidth_gbps = value(6);
    const dse::AcceleratorPowerArea pa = dse::accelerator_power_area(s);
    if (pa.area_mm2 > 700 || pa.tdp_w > 450) return;
    const auto e = dse::evaluate_accelerator(workload, s, dse::FusionMode::exact, dse::PaddingMode::automatic);
    t.score[static_cast<std::size_t>(k)] = workload.batch / e.latency_s / pa.tdp_w;
  });
  t.best = *std::max_element(t.score.begin(), t.score.end());
  t.within_1pct = static_cast<std::size_t>(
      std::count_if(t.score.begin(), t.score.end(), [&](double v) { return v >= 0.99 * t.best; }));
  return t;
}

// Distinct designs a strategy evaluates before one scores within 1 % of the optimum (budget + 1 if never).
std::int64_t evaluations_to_target(const Table& t, const std::string& strategy, std::uint64_t seed,
                                   std::int64_t budget) {
  dse::StrategyOptions options;
  options.trials = budget * 4;  // proposals may repeat designs (not simulated again); the budget counts distinct ones
  options.seed = seed;
  const dse::ConfigNode params = dse::load_config_text("population: 32\n", "bench_strategies");
  auto s = dse::StrategyRegistry::instance().find(strategy)->factory(t.space, options, params);
  std::set<std::int64_t> seen;
  while (static_cast<std::int64_t>(seen.size()) < budget) {
    const auto batch = s->propose(8);
    if (batch.empty()) break;
    for (const auto& trial : batch) {
      const std::int64_t k = t.key(trial.values);
      seen.insert(k);
      const double v = t.score[static_cast<std::size_t>(k)];
      dse::TrialResult r;
      r.trial = trial;
      if (v < 0) {
        r.status = dse::TrialStatus::infeasible;
      } else {
        r.scores = {v};
        r.objective = v;
        r.metrics["perf_per_tdp"] = v;
      }
      if (v >= 0.99 * t.best) return static_cast<std::int64_t>(seen.size());
      s->report(r);
    }
  }
  return budget + 1;
}

}  // namespace

int main(int argc, char** argv) {
  int seeds = 10;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--seeds") == 0) seeds = std::atoi(argv[i + 1]);
  dse::ModelParams params;
  params.batch = 8;
  params.dtype = dse::DType::bf16;
  const dse::AccelWorkload workload =
      dse::make_accel_workload(dse::ModelRegistry::instance().find("efficientnet_b0")->factory(params), params.batch);
  const auto base = dse::read_accelerator_spec(
      dse::load_config_file(*dse::HardwareCatalog::for_listing().find("accel", "tpu_v3_like")));

  const auto start = std::chrono::steady_clock::now();
  const Table t = enumerate(workload, base);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto size = static_cast<std::int64_t>(t.score.size());
  const auto feasible = std::count_if(t.score.begin(), t.score.end(), [](double v) { return v >= 0; });
  std::printf(
      "space: %lld designs, %lld feasible, enumerated in %.1f s (%.0f designs/s); optimum %.3f inferences/s/W; "
      "%zu designs within 1 %%\n",
      static_cast<long long>(size), static_cast<long long>(feasible), seconds, static_cast<double>(size) / seconds,
      t.best, t.within_1pct);

  struct Row {
    std::string name;
    std::int64_t budget;
  };
  const std::vector<Row> rows = {{"random", size},          {"sobol", size}, {"latin_hypercube", size},
                                 {"aging_evolution", size}, {"nsga2", size}, {"cma_es", size},
                                 {"bayes_opt", 500}};
  std::printf("%-16s %10s %10s %12s %10s  %s\n", "strategy", "median", "% space", "vs random", "time", "per seed");
  double random_median = 0;
  for (const auto& row : rows) {
    std::vector<std::int64_t> counts;
    const auto row_start = std::chrono::steady_clock::now();
    for (int seed = 1; seed <= seeds; ++seed)
      counts.push_back(evaluations_to_target(t, row.name, static_cast<std::uint64_t>(seed), row.budget));
    auto sorted = counts;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.size() % 2
                              ? static_cast<double>(sorted[sorted.size() / 2])
                              : 0.5 * static_cast<double>(sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]);
    if (row.name == "random") random_median = median;
    std::string per_seed;
    for (const auto c : counts) {
      if (c > row.budget) per_seed.push_back('>');
      per_seed.append(std::to_string(std::min(c, row.budget))).push_back(' ');
    }
    const double row_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - row_start).count();
    std::printf("%-16s %10.0f %9.2f%% %11.1fx %8.1f s  %s\n", row.name.c_str(), median,
                100.0 * median / static_cast<double>(size), random_median / median, row_s, per_seed.c_str());
  }
  return 0;
}
