#include <gtest/gtest.h>

#include <string>

#include "sim/config/config_loader.h"
#include "sim/gpu/dram_activation_model.h"
#include "sim/gpu/gpu_lowering.h"
#include "sim/gpu/kernel_timer.h"
#include "tests/cli/cli_runner.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {
namespace {

GpuSpec without_activation_limit(GpuSpec spec) {
  spec.dram_activation.reset();
  return spec;
}

// torch.bmm(A, B) of `batch` A matrices (rows x reduction) and B matrices (reduction x columns),
// as dse lowers it on `timer`'s GPU (B read row by row).
Kernel bmm_gemm(const KernelTimer& timer, std::int64_t batch, std::int64_t rows, std::int64_t columns,
                std::int64_t reduction) {
  const auto kernels = lower_gemm({batch, rows, columns, reduction}, "fp32", false, 4, 0, timer, true, nullptr, true,
                                  GemmLayout::b_row_major);
  EXPECT_EQ(kernels.size(), 1u);
  return kernels.at(0);
}

}  // namespace

// The GDDR5 GPUs carry their devices' timing (Ramulator's transcription of the GDDR5 datasheet):
// a P4 channel opens a row at most every tRRD = 6.0 ns (tFAW / 4 = 5.8 ns), eight channels; the
// P40's twelve clamshell pairs every tFAW / 4 = 5.85 ns (tRRD 5.71 ns). Nothing is set for the
// others: their GEMMs never wait on opening rows.
TEST(DramActivationModel, TheGddr5SpecsCarryTheirDevicesTiming) {
  const GpuSpec p4 = test::catalog_gpu("p4");
  ASSERT_TRUE(p4.dram_activation);
  EXPECT_EQ(p4.dram_activation->channels, 8);
  EXPECT_NEAR(p4.dram_activation->activations_per_s(), 8 / 6.0e-9, 1e3);
  EXPECT_DOUBLE_EQ(p4.dram_activation->row_span_bytes, 2048);
  const GpuSpec p40 = test::catalog_gpu("p40");
  ASSERT_TRUE(p40.dram_activation);
  EXPECT_NEAR(p40.dram_activation->activations_per_s(), 12 / (23.4e-9 / 4), 1e3);
  for (const char* gpu : {"p100_pcie", "v100_pcie", "t4", "a100_pcie_40gb", "l4", "h100_sxm"})
    EXPECT_FALSE(test::catalog_gpu(gpu).dram_activation) << gpu;
}

// A batched GEMM with a narrow output (80 columns: one column tile) and rows of 4 KB (a reduction
// of 1,024 floats) reads each A row's 128 sectors one k step apart, one activation each: A streams
// at 8 channels x 32 B / 6 ns = 42.7 GB/s, what NeuSight's P4 rows of this shape measure (43.0 to
// 44.0 GB/s, docs/validation.md), and the kernel takes longer than its arithmetic.
TEST(DramActivationModel, NarrowBatchedGemmsStreamAtTheActivationRate) {
  const KernelTimer p4(test::catalog_gpu("p4"), KernelCalibration{});
  const KernelTimer unlimited(without_activation_limit(test::catalog_gpu("p4")), KernelCalibration{});
  const Kernel narrow = bmm_gemm(p4, 256, 1024, 80, 1024);
  const double a_bytes = 256.0 * 1024 * 1024 * 4;
  const double a_activations = 256.0 * 1024 * 128;
  EXPECT_GE(dram_activations(narrow, *p4.spec().dram_activation), a_activations);
  EXPECT_LT(dram_activations(narrow, *p4.spec().dram_activation), 1.01 * a_activations);
  const double seconds = p4.time(narrow).seconds;
  EXPECT_GE(seconds, p4.dram_activation_s(narrow));
  EXPECT_NEAR(a_bytes / seconds / 1e9, 42.7, 1.5);
  EXPECT_LT(unlimited.time(narrow).seconds, 0.85 * seconds);
}

// Rows shorter than the row span lie several to a span, and the rows a k step reads there share an
// activation: 256-byte rows (a reduction of 64 floats) cost 8 sectors x 256 / 2,048 = 1 per row.
// B read row by row and C stream, a span per activation.
TEST(DramActivationModel, ShortRowsShareAnActivation) {
  const GpuSpec p4 = test::catalog_gpu("p4");
  const DramActivationWindow& dram = *p4.dram_activation;
  Kernel kernel;
  kernel.gemm_footprint = {4, 1000, 64, 64, 128, 64, 1, 4, false, true};  // 4 x (1000 x 64) x (64 x 64)
  const double a = 4 * 1000 * 64 * 4.0, b = 4 * 64 * 64 * 4.0, c = 4 * 1000 * 64 * 4.0;
  kernel.dram_bytes = a + b + c;
  EXPECT_DOUBLE_EQ(dram_activations(kernel, dram), 4 * 1000 + (b + c) / 2048);
  // Read transposed, B's 64 rows of 256 bytes are strided too.
  kernel.gemm_footprint.b_transposed = true;
  EXPECT_DOUBLE_EQ(dram_activations(kernel, dram), 4 * 1000 + 4 * 64 + c / 2048);
  // At most 16 rows run cuBLAS's small-N kernel, which reads its rows in wide loads: streams.
  kernel.gemm_footprint.m = 16;
  kernel.dram_bytes = 4 * (16 * 64 + 64 * 64 + 16 * 64) * 4.0;
  EXPECT_DOUBLE_EQ(dram_activations(kernel, dram), kernel.dram_bytes / 2048);
  // Kernels without a GEMM footprint open no rows the model counts.
  EXPECT_EQ(dram_activations(Kernel{}, dram), 0);
}

// A linear layer whose weights every row tile reuses does far more arithmetic per activation: its
// time is the same with and without the limit, and so is an SGEMM on a GPU without it.
TEST(DramActivationModel, WideGemmsAreNotBound) {
  const KernelTimer p4(test::catalog_gpu("p4"), KernelCalibration{});
  const KernelTimer unlimited(without_activation_limit(test::catalog_gpu("p4")), KernelCalibration{});
  const auto linear =
      lower_gemm({1, 16384, 4096, 8192}, "fp32", false, 4, 0, p4, true, nullptr, true, GemmLayout::b_transposed);
  ASSERT_EQ(linear.size(), 1u);
  EXPECT_GT(p4.dram_activation_s(linear[0]), 0);
  EXPECT_DOUBLE_EQ(p4.time(linear[0]).seconds, unlimited.time(linear[0]).seconds);
  const KernelTimer t4(test::catalog_gpu("t4"), KernelCalibration{});
  EXPECT_EQ(t4.dram_activation_s(bmm_gemm(t4, 256, 1024, 80, 1024)), 0);
}

TEST(DramActivationModel, ASpecsActivationLimitIsCheckedWhereItIsRead) {
  const std::string text = test::read_text(test::source_path("configs/hardware/gpu/p4.yaml"));
  const std::string entry = "dram_activation: {channels: 8, rrd_ns: 6.0, faw_ns: 23.3, row_span_kib: 2}";
  ASSERT_NE(text.find(entry), std::string::npos);
  const auto error_with = [&](const std::string& replacement) {
    return test::spec_error_with(text, "p4.yaml", entry, replacement);
  };
  EXPECT_NE(error_with("dram_activation: {channels: 8, faw_ns: 23.3, row_span_kib: 2}").find("rrd_ns"),
            std::string::npos);
  EXPECT_NE(error_with("dram_activation: {channels: 0, rrd_ns: 6.0, faw_ns: 23.3, row_span_kib: 2}").find("channels"),
            std::string::npos);
  EXPECT_NE(
      error_with("dram_activation: {channels: 8, rrd_ns: 6.0, faw_ns: 23.3, row_span_kib: 2, banks: 16}").find("banks"),
      std::string::npos);
  EXPECT_NE(error_with("dram_activation: 8").find("dram_activation"), std::string::npos);
}

}  // namespace dse
