// The GPU power model against what an H200 drew under load (results/device/h200, measured with
// scripts/device/measure_power_and_kernels.sh at the default 700 W limit; docs/power.md).
// The FP16 GEMM's clock is what the Hopper specs' tensor_energy_scale was set from; the SGEMM's
// power (its figures come from a published H100 run), the DRAM stream's and the idle draw are
// checks the model was not fitted to.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "hwcal/gemm_validation.h"
#include "sim/gpu/gpu_power.h"
#include "sim/gpu/kernel_timer.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {
namespace {

// One LLMCompass-format line of a GEMM the H200 held for 20 s (results/device/h200/summary.json:
// the median rate of the steady part, after the first 5 s).
GemmRow held_gemm(double tflops, DType dtype) {
  const long n = 8192;
  // One file per process and type: ctest runs the tests of this file side by side.
  const std::string file =
      ::testing::TempDir() + "/h200_hold_" + std::string(dtype_name(dtype)) + "_" + std::to_string(::getpid()) + ".csv";
  std::ofstream(file) << n << ", " << n << ", " << n << ", " << 2.0 * n * n * n / (tflops * 1e12) * 1e3 << "ms\n";
  GemmRow row = predict_llmcompass_gemms(file, test::catalog_gpu("h200"), dtype).rows.at(0);
  std::remove(file.c_str());
  return row;
}

}  // namespace

TEST(H200Measured, FP16GemmHeldByThe700WLimit) {
  // Measured: 1,410-1,440 MHz (median 1,425) at 692 W, 644 TFLOPS; the TDP anchor alone gave 1,638.
  const GemmRow row = held_gemm(644.175, DType::fp16);
  EXPECT_NEAR(row.clock_mhz, 1425, 0.03 * 1425);
  EXPECT_LE(row.power_w, 700 + 1e-6);
  EXPECT_NEAR(row.error(), 0, 0.10);  // the time, at that clock
}

TEST(H200Measured, SgemmRunsAtBoostAndDrawsWhatWasMeasured) {
  // Measured: 1,980 MHz (boost) at 624 W, 51.0 TFLOPS.
  const GemmRow row = held_gemm(50.965, DType::fp32);
  EXPECT_DOUBLE_EQ(row.clock_mhz, 1980);
  EXPECT_NEAR(row.power_w, 623.9, 0.05 * 623.9);
  EXPECT_NEAR(row.error(), 0, 0.05);
}

TEST(H200Measured, ADramStreamAndIdle) {
  const GpuSpec h200 = test::catalog_gpu("h200");
  const KernelCalibration defaults;
  const GpuPowerModel power(h200, {defaults.simt_tensor_energy_ratio, defaults.active_sm_power_share});
  // Device-to-device copies at 4,249 GB/s (read + written) on every SM, at 1,980 MHz: 425.6 W.
  const KernelLoad copy{1.0, 0, "fp32", false, 4249e9, 1.0};
  EXPECT_NEAR(power.board_w(copy, 1980), 425.6, 0.05 * 425.6);
  // Idle with no process on the GPU: 80.4 W at 345 MHz (the spec's 83.4 W is another H200's).
  EXPECT_NEAR(power.idle_w(), 80.4, 0.05 * 80.4);
  // Idle with a process on it, between loads (power_step.csv's off phases): 1,920-1,980 MHz at
  // 124-125 W, which dse gives as the idle draw plus the leakage at that clock's voltage.
  EXPECT_NEAR(power.held_idle_w(1980), 124.5, 0.10 * 124.5);
}

TEST(H200Measured, ClockTableIsTheDriversList) {
  // nvidia-smi -q -d SUPPORTED_CLOCKS on that H200 lists each graphics clock once per memory clock.
  std::ifstream smi(std::string(DSE_SOURCE_DIR) + "/results/device/h200/smi_supported_clocks.txt");
  ASSERT_TRUE(smi.good());
  const std::regex graphics(R"(^\s*Graphics\s*:\s*(\d+) MHz)");
  std::set<double> listed;
  std::smatch match;
  for (std::string line; std::getline(smi, line);)
    if (std::regex_search(line, match, graphics)) listed.insert(std::stod(match[1].str()));
  ASSERT_FALSE(listed.empty());
  std::vector<double> table = test::catalog_gpu("h200").clock_table_mhz();
  std::sort(table.begin(), table.end());
  EXPECT_EQ(table, std::vector<double>(listed.begin(), listed.end()));
}

}  // namespace dse
