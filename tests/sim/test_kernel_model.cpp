#include <gtest/gtest.h>

#include <cmath>

#include "models/ops/op_library.h"
#include "sim/gpu/gpu_lowering.h"
#include "sim/gpu/kernel_timer.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {
namespace {

GpuSpec spec(const std::string& name) { return test::catalog_gpu(name); }

Kernel sgemm(int threads, int registers) {
  Kernel k;
  k.threads_per_block = threads;
  k.registers_per_thread = registers;
  return k;
}

}  // namespace

TEST(Occupancy, HandComputedForSgemmTiles) {
  const GpuSpec a100 = spec("a100_pcie_40gb"), t4 = spec("t4");
  // 128x128 tile: 256 threads x 128 registers = 8 warps x 4,096 registers = 32,768 per block:
  // 65,536 / 32,768 = 2 blocks (threads would allow 2,048 / 256 = 8).
  EXPECT_EQ(occupancy(sgemm(256, 128), a100.sm).blocks_per_sm, 2);
  EXPECT_EQ(occupancy(sgemm(256, 128), a100.sm).limited_by, "registers");
  // 64x64 tile: 64 threads x 128 registers = 8,192 per block -> 8 blocks by registers.
  EXPECT_EQ(occupancy(sgemm(64, 128), a100.sm).blocks_per_sm, 8);
  // Turing allows 1,024 threads and 16 blocks per SM: 32-thread blocks are limited by blocks.
  EXPECT_EQ(occupancy(sgemm(32, 16), t4.sm).blocks_per_sm, 16);
  EXPECT_EQ(occupancy(sgemm(32, 16), t4.sm).limited_by, "blocks");
  EXPECT_EQ(occupancy(sgemm(512, 32), t4.sm).blocks_per_sm, 2);
  EXPECT_EQ(occupancy(sgemm(512, 32), t4.sm).limited_by, "threads");
  Kernel shared = sgemm(128, 32);
  shared.shared_bytes_per_block = 48 * 1024;  // 164 KiB / 48 KiB = 3 on A100
  EXPECT_EQ(occupancy(shared, a100.sm).blocks_per_sm, 3);
}

TEST(Waves, CountAndTail) {
  // 1,000 blocks, 2 per SM on 108 SMs: 216 slots -> 5 waves, the last with 1,000 - 4 x 216 = 136.
  EXPECT_EQ(waves(1000, 2, 108).count, 5);
  EXPECT_EQ(waves(1000, 2, 108).tail_blocks, 136);
  EXPECT_EQ(waves(216, 2, 108).count, 1);
  EXPECT_EQ(waves(216, 2, 108).tail_blocks, 216);
  EXPECT_EQ(waves(1, 2, 108).count, 1);
}

// A large SGEMM-like kernel: compute-bound everywhere.
static Kernel big_sgemm() {
  Kernel k = sgemm(256, 128);
  k.name = "sgemm_128x128";
  k.blocks = 64 * 64;
  k.shared_bytes_per_block = 16384;
  k.matrix = true;
  k.flops = 2.0 * 8192 * 8192 * 8192;
  k.dram_bytes = 3.0 * 8192 * 8192 * 4;
  return k;
}

// A streaming kernel: DRAM-bound everywhere.
static Kernel streaming() {
  Kernel k;
  k.name = "elementwise";
  k.blocks = 1 << 16;
  k.threads_per_block = 128;
  k.flops = 1 << 26;
  k.dram_bytes = 8.0 * (1 << 26) * 4;
  return k;
}

TEST(KernelTimer, LockedClockScalesComputeNotMemory) {
  const KernelTimer timer(spec("a100_pcie_40gb"), KernelCalibration{});
  // Halving the clock doubles a compute-bound kernel's time (less the fixed launch overhead) ...
  const Kernel gemm = big_sgemm();
  const double overhead = KernelCalibration{}.launch_overhead_us * 1e-6;
  EXPECT_NEAR((timer.time_at(gemm, 600).seconds - overhead) / (timer.time_at(gemm, 1200).seconds - overhead), 2.0,
              1e-6);
  // ... and leaves a DRAM-bound one within a few percent.
  const Kernel stream = streaming();
  EXPECT_NEAR(timer.time_at(stream, 600).seconds / timer.time_at(stream, 1200).seconds, 1.0, 0.03);
  EXPECT_EQ(timer.time_at(stream, 600).bound, "memory");
}

// A DRAM-bound kernel moves its bytes at the spec's measured stream bandwidth (the datasheet
// figure times dram_stream_share) times the calibration's stream_efficiency: the V100 PCIe's
// elementwise rows reach 0.909 of its 900 GB/s, the H200's copy 0.885 of 4,800.
TEST(KernelTimer, DramBoundKernelsStreamAtTheSpecsMeasuredShare) {
  const Kernel stream = streaming();
  const double overhead = KernelCalibration{}.launch_overhead_us * 1e-6;
  for (const std::string name : {"v100_pcie", "h200", "t4"}) {
    const GpuSpec gpu = spec(name);
    ASSERT_TRUE(gpu.dram_stream_share.has_value()) << name;
    const KernelTimer timer(gpu, KernelCalibration{});
    const double expected = stream.dram_bytes / (gpu.dram_bandwidth_gbps * 1e9 * *gpu.dram_stream_share);
    EXPECT_NEAR(timer.time(stream).seconds - overhead, expected, 0.01 * expected) << name;
    KernelCalibration slower;
    slower.stream_efficiency = 0.5;
    EXPECT_NEAR(KernelTimer(gpu, slower).time(stream).seconds - overhead, 2 * expected, 0.02 * expected) << name;
  }
}

TEST(KernelTimer, PowerLimitHoldsTheClockAndThePower) {
  const GpuSpec t4 = spec("t4");
  const KernelTimer timer(t4, KernelCalibration{});
  const Kernel gemm = big_sgemm();
  // At the boost clock an SGEMM draws more than the T4's 70 W: the firmware holds it lower, where
  // the board draws the limit.
  EXPECT_GT(timer.board_w(gemm, timer.time_at(gemm, t4.boost_clock_mhz)), t4.tdp_w);
  const KernelTime held = timer.time(gemm);
  EXPECT_LT(held.clock_mhz, t4.boost_clock_mhz);
  EXPECT_GT(held.clock_mhz, t4.base_clock_mhz);
  EXPECT_NEAR(timer.board_w(gemm, held), t4.tdp_w, 0.01);
  // A lower limit, a lower clock and a longer time; the power settles within it.
  const KernelTime lower = timer.time(gemm, {t4.boost_clock_mhz, 60});
  EXPECT_LT(lower.clock_mhz, held.clock_mhz);
  EXPECT_GT(lower.seconds, held.seconds);
  EXPECT_NEAR(timer.board_w(gemm, lower), 60, 0.01);
  // A locked clock below the power-limited one is kept.
  EXPECT_DOUBLE_EQ(timer.time(gemm, {600, t4.tdp_w}).clock_mhz, 600);
  // A streaming kernel draws less: it keeps a higher clock (on the 70 W T4 still a little below
  // boost; on the 250 W A100 PCIe at boost).
  EXPECT_GT(timer.time(streaming()).clock_mhz, held.clock_mhz + 300);
  const GpuSpec a100 = spec("a100_pcie_40gb");
  EXPECT_DOUBLE_EQ(KernelTimer(a100, KernelCalibration{}).time(streaming()).clock_mhz, a100.boost_clock_mhz);
}

TEST(KernelTimer, AT4sFp16GemmRunsAtThePublishedPowerCappedRate) {
  // A T4 running cuBLAS FP16 GEMMs of 4,096^3 back to back reaches "about 24T" of its 65 TFLOPS,
  // which NVIDIA put down to its 70 W power cap (forums.developer.nvidia.com/t/264462;
  // tests/data/public/t4_cublas_fp16.csv). Nothing was fitted to it.
  const KernelTimer timer(spec("t4"), KernelCalibration{});
  const auto kernels = lower_gemm({1, 4096, 4096, 4096}, "fp16", true, 2, 0, timer);
  ASSERT_EQ(kernels.size(), 1u);
  const KernelTime t = timer.time(kernels[0]);
  const double tflops = 2.0 * 4096 * 4096 * 4096 / t.seconds / 1e12;
  EXPECT_NEAR(tflops, 24.0, 0.1 * 24.0);
  EXPECT_LT(t.clock_mhz, 0.5 * timer.spec().boost_clock_mhz);  // held far below the 1,590 MHz boost
  EXPECT_NEAR(timer.board_w(kernels[0], t), timer.spec().tdp_w, 0.5);
}

TEST(KernelTimer, AnA40sFp16GemmLoopsRunAtThePublishedPowerCappedRate) {
  // PyTorch FP16 matmuls of N = 4,096 and 8,192 on an A40 (torch-performance-test-data issue #185;
  // tests/data/public/a40_torch_fp16.csv), 113.5 and 108.5 TFLOPS of the 149.7 dense peak: its 300 W
  // limit holds the tensor cores well below the 1,740 MHz boost. The A40 is in no fit and no figure
  // of its spec came from a timing.
  const KernelTimer timer(spec("a40"), KernelCalibration{});
  for (const auto& [n, measured_tflops] : {std::pair{4096L, 113.51}, std::pair{8192L, 108.47}}) {
    const auto kernels = lower_gemm({1, n, n, n}, "fp16", true, 2, 0, timer);
    ASSERT_EQ(kernels.size(), 1u);
    const KernelTime t = timer.time(kernels[0]);
    EXPECT_NEAR(2.0 * n * n * n / t.seconds / 1e12, measured_tflops, 0.1 * measured_tflops) << n;
    EXPECT_LT(t.clock_mhz, 0.8 * timer.spec().boost_clock_mhz) << n;
    EXPECT_NEAR(timer.board_w(kernels[0], t), timer.spec().tdp_w, 0.5) << n;
  }
}

TEST(KernelTimer, AnA100PciesFp16GemmRunsAtCutlasssPublishedRate) {
  // CUTLASS's profiler on an A100-PCIE-40GB: its 256 x 128 FP16 tensor-core GEMM of M = 3,456,
  // N = 4,096, K = 8,192 at "~158T" (NVIDIA/cutlass issue #956; tests/data/public/
  // a100_pcie_40gb_cutlass_fp16.csv), about half the 312 TFLOPS peak: the 250 W limit holds the
  // densest math near the 765 MHz base clock, the power model's anchor. Nothing was fitted to it.
  const KernelTimer timer(spec("a100_pcie_40gb"), KernelCalibration{});
  const auto kernels = lower_gemm({1, 3456, 4096, 8192}, "fp16", true, 2, 0, timer);
  ASSERT_EQ(kernels.size(), 1u);
  const KernelTime t = timer.time(kernels[0]);
  EXPECT_NEAR(2.0 * 3456 * 4096 * 8192 / t.seconds / 1e12, 158.0, 0.1 * 158.0);
  EXPECT_LT(t.clock_mhz, 0.6 * timer.spec().boost_clock_mhz);  // 1,410 MHz boost
  EXPECT_NEAR(timer.board_w(kernels[0], t), timer.spec().tdp_w, 0.5);
}

TEST(KernelTimer, TheDensestMathHoldsTheBaseClockAtTheTdp) {
  // NVIDIA's definition of the base clock, the power model's anchor: activity 1 (the densest FP16
  // math at full rate on every SM, no DRAM traffic) at the base clock draws the TDP.
  for (const char* name : {"a100_pcie_40gb", "t4", "h100_sxm", "p100_pcie", "p4", "l4"}) {
    const GpuSpec gpu = spec(name);
    const GpuPowerModel power(gpu, {6, 0.3});
    const double v = power.voltage_v(gpu.base_clock_mhz) / gpu_voltage_curve().max_v;
    EXPECT_NEAR(power.idle_w() + power.busy_static_w(gpu.base_clock_mhz) +
                    power.full_activity_w() * v * v * gpu.base_clock_mhz / gpu.boost_clock_mhz,
                gpu.tdp_w, 1e-9)
        << name;
  }
}

TEST(KernelTimer, PowerRisesWithClockAndWork) {
  const GpuSpec a100 = spec("a100_pcie_40gb");
  const GpuPowerModel power(a100, {6, 0.3});
  // Voltage is flat to the knee, then rises to V_max at boost.
  EXPECT_DOUBLE_EQ(power.voltage_v(300), gpu_voltage_curve().min_v);
  EXPECT_DOUBLE_EQ(power.voltage_v(a100.boost_clock_mhz), gpu_voltage_curve().max_v);
  KernelLoad load{1e-3, 0.5 * 2048 * 108 * 1e9 * 1e-3, "fp16", true, 0, 1};  // half the tensor rate at 1 GHz
  EXPECT_LT(power.board_w(load, 800), power.board_w(load, 1000));
  KernelLoad more = load;
  more.flops *= 2;
  EXPECT_LT(power.board_w(load, 1000), power.board_w(more, 1000));
  // DRAM traffic costs its energy per byte (HBM2, 3.97 pJ/bit): 1 GB in 1 ms is 31.8 W.
  KernelLoad traffic = load;
  traffic.dram_bytes = 1e9;
  EXPECT_NEAR(power.kernel_dynamic_w(traffic, 1000) - power.kernel_dynamic_w(load, 1000), 3.97e-12 * 8 * 1e12, 1e-9);
}

TEST(KernelTimer, MoreWorkTakesLongerAndWavesQuantise) {
  KernelCalibration calibration;  // at one clock, 1 GHz, with enough warps to keep every SM busy
  calibration.saturating_warps_per_scheduler = 1;
  const KernelTimer timer(spec("a100_pcie_40gb"), calibration);
  Kernel k = sgemm(256, 128);
  k.matrix = true;
  k.flops = 1e9;
  k.dram_bytes = 1e6;
  k.blocks = 216;  // exactly one wave of 2 x 108
  const double one_wave = timer.time_at(k, 1000).seconds;
  k.blocks = 217;  // one block more: a second (tail) wave
  k.flops = 1e9 * 217 / 216;
  // A full wave runs 2 blocks per SM; the tail's one block takes half as long: overhead + 1.5 waves.
  const double overhead = KernelCalibration{}.launch_overhead_us * 1e-6;
  EXPECT_NEAR(timer.time_at(k, 1000).seconds, overhead + 1.5 * (one_wave - overhead), 1e-12);
  EXPECT_EQ(timer.time_at(k, 1000).waves, 2);
}

TEST(KernelTimer, WarpsFewerThanSchedulersLeaveLanesIdle) {
  KernelCalibration calibration;
  calibration.saturating_warps_per_scheduler = 1;
  calibration.gemm_block_overhead_cycles = 0;
  // One GEMM block per SM, the same work per block, no DRAM traffic: only the warps differ.
  const auto busy_seconds = [&](const std::string& gpu, int threads) {
    const KernelTimer timer(spec(gpu), calibration);
    Kernel k = sgemm(threads, 32);
    k.matrix = true;
    k.blocks = timer.spec().sm_count;
    k.flops = 1e6 * static_cast<double>(k.blocks);
    return timer.time(k).seconds - calibration.launch_overhead_us * 1e-6;
  };
  // Volta has 4 schedulers per SM: a 2-warp block keeps 2 of them busy, half the rate of 4 warps.
  EXPECT_NEAR(busy_seconds("v100_pcie", 64) / busy_seconds("v100_pcie", 128), 2.0, 1e-9);
  EXPECT_NEAR(busy_seconds("v100_pcie", 128) / busy_seconds("v100_pcie", 256), 1.0, 1e-9);
  // GP100 (P100) has 2: a 2-warp block already keeps both busy.
  EXPECT_NEAR(busy_seconds("p100_pcie", 64) / busy_seconds("p100_pcie", 128), 1.0, 1e-9);
}

TEST(Lowering, GemmPicksSplitKForFewTilesAndLongK) {
  const KernelTimer timer(spec("a100_pcie_40gb"), KernelCalibration{});
  // 128 x 128 output (one or a few tiles) with K = 65,536: splitting K fills the 108 SMs.
  const auto skinny = lower_gemm({1, 128, 128, 65536}, "fp32", false, 4, 0, timer);
  ASSERT_EQ(skinny.size(), 1u);  // the slices sum their partial products in the same launch
  EXPECT_NE(skinny[0].name.find("splitk"), std::string::npos) << skinny[0].name;
  // Each extra slice writes and reads back one fp32 128 x 128 partial tile beyond A, B and C.
  const double operands = 4.0 * (128 * 65536 + 65536 * 128 + 128 * 128);
  const auto split = std::stoi(skinny[0].name.substr(skinny[0].name.find("splitk") + 6));
  EXPECT_DOUBLE_EQ(skinny[0].dram_bytes, operands + 8.0 * (split - 1) * 128 * 128);
  // A large square GEMM has tiles enough: no split, one kernel.
  const auto square = lower_gemm({1, 8192, 8192, 1024}, "fp32", false, 4, 0, timer);
  ASSERT_EQ(square.size(), 1u);
  EXPECT_EQ(square[0].name.find("splitk"), std::string::npos) << square[0].name;
}

TEST(Lowering, BatchedSgemmRunsTheFamilysKernelUnsplit) {
  // The NeuSight A100 row bmm 32 x (64 x 512) x (512 x 512) ran ampere_sgemm_128x128_nn on
  // 128 blocks = 32 x (64 / 128 -> 1) x (512 / 128): half of each tile idle, K not split.
  const KernelTimer a100(spec("a100_pcie_40gb"), KernelCalibration{});
  const auto ampere = lower_gemm({32, 64, 512, 512}, "fp32", false, 4, 0, a100, true);
  ASSERT_EQ(ampere.size(), 1u);
  EXPECT_EQ(ampere[0].name, "sgemm_128x128");
  EXPECT_EQ(ampere[0].blocks, 128);
  // The P100's maxwell_sgemm_128x64_nn: 128 columns x 64 rows of C, 256 x (128 / 64) x (256 / 128) blocks.
  const KernelTimer p100(spec("p100_pcie"), KernelCalibration{});
  const auto pascal = lower_gemm({256, 128, 256, 512}, "fp32", false, 4, 0, p100, true);
  EXPECT_EQ(pascal[0].name, "sgemm_64x128");
  EXPECT_EQ(pascal[0].blocks, 1024);
  // Its 8 x 8 outputs per thread take 64 FFMAs per k step, plus 6 single-issue instructions per 8
  // steps (maxas's count): the issue slots of 64.75 FFMAs, as extra work.
  EXPECT_DOUBLE_EQ(pascal[0].flops, 2.0 * 256 * 128 * 256 * 512 * 64.75 / 64);
  // On Volta the tile is the fastest of the family's four, and a batch too small to fill the GPU is
  // still not split (all 8,467 NeuSight bmm rows launch batch x output tiles blocks).
  const KernelTimer v100(spec("v100_pcie"), KernelCalibration{});
  const auto volta = lower_gemm({2, 128, 128, 65536}, "fp32", false, 4, 0, v100, true);
  EXPECT_EQ(volta[0].name.find("splitk"), std::string::npos) << volta[0].name;
  // Never 128 x 128 or a sliced tile: a large batch that 128 x 128 would suit, and a small output
  // that the 32 x 32 sliced tile would fit best, get one of the four.
  for (const GemmView gemm : {GemmView{64, 1024, 1024, 1024}, GemmView{64, 30, 30, 512}}) {
    const std::string name = lower_gemm(gemm, "fp32", false, 4, 0, v100, true)[0].name;
    EXPECT_TRUE(name == "sgemm_64x128" || name == "sgemm_64x64" || name == "sgemm_128x32" || name == "sgemm_32x128")
        << name;
  }
  // The same GEMM unbatched is split (the rule above).
  const auto single = lower_gemm({1, 128, 128, 65536}, "fp32", false, 4, 0, v100);
  EXPECT_NE(single[0].name.find("splitk"), std::string::npos) << single[0].name;
  // FP16 batched GEMMs on tensor cores keep dse's own choice of tile (a narrow one for 32 x 32
  // outputs, where cuBLAS's FP32 batched tile would leave 15 of 16 outputs idle).
  EXPECT_NE(lower_gemm({512, 32, 32, 64}, "fp16", true, 2, 0, a100, true)[0].name, "hgemm_128x128");
  // A grouped convolution's GEMMs (batch = groups) are cuDNN's, not a strided-batched call: a
  // depthwise 3 x 3 over 960 channels keeps a narrow tile instead of 128 x 128 with 127 columns idle.
  Graph g("dw");
  const auto x = g.add_input("x", {8, 960, 14, 14}, DType::fp32);
  ops::conv2d(g, "dw", x, 960, Window{.kernel_h = 3, .kernel_w = 3, .pad_h = 1, .pad_w = 1}, 960);
  const auto depthwise = lower_op(g, g.ops().back(), a100);
  ASSERT_EQ(depthwise.size(), 1u);
  EXPECT_NE(depthwise[0].name, "sgemm_128x128");
}

TEST(Lowering, VectorKernelsFollowPyTorchLaunchShapes) {
  Graph g("v");
  const auto x = g.add_input("x", {32768, 1600}, DType::fp32);
  ops::softmax(g, "s", x, -1);
  ops::layernorm(g, "ln", x);
  const KernelTimer timer(spec("v100_pcie"), KernelCalibration{});
  const auto softmax = lower_op(g, g.ops()[0], timer);
  ASSERT_EQ(softmax.size(), 1u);
  EXPECT_EQ(softmax[0].blocks, 32768);                                  // one block per row
  EXPECT_EQ(softmax[0].threads_per_block, 256);                         // as in the NeuSight softmax rows for H = 1600
  EXPECT_EQ(lower_op(g, g.ops()[1], timer)[0].threads_per_block, 128);  // 32 x 4 as measured
  // Rows of up to 1,024 floats go to softmax_warp_forward: four rows per 128-thread block, each
  // row read once from registers (as measured: H = 768, B = 8,192 ran 2,048 blocks of 32 x 4).
  Graph w("w");
  ops::softmax(w, "s", w.add_input("x", {8192, 768}, DType::fp32), -1);
  const auto warp = lower_op(w, w.ops()[0], timer);
  EXPECT_EQ(warp[0].blocks, 2048);
  EXPECT_EQ(warp[0].threads_per_block, 128);
  EXPECT_DOUBLE_EQ(warp[0].dram_bytes, static_cast<double>(w.ops()[0].cost.bytes_read + w.ops()[0].cost.bytes_written));
}

TEST(Lowering, RowKernelsRereadFromL1ThenL2) {
  // Layer norm over 32,768 rows of 1,600 floats (6,400 B): PyTorch reads each row twice. 128-thread
  // blocks with 32 registers: 16 per SM (2,048 threads; the L4's 1,536: 12), one row each.
  Graph g("ln");
  ops::layernorm(g, "ln", g.add_input("x", {32768, 1600}, DType::fp32));
  const Op& op = g.ops()[0];
  const double once = static_cast<double>(op.cost.bytes_read + op.cost.bytes_written);
  const double second_pass = 6400.0 * 32768;
  // A100: 16 x 6,400 = 102,400 B per SM fit its 184 KiB of L1, and the L4's 12 rows its 120 KiB:
  // the second pass comes from L1, at no cost.
  for (const char* name : {"a100_pcie_40gb", "l4"}) {
    const Kernel k = lower_op(g, op, KernelTimer(spec(name), KernelCalibration{}))[0];
    EXPECT_DOUBLE_EQ(k.dram_bytes, once) << name;
    EXPECT_DOUBLE_EQ(k.l2_hit_bytes, 0) << name;
  }
  // V100: the 32 KiB of L1 Volta's largest carve-out leaves hold 32,768 / 102,400 of the SM's rows;
  // of the rest, 80 x 16 x 6,400 = 8,192,000 B of resident rows against a 6 MiB L2 hit in proportion.
  const Kernel v100 = lower_op(g, op, KernelTimer(spec("v100_pcie"), KernelCalibration{}))[0];
  const double v100_missing_l1 = (1 - 32768.0 / 102400) * second_pass;
  const double v100_l2_hit = 6291456.0 / 8192000;
  EXPECT_DOUBLE_EQ(v100.l2_hit_bytes, v100_missing_l1 * v100_l2_hit);
  EXPECT_DOUBLE_EQ(v100.dram_bytes, once + v100_missing_l1 * (1 - v100_l2_hit));
  // P100: 24 KiB of L1 (compute capability 6.0) hold 24,576 / 102,400 of the SM's rows; of the
  // rest, 56 x 16 x 6,400 = 5,734,400 B of resident rows against a 4 MiB L2 hit in proportion.
  const Kernel p100 = lower_op(g, op, KernelTimer(spec("p100_pcie"), KernelCalibration{}))[0];
  const double missing_l1 = (1 - 24576.0 / 102400) * second_pass;
  const double l2_hit = 4194304.0 / 5734400;
  EXPECT_DOUBLE_EQ(p100.l2_hit_bytes, missing_l1 * l2_hit);
  EXPECT_DOUBLE_EQ(p100.dram_bytes, once + missing_l1 * (1 - l2_hit));
}

// Hopper's SIMT GEMM blocks store their C tile after their main loop with nothing hiding it
// (GpuSpec::simt_gemm_exposed_store_share): a compute-bound SGEMM takes its store's time at the
// stream rate on top. Elsewhere, and on tensor cores, the store overlaps other blocks' loops.
TEST(KernelTimer, HoppersSimtGemmBlocksStoreAfterTheirLoop) {
  const GpuSpec h200 = spec("h200");
  ASSERT_EQ(h200.simt_gemm_exposed_store_share, 1.0);
  GpuSpec overlapped = h200;
  overlapped.simt_gemm_exposed_store_share.reset();
  Kernel gemm = sgemm(256, 128);
  gemm.matrix = true;
  gemm.blocks = 132 * 2 * 10;                                            // ten full waves of two blocks per SM
  gemm.flops = 2.0 * 128 * 128 * 64 * static_cast<double>(gemm.blocks);  // 128 x 128 tiles reducing over 64
  gemm.store_bytes = 4.0 * 128 * 128 * static_cast<double>(gemm.blocks);
  gemm.dram_bytes = gemm.store_bytes + 2 * 4.0 * 128 * 64 * static_cast<double>(gemm.blocks);
  const double stream = h200.dram_bandwidth_gbps * 1e9 * *h200.dram_stream_share;
  const KernelTimer hopper(h200, KernelCalibration{}), overlapping(overlapped, KernelCalibration{});
  ASSERT_EQ(overlapping.time_at(gemm, 1980).bound, "compute");
  EXPECT_NEAR(hopper.time_at(gemm, 1980).seconds - overlapping.time_at(gemm, 1980).seconds, gemm.store_bytes / stream,
              1e-3 * gemm.store_bytes / stream);
  Kernel tensor = gemm;
  tensor.compute_type = "fp16";
  EXPECT_DOUBLE_EQ(hopper.time_at(tensor, 1980).seconds, overlapping.time_at(tensor, 1980).seconds);
  const GpuSpec a100 = spec("a100_pcie_40gb");
  EXPECT_FALSE(a100.simt_gemm_exposed_store_share.has_value());
  Kernel unstored = gemm;
  unstored.store_bytes = 0;
  const KernelTimer ampere(a100, KernelCalibration{});
  EXPECT_DOUBLE_EQ(ampere.time_at(gemm, 1410).seconds, ampere.time_at(unstored, 1410).seconds);
}

TEST(KernelTimer, L2HitsTakeTimeAtTheirPerSmRate) {
  // One wave of memory-only blocks: the L2's bytes arrive at l2_reread_bytes_per_clock per SM per
  // clock (the vector kernels' clock), beside the DRAM's.
  const GpuSpec p100 = spec("p100_pcie");
  KernelCalibration calibration;
  const KernelTimer timer(p100, calibration);
  Kernel k;
  k.blocks = 56;
  k.threads_per_block = 1024;
  k.dram_bytes = 0;
  const double base = timer.time(k).seconds;
  k.l2_hit_bytes = 1e9;
  const double rate = calibration.l2_reread_bytes_per_clock * 56 * timer.time(k).clock_mhz * 1e6;
  EXPECT_NEAR(timer.time(k).seconds - base, 1e9 / rate, 1e-12);
  EXPECT_EQ(timer.time(k).bound, "memory");
}

}  // namespace dse
