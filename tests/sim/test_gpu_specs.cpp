// Every shipped GPU spec loads, and its per-SM-per-clock throughputs reproduce its datasheet peaks:
// sm_count x boost clock x FLOPs per SM per clock. FP32 within 3 %; tensor cores within 10 %,
// because NVIDIA quotes Hopper's tensor peaks at a lower clock than the boost clock (H100 SXM:
// 989.5 TFLOPS = 132 SMs x 4096 x 1.83 GHz, boost 1.98 GHz).
#include <gtest/gtest.h>

#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_spec.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {

TEST(GpuSpecs, EveryShippedSpecLoadsAndMatchesItsDatasheetPeaks) {
  const HardwareCatalog catalog = HardwareCatalog::for_experiment("");
  const auto names = catalog.names("gpu");
  EXPECT_GE(names.size(), 15u);
  for (const auto& name : names) {
    const GpuSpec spec = read_gpu_spec(load_config_file(*catalog.find("gpu", name)));
    EXPECT_EQ(spec.name, name);
    EXPECT_FALSE(spec.device_names.empty()) << name;
    const double clock_hz = spec.boost_clock_mhz * 1e6;
    for (const auto& [type, peak] : spec.cuda_core_tflops) {
      const double derived = spec.sm_count * clock_hz * spec.cuda_core_flops_per_clock.at(type) / 1e12;
      EXPECT_NEAR(derived, peak, 0.03 * peak) << name << " cuda " << type;
    }
    for (const auto& [type, peak] : spec.tensor_core_tflops) {
      const double derived = spec.sm_count * clock_hz * spec.tensor_core_flops_per_clock.at(type) / 1e12;
      EXPECT_NEAR(derived, peak, 0.10 * peak) << name << " tensor " << type;
    }
  }
}

TEST(GpuSpecs, NeuSightDevicesAllHaveSpecs) {
  const HardwareCatalog catalog = HardwareCatalog::for_experiment("");
  std::vector<std::string> device_names;
  for (const auto& name : catalog.names("gpu")) {
    const GpuSpec spec = read_gpu_spec(load_config_file(*catalog.find("gpu", name)));
    device_names.insert(device_names.end(), spec.device_names.begin(), spec.device_names.end());
  }
  for (const char* device :
       {"Tesla P4", "Tesla P100-PCIE-16GB", "Tesla T4", "Tesla V100-PCIE-32GB", "NVIDIA A100-PCIE-40GB", "NVIDIA L4",
        "NVIDIA A100 80GB PCIe", "NVIDIA A100-SXM4-40GB", "NVIDIA H100 80GB HBM3"})
    EXPECT_NE(std::find(device_names.begin(), device_names.end(), device), device_names.end()) << device;
}

// The T4's driver readings: 87 clocks from 1,590 down to 300 MHz in 15 MHz steps (the
// nvidia-smi list the spec cites), a 60-70 W power-limit range, and the idle draw.
TEST(GpuSpecs, DriverReadingsWhereSourced) {
  const HardwareCatalog catalog = HardwareCatalog::for_experiment("");
  const GpuSpec t4 = read_gpu_spec(load_config_file(*catalog.find("gpu", "t4")));
  ASSERT_TRUE(t4.supported_clocks);
  const std::vector<double> clocks = t4.supported_clocks->list_mhz();
  EXPECT_EQ(clocks.size(), 87u);
  EXPECT_DOUBLE_EQ(clocks.front(), 1590);
  EXPECT_DOUBLE_EQ(clocks[1], 1575);
  EXPECT_DOUBLE_EQ(clocks.back(), 300);
  EXPECT_NE(std::find(clocks.begin(), clocks.end(), t4.base_clock_mhz), clocks.end());
  EXPECT_EQ(t4.power_limit_min_w, 60);
  EXPECT_EQ(t4.power_limit_max_w, 70);
  EXPECT_NEAR(*t4.idle_w, 26.8, 1e-9);
  // A step that does not divide the range still ends at the minimum.
  EXPECT_EQ((SupportedClocks{544, 1328, 12.65}.list_mhz().size()), 63u);
  EXPECT_DOUBLE_EQ((SupportedClocks{544, 1328, 12.65}.list_mhz().back()), 544);
  // Every spec that has them keeps base and boost inside the list and the TDP inside the limits.
  for (const auto& name : catalog.names("gpu")) {
    const GpuSpec spec = read_gpu_spec(load_config_file(*catalog.find("gpu", name)));
    if (spec.supported_clocks) {
      EXPECT_LE(spec.supported_clocks->min_mhz, spec.base_clock_mhz) << name;
    }
    if (spec.power_limit_min_w) {
      EXPECT_LE(*spec.power_limit_min_w, spec.tdp_w) << name;
    }
    if (spec.idle_w) {
      EXPECT_LT(*spec.idle_w, spec.tdp_w) << name;
    }
    // The L1 a row kernel gets: the programming guide's 24 KB (6.0) or 48 KB (6.1) on Pascal; on
    // Volta and later at most the L1 + shared capacity (128 KB on 7.0, 96 on 7.5, 192 on 8.0, 256 on 9.0).
    EXPECT_GE(spec.l1_cache_kib, 24) << name;
    EXPECT_LE(spec.l1_cache_kib, 256) << name;
    // Four warp schedulers per SM on every architecture here but GP100 (compute capability 6.0).
    EXPECT_EQ(spec.sm.warp_schedulers, spec.compute_capability == 6.0 ? 2 : 4) << name;
  }
  EXPECT_EQ(test::catalog_gpu("p100_pcie").l1_cache_kib, 24);
  EXPECT_EQ(test::catalog_gpu("p4").l1_cache_kib, 48);
}

}  // namespace dse
