// The accelerator template: spec reading, area/power anchoring, per-op mapping, fusion plans and
// runs through `run_experiment`.
#include <gtest/gtest.h>

#include <cmath>

#include "models/zoo/zoo.h"
#include "sim/accel/accel_device.h"
#include "sim/accel/accel_evaluator.h"
#include "sim/accel/fusion_ilp.h"
#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/config/overrides.h"
#include "sim/run/simulation.h"
#include "sim/runtime/accel_executor.h"

namespace dse {
namespace {

AcceleratorSpec catalog_spec(const std::string& name) {
  return read_accelerator_spec(load_config_file(*HardwareCatalog::for_experiment("").find("accel", name)));
}

AccelWorkload zoo_workload(const std::string& model, int batch, DType dtype = DType::bf16) {
  ModelParams params;
  params.batch = batch;
  params.dtype = dtype;
  return make_accel_workload(ModelRegistry::instance().find(model)->factory(params), batch);
}

TEST(AcceleratorSpec, EveryShippedSpecReads) {
  const auto names = HardwareCatalog::for_experiment("").names("accel");
  ASSERT_GE(names.size(), 3u);
  for (const auto& name : names) {
    const AcceleratorSpec spec = catalog_spec(name);
    EXPECT_EQ(spec.name, name);
    EXPECT_GT(spec.peak_macs_per_s(), 0);
  }
}

TEST(AcceleratorSpec, TpuV3LikeHasTpuV3sPeak) {
  const AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  // Google Cloud: 123 TFLOPS bf16 per chip (2 flops per MAC).
  EXPECT_NEAR(2 * spec.peak_macs_per_s() / 1e12, 123.0, 0.5);
  EXPECT_DOUBLE_EQ(spec.dram_bandwidth_gbps, 900);
  EXPECT_EQ(spec.cores() * spec.l1_bytes, std::int64_t{32} << 20);
}

TEST(AcceleratorPowerArea, TpuV3LikeReproducesTheAnchorFigures) {
  const AcceleratorPowerArea pa = accelerator_power_area(catalog_spec("tpu_v3_like"));
  const TpuV3Reference ref = tpu_v3_reference();
  EXPECT_NEAR(pa.area_mm2, ref.die_area_mm2, 1e-6);
  EXPECT_NEAR(pa.static_w, ref.idle_power_w, 1e-6);
  EXPECT_NEAR(pa.static_w + pa.peak_dynamic_w, ref.max_power_w, 1e-6);
  EXPECT_NEAR(pa.tdp_w, ref.tdp_w, 1e-6);
  EXPECT_GT(pa.energy.mac_j, 0);
  EXPECT_LT(pa.energy.l1_byte_j, pa.energy.dram_byte_j);
}

TEST(AcceleratorPowerArea, GrowsWithEveryComponent) {
  const AcceleratorSpec base = catalog_spec("tpu_v3_like");
  const double area = accelerator_power_area(base).area_mm2, tdp = accelerator_power_area(base).tdp_w;
  AcceleratorSpec bigger = base;
  bigger.array.rows *= 2;
  EXPECT_GT(accelerator_power_area(bigger).area_mm2, area);
  bigger = base;
  bigger.l1_bytes *= 2;
  EXPECT_GT(accelerator_power_area(bigger).area_mm2, area);
  bigger = base;
  bigger.vector_lanes *= 2;
  EXPECT_GT(accelerator_power_area(bigger).tdp_w, tdp);
  bigger = base;
  bigger.dram_bandwidth_gbps *= 2;
  EXPECT_GT(accelerator_power_area(bigger).tdp_w, tdp);
  EXPECT_DOUBLE_EQ(accelerator_power_area(bigger).area_mm2, area);  // DRAM is off chip
}

TEST(AcceleratorPowerArea, VoltageFollowsTheClock) {
  // TPU-v3's 940 MHz sits at the 16 nm curve's 0.80 V point; lower clocks reach its 0.70 V floor.
  EXPECT_DOUBLE_EQ(accelerator_voltage_v(940), 0.80);
  EXPECT_DOUBLE_EQ(accelerator_voltage_v(470), 0.70);
  EXPECT_GT(accelerator_voltage_v(1175), 0.80);
  EXPECT_NEAR(accelerator_voltage_v(accelerator_max_clock_mhz()), 1.10, 1e-12);
  // Energy per MAC grows with V^2: a faster clock costs more than its share of power, a slower one
  // saves more, down to the voltage floor.
  AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  const double mac_940 = accelerator_power_area(spec).energy.mac_j;
  spec.clock_mhz = 1175;
  const AcceleratorPowerArea fast = accelerator_power_area(spec);
  EXPECT_NEAR(fast.energy.mac_j / mac_940, std::pow(fast.voltage_v / 0.80, 2), 1e-12);
  EXPECT_GT(fast.tdp_w / accelerator_power_area(catalog_spec("tpu_v3_like")).tdp_w, 1175.0 / 940);
  // A clock above the curve's top is refused.
  ConfigNode root = load_config_file(*HardwareCatalog::for_experiment("").find("accel", "tpu_v3_like"));
  apply_overrides(root, {"clock_mhz=1600"});
  EXPECT_THROW(read_accelerator_spec(root), ConfigError);
}

TEST(TileFactors, HandComputed) {
  // Everything fits: every operand crosses once.
  TileFactors f = tile_factors(64, 64, 64, 2, 1 << 20, 16, 16);
  EXPECT_EQ(f.a, 1);
  EXPECT_EQ(f.b, 1);
  EXPECT_EQ(f.c, 1);
  // A = 1024x256 (512 KiB), B = 256x1024 (512 KiB) at 2 B in 256 KiB: neither fits in half (128 KiB);
  // a full-K strip of t rows/columns takes 256 x 2 x t <= 128 KiB -> t = 256: B is re-read
  // ceil(1024 / 256) = 4 times or A is; equal cost, A keeps the first choice.
  f = tile_factors(1024, 1024, 256, 2, 256 << 10, 128, 128);
  EXPECT_EQ(f.a, 4);
  EXPECT_EQ(f.b, 1);
  EXPECT_EQ(f.c, 1);
  // K too long for one strip of 128 columns in half of 64 KiB: 4096 x 2 x 128 = 1 MiB -> 32 K-splits,
  // partial sums go out and back 31 times.
  f = tile_factors(4096, 4096, 4096, 2, 64 << 10, 128, 128);
  EXPECT_EQ(f.c, 63);
}

TEST(OpMapping, OneCoreGemmHasSystolicCycles) {
  AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  spec.cores_x = spec.cores_y = 1;
  const AccelWorkload w = zoo_workload("resnet18", 1);
  for (std::size_t i = 0; i < w.ops.size(); ++i) {
    if (w.ops[i].category != OpCategory::matrix || w.ops[i].gemms.size() != 1) continue;
    const OpMapping m = map_op(w, w.ops[i], spec);
    if (m.on_vector_units) continue;
    EXPECT_EQ(m.compute_cycles, run_gemm(w.ops[i].gemms[0], spec.array).cycles) << i;
  }
}

TEST(OpMapping, CoresSplitTheOutput) {
  // A 4096 x 4096 x 4096 GEMM on 4 weight-stationary cores: a quarter of the columns each
  // (32 x 8 folds of 4096 + 382 cycles) beats a quarter of the rows (32 x 32 folds of 1024 + 382).
  AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  AccelWorkload w;
  w.tensors = {{4096.0 * 4096 * 2, 4096 * 2, 2, -1, {0}, false, 0}, {4096.0 * 4096 * 2, 4096 * 2, 2, 0, {}, true, 0}};
  AccelOp op;
  op.category = OpCategory::matrix;
  op.gemms = {{1, 4096, 4096, 4096}};
  op.macs = op.gemms[0].macs();
  op.weight_bytes = 4096.0 * 4096 * 2;
  op.inputs = {0};
  op.repeated = {false};
  op.output = 1;
  w.ops = {op};
  const OpMapping m = map_op(w, w.ops[0], spec);
  EXPECT_EQ(m.active_cores, 4);
  EXPECT_EQ(m.compute_cycles, 32 * 8 * (4096 + 382) - 1);
  EXPECT_LT(m.compute_cycles, run_gemm({1, 1024, 4096, 4096}, spec.array).cycles);
  // Utilisation of the whole chip is the single-array utilisation of a quarter.
  EXPECT_NEAR(static_cast<double>(op.macs) / (4.0 * 128 * 128 * static_cast<double>(m.compute_cycles)),
              run_gemm({1, 4096, 1024, 4096}, spec.array).utilization, 1e-12);
}

TEST(OpMapping, DepthwiseConvolutionsGoToTheVectorUnits) {
  const AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  const AccelWorkload w = zoo_workload("mobilenet_v2", 1);
  int depthwise = 0;
  for (const auto& op : w.ops) {
    if (op.category != OpCategory::matrix || op.gemms.empty() || op.gemms[0].n != 1 || op.gemms[0].batch == 1) continue;
    ++depthwise;
    EXPECT_TRUE(map_op(w, op, spec).on_vector_units);
  }
  EXPECT_GT(depthwise, 10);
}

// Hand-computed DRAM bytes per tensor byte: rows of 6, 48, 250 and 2,000 bytes against 32-byte
// access units and 256-byte lines (sim/accel/tensor_layout.h).
TEST(TensorLayout, PackedRowsTouchWholeAccessUnitsAndPaddedRowsWholeLines) {
  // 6-byte rows start at 0, 6, ..., 90 mod 32 (16 starts); those at 28 and 30 cross into a second
  // unit: 18 units x 32 B / (16 x 6 B) = 6.
  EXPECT_DOUBLE_EQ(layout_dram_factor(6, 256, 32, PaddingMode::none), 6.0);
  EXPECT_DOUBLE_EQ(layout_dram_factor(6, 256, 32, PaddingMode::array), 256.0 / 6);
  EXPECT_DOUBLE_EQ(layout_dram_factor(6, 256, 32, PaddingMode::automatic), 6.0);
  // 48-byte rows start at 0 or 16: two units each.
  EXPECT_DOUBLE_EQ(layout_dram_factor(48, 256, 32, PaddingMode::none), 64.0 / 48);
  // 250-byte rows: 12 of the 16 starts need 9 units, 4 need 8: 140 units / 16 rows = 280 B;
  // padding to one 256-byte line moves less.
  EXPECT_DOUBLE_EQ(layout_dram_factor(250, 256, 32, PaddingMode::none), 280.0 / 250);
  EXPECT_DOUBLE_EQ(layout_dram_factor(250, 256, 32, PaddingMode::automatic), 256.0 / 250);
  // 2,000-byte rows start at 0 or 16: 63 units either way.
  EXPECT_DOUBLE_EQ(layout_dram_factor(2000, 256, 32, PaddingMode::none), 2016.0 / 2000);
  // Rows of whole lines are one contiguous run in every mode.
  for (const PaddingMode mode : {PaddingMode::none, PaddingMode::array, PaddingMode::automatic})
    EXPECT_DOUBLE_EQ(layout_dram_factor(512, 256, 32, mode), 1.0);
}

// Feature maps (NCHW in the graph) have their channels as rows; other tensors their last dimension.
TEST(TensorLayout, RowsAreChannelsForFeatureMapsAndTheLastDimensionOtherwise) {
  const AccelWorkload cnn = zoo_workload("resnet18", 2);
  // conv1 makes 2 x 64 x 112 x 112 in bf16; its input image has 3 channels.
  EXPECT_EQ(cnn.tensors[cnn.ops[0].output].row_bytes, 64 * 2);
  EXPECT_EQ(cnn.tensors[cnn.ops[0].inputs[0]].row_bytes, 3 * 2);
  for (const AccelTensor& t : cnn.tensors) EXPECT_GE(t.row_bytes, 3 * 2);
  const AccelWorkload bert = zoo_workload("bert_base", 1);
  // Attention scores (1 x 12 x 128 x 128) keep the sequence as rows.
  bool scores = false;
  for (const AccelOp& op : bert.ops)
    if (op.category == OpCategory::matrix && !op.gemms.empty() && op.gemms[0].batch == 12 && op.gemms[0].n == 128) {
      EXPECT_EQ(bert.tensors[op.output].row_bytes, 128 * 2);
      scores = true;
    }
  EXPECT_TRUE(scores);
}

// Padding only changes DRAM traffic, and `auto` moves no more bytes than either fixed choice. With
// 32-byte units a packed row wastes less than one unit, so on EfficientNet's narrow layers padding
// to 256-byte lines (what the tpu_v3_like baseline does) moves far more; with coarse 512-byte
// units padding pays for most tensors.
TEST(TensorLayout, AutoPaddingMovesNoMoreThanEitherChoice) {
  AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  const AccelWorkload w = zoo_workload("efficientnet_b0", 8);
  for (const std::int64_t unit : {32, 512}) {
    spec.dram_access_bytes = unit;
    const auto run = [&](PaddingMode mode) { return evaluate_accelerator(w, spec, FusionMode::none, mode); };
    const AccelEvaluation none = run(PaddingMode::none), array = run(PaddingMode::array),
                          automatic = run(PaddingMode::automatic);
    EXPECT_LE(automatic.dram_bytes, std::min(none.dram_bytes, array.dram_bytes) * (1 + 1e-12)) << unit;
    if (unit == 32) {
      EXPECT_LT(automatic.dram_bytes, array.dram_bytes * 0.9);
    } else {
      EXPECT_LT(automatic.dram_bytes, none.dram_bytes * 0.9);
    }
    for (std::size_t i = 0; i < w.ops.size(); ++i)
      EXPECT_EQ(none.mappings[i].compute_cycles, array.mappings[i].compute_cycles);
  }
}

// Every other plan is a partition the dynamic program also considers: exact is never slower.
TEST(Fusion, ExactIsNeverWorseThanTheHeuristics) {
  for (const std::string spec_name : {"tpu_v3_like", "datacenter_large"}) {
    const AcceleratorSpec spec = catalog_spec(spec_name);
    for (const std::string model : {"resnet50", "efficientnet_b0", "bert_base", "mobilenet_v3_large"}) {
      const AccelWorkload w = zoo_workload(model, 8);
      const double none = evaluate_accelerator(w, spec, FusionMode::none, PaddingMode::automatic).latency_s;
      const double epilogue = evaluate_accelerator(w, spec, FusionMode::epilogue, PaddingMode::automatic).latency_s;
      const double greedy = evaluate_accelerator(w, spec, FusionMode::greedy, PaddingMode::automatic).latency_s;
      const double exact = evaluate_accelerator(w, spec, FusionMode::exact, PaddingMode::automatic).latency_s;
      EXPECT_LE(exact, none * (1 + 1e-12)) << spec_name << " " << model;
      EXPECT_LE(exact, greedy * (1 + 1e-12)) << spec_name << " " << model;
      EXPECT_LE(exact, epilogue * (1 + 1e-12)) << spec_name << " " << model;
      EXPECT_LT(exact, none) << spec_name << " " << model;
    }
  }
}

// On a short prefix of a real graph, the dynamic program finds the same optimum as trying every one
// of the 2^(n-1) partitions, with a buffer small enough that some groups do not fit.
TEST(Fusion, ExactMatchesBruteForce) {
  AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  spec.l1_bytes = 96 << 10;  // 4 x 96 KiB on chip: half of it for fused tensors
  AccelWorkload w = zoo_workload("resnet18", 1);
  w.ops.resize(13);
  const std::vector<OpMapping> maps = map_ops(w, spec);
  const std::vector<double> layout = tensor_dram_factors(w, spec, PaddingMode::automatic);
  const int n = static_cast<int>(w.ops.size());
  double best = INFINITY;
  int infeasible = 0;
  for (unsigned cuts = 0; cuts < (1u << (n - 1)); ++cuts) {
    std::vector<int> starts{0};
    for (int i = 1; i < n; ++i)
      if (cuts & (1u << (i - 1))) starts.push_back(i);
    const FusionResult r = evaluate_partition(w, maps, layout, spec, starts);
    if (!r.feasible) {
      ++infeasible;
      continue;
    }
    best = std::min(best, r.latency_s);
  }
  EXPECT_GT(infeasible, 0);
  const FusionResult exact = plan_fusion(w, maps, layout, spec, FusionMode::exact);
  EXPECT_TRUE(exact.feasible);
  EXPECT_NEAR(exact.latency_s, best, best * 1e-12);
}

// Ops that work row by row let a fused group run in slices of rows (tokens), not only of samples.
// GPT-2's MLP at batch 1 (fc1, the eight kernels of gelu_new, fc2) keeps its 1,024 x 3,072
// activations on chip in token slices; attention's score product, whose every row needs all the
// keys, cannot be sliced so, and neither can anything at batch 1 when only samples may be.
TEST(Fusion, RowByRowGroupsSliceAlongTokens) {
  ModelParams params;
  params.batch = 1;
  params.dtype = DType::bf16;
  const Graph graph = ModelRegistry::instance().find("gpt2")->factory(params);
  AccelWorkload w = make_accel_workload(graph, 1);
  const auto index_of = [&](const std::string& name) {
    for (std::size_t i = 0; i < w.ops.size(); ++i)
      if (graph.op(w.ops[i].op).name == name) return static_cast<int>(i);
    ADD_FAILURE() << "no op " << name;
    return 0;
  };
  const int fc1 = index_of("layer0.mlp.fc1"), fc2 = index_of("layer0.mlp.fc2");
  const int scores = index_of("layer0.attn.scores");
  EXPECT_EQ(w.ops[fc1].row_slices, 1024);
  EXPECT_EQ(w.ops[index_of("layer0.mlp.act.tanh")].row_slices, 1024);
  EXPECT_EQ(w.ops[index_of("layer0.mlp.act.gate")].row_slices, 1024);  // two activations of one size
  EXPECT_EQ(w.ops[index_of("layer0.ln2")].row_slices, 1024);
  EXPECT_EQ(w.ops[index_of("layer0.attn.softmax")].row_slices, 12 * 1024);
  EXPECT_EQ(w.ops[scores].row_slices, 0);                                  // a product of two activations
  EXPECT_EQ(w.ops[index_of("layer0.attn.q.heads")].row_slices, 0);         // data movement
  EXPECT_EQ(w.ops[index_of("layer0.attn.masked")].row_slices, 12 * 1024);  // the causal mask is a constant

  AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  spec.l1_bytes = 2 << 20;  // 4 x 2 MiB on chip, half for fused tensors: less than one 6 MiB MLP activation
  const std::vector<OpMapping> maps = map_ops(w, spec);
  const std::vector<double> layout = tensor_dram_factors(w, spec, PaddingMode::automatic);
  const auto alone_but = [&](int first, int last) {  // every op alone except [first, last]
    std::vector<int> starts;
    for (int i = 0; i < static_cast<int>(w.ops.size()); ++i)
      if (i <= first || i > last) starts.push_back(i);
    return evaluate_partition(w, maps, layout, spec, starts);
  };
  const FusionResult alone = alone_but(0, 0);
  const FusionResult mlp = alone_but(fc1, fc2);
  EXPECT_TRUE(mlp.feasible);
  // Its nine intermediate activations (1,024 x 3,072 bf16: 6 MiB each) are neither written nor read
  // back; fc1 and fc2 read their 768 x 3,072 bf16 weights once per token slice, where alone their
  // own tiling already streams them several times: the bound allows each four passes more.
  EXPECT_LT(mlp.dram_bytes, alone.dram_bytes - 9 * 2 * (6 << 20) + 4 * 2 * (768 * 3072 * 2));
  EXPECT_LT(mlp.latency_s, alone.latency_s);
  EXPECT_FALSE(alone_but(scores, scores + 1).feasible);
  for (AccelOp& op : w.ops) op.row_slices = 0;  // only samples may be sliced
  EXPECT_FALSE(alone_but(fc1, fc2).feasible);
}

// The ILP drops the contiguity of groups and lets a tensor be both written and read on chip, so at
// batch 1 on these CNNs (where the chain plan has no samples to slice, and its row-by-row groups
// need no slices) it is no slower than the exact chain plan, up to its upper bound on the
// first-tile term (within 1 %).
TEST(Fusion, IlpIsAtLeastAsGoodAsTheChainPlan) {
  const AcceleratorSpec spec = catalog_spec("tpu_v3_like");
  for (const std::string model : {"resnet18", "mobilenet_v2", "efficientnet_b0"}) {
    const AccelWorkload w = zoo_workload(model, 1);
    const std::vector<OpMapping> maps = map_ops(w, spec);
    const std::vector<double> layout = tensor_dram_factors(w, spec, PaddingMode::automatic);
    const double none = plan_fusion(w, maps, layout, spec, FusionMode::none).latency_s;
    const double exact = plan_fusion(w, maps, layout, spec, FusionMode::exact).latency_s;
    const IlpFusionResult ilp = plan_fusion_ilp(w, maps, layout, spec);
    EXPECT_TRUE(ilp.proven_optimal) << model;
    EXPECT_LT(ilp.plan.latency_s, none) << model;
    EXPECT_LE(ilp.plan.latency_s, exact * 1.01) << model << " " << ilp.plan.latency_s << " " << exact;
  }
  // A buffer too small for any tensor: the ILP keeps nothing on chip.
  AcceleratorSpec tiny = spec;
  tiny.l1_bytes = 1;
  const AccelWorkload w = zoo_workload("resnet18", 1);
  const std::vector<OpMapping> maps = map_ops(w, tiny);
  const std::vector<double> layout = tensor_dram_factors(w, tiny, PaddingMode::automatic);
  EXPECT_NEAR(plan_fusion_ilp(w, maps, layout, tiny).plan.dram_bytes,
              plan_fusion(w, maps, layout, tiny, FusionMode::none).dram_bytes, 1);
}

TEST(AcceleratorRun, EngineTimelineMatchesTheFusionPlan) {
  ConfigNode config = load_config_text(R"(name: t
workload:
  models:
    - {name: resnet18, batch: 4, dtype: bf16}
    - {name: mobilenet_v2, batch: 2, dtype: bf16}
device: {accelerator: tpu_v3_like, fusion: exact}
output: ~
)",
                                       "t.yaml");
  const Experiment single = read_experiment(config, "t.yaml");
  const RunResult a = run_experiment(single);
  EXPECT_EQ(a.device_kind, "accelerator");
  const AcceleratorSpec& spec = static_cast<const AcceleratorDevice&>(*single.device).spec();
  double expected = 0;
  for (const auto& model : single.models)
    expected += evaluate_accelerator(make_accel_workload(*model.graph, model.params.batch), spec, FusionMode::exact,
                                     PaddingMode::automatic)
                    .latency_s;
  EXPECT_NEAR(a.latency_ms(), expected * 1e3, 1e-6);
  EXPECT_EQ(a.models[1].start_ps, a.models[0].end_ps);  // one after the other

  apply_overrides(config, {"schedule={policy: stream_per_model}"});
  const RunResult b = run_experiment(read_experiment(config, "t.yaml"));
  // Sharing the cores and the DMA path: no slower than one after the other, no faster than the
  // longer model alone; the models start together.
  EXPECT_LE(b.latency_ms(), a.latency_ms() + 1e-6);
  EXPECT_GE(b.latency_ms(), std::max(a.models[0].latency_ms(), a.models[1].latency_ms()) - 1e-6);
  EXPECT_LT(b.latency_ms(), a.latency_ms() * 0.999);  // a memory-bound op hides under a compute-bound one
  EXPECT_EQ(b.models[1].start_ps, 0);
  EXPECT_GT(b.metrics.at("energy_j"), 0);
}

// Hand-computed: A needs 10 s of cores and 2 s of DMA, B 1 s and 10 s. One after the other: 10 + 10.
// On two queues under proportional_dram: A fills the cores (share 1), B a tenth, so each runs at
// 1 / 1.1; their DMA demand is then (0.2 + 1.0) / 1.1 of the path, scaled to fit: both at 1 / 1.2
// and both end at 12 s. Two compute-bound ops of 1 s and 3 s split the cores: 2 s and 4 s.
TEST(AccelExecutor, SharesCoresAndDmaBetweenQueues) {
  const auto run = [](bool two_queues, AccelTask a, AccelTask b) {
    Engine engine;
    AccelExecutor device(engine, two_queues ? 2 : 1, make_sharing_rule("proportional_dram"), 1.0);
    std::vector<std::pair<TimePs, TimePs>> spans(2);
    a.done = [&spans](TimePs s, TimePs e) { spans[0] = {s, e}; };
    b.done = [&spans](TimePs s, TimePs e) { spans[1] = {s, e}; };
    device.enqueue(0, a);
    device.enqueue(two_queues ? 1 : 0, b);
    engine.schedule_at(0, [&device] { device.start(); });
    engine.run();
    return spans;
  };
  const AccelTask a{10, 2, 0, {}}, b{1, 10, 0, {}};
  const auto serial = run(false, a, b), shared = run(true, a, b);
  EXPECT_EQ(serial[0], (std::pair<TimePs, TimePs>{0, 10'000'000'000'000}));
  EXPECT_EQ(serial[1], (std::pair<TimePs, TimePs>{10'000'000'000'000, 20'000'000'000'000}));
  EXPECT_EQ(shared[0].first, 0);
  EXPECT_EQ(shared[1].first, 0);
  EXPECT_NEAR(static_cast<double>(shared[0].second), 12e12, 2);
  EXPECT_NEAR(static_cast<double>(shared[1].second), 12e12, 2);
  const auto compute = run(true, {1, 0, 0, {}}, {3, 0, 0, {}});
  EXPECT_NEAR(static_cast<double>(compute[0].second), 2e12, 2);
  EXPECT_NEAR(static_cast<double>(compute[1].second), 4e12, 2);
}

// The one-pass run's board power: leakage plus each op's event energy over its time, so the
// series integrates to the energy the run reports, and it moves with the ops.
TEST(AcceleratorRun, PowerSeriesIntegratesToTheEnergy) {
  ConfigNode config = load_config_text(R"(name: t
workload:
  models: [{name: resnet50, batch: 4, dtype: bf16}]
device: {accelerator: tpu_v3_like}
output: ~
)",
                                       "t.yaml");
  const RunResult r = run_experiment(read_experiment(config, "t.yaml"));
  ASSERT_GT(r.power.size(), 2u);
  double joules = 0, lowest = r.power.front().power_w, highest = lowest;
  for (std::size_t i = 0; i < r.power.size(); ++i) {
    const TimePs end = i + 1 < r.power.size() ? r.power[i + 1].time_ps : r.makespan_ps;
    joules += r.power[i].power_w * static_cast<double>(end - r.power[i].time_ps) * 1e-12;
    lowest = std::min(lowest, r.power[i].power_w);
    highest = std::max(highest, r.power[i].power_w);
    EXPECT_GE(r.power[i].power_w, r.metrics.at("static_w") - 1e-9);
    EXPECT_DOUBLE_EQ(r.power[i].clock_mhz, r.power.front().clock_mhz);
  }
  EXPECT_NEAR(joules, r.metrics.at("energy_j"), 1e-9 * joules);
  EXPECT_GT(highest, 1.2 * lowest);  // compute-heavy ops draw more than memory-bound ones
  EXPECT_GT(r.power.front().clock_mhz, 0);
}

TEST(AcceleratorRun, TpuV3LikeAsXlaCompilesIsTheBaseline) {
  ConfigNode config = load_config_text(R"(name: t
workload:
  models: [{name: efficientnet_b0, batch: 8, dtype: bf16}]
device: {accelerator: tpu_v3_like, fusion: epilogue, padding: array}
output: ~
)",
                                       "t.yaml");
  const RunResult r = run_experiment(read_experiment(config, "t.yaml"));
  EXPECT_NEAR(r.metrics.at("perf_per_tdp_vs_tpu_v3"), 1.0, 1e-6);
  EXPECT_NEAR(r.metrics.at("energy_per_inference_vs_tpu_v3"), 1.0, 1e-6);
  EXPECT_NEAR(r.metrics.at("perf_per_mm2_vs_tpu_v3"), 1.0, 1e-6);
  EXPECT_NEAR(r.metrics.at("perf_per_tdp"), r.metrics.at("inferences_per_s") / 450.0, 1e-9);
}

TEST(AcceleratorRun, DeviceKeysOverrideTheNamedSpec) {
  ConfigNode config = load_config_text(R"(name: t
workload:
  models: [{name: resnet18, batch: 1, dtype: bf16}]
device: {accelerator: tpu_v3_like, array: {rows: 64}, cores: {x: 4}}
output: ~
)",
                                       "t.yaml");
  const Experiment e = read_experiment(config, "t.yaml");
  const auto& device = static_cast<const AcceleratorDevice&>(*e.device);
  EXPECT_EQ(device.spec().array.rows, 64);
  EXPECT_EQ(device.spec().array.cols, 128);  // kept from the spec
  EXPECT_EQ(device.spec().cores(), 8);
  EXPECT_EQ(device.fusion(), FusionMode::exact);
}

}  // namespace
}  // namespace dse
