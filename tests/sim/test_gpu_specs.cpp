// Every shipped GPU spec loads, and its per-SM-per-clock throughputs reproduce its datasheet peaks:
// sm_count x boost clock x FLOPs per SM per clock. FP32 within 3 %; tensor cores within 10 %,
// because NVIDIA quotes Hopper's tensor peaks at a lower clock than the boost clock (H100 SXM:
// 989.5 TFLOPS = 132 SMs x 4096 x 1.83 GHz, boost 1.98 GHz).
#include <gtest/gtest.h>

#include "sim/config/config_loader.h"
#include "sim/config/hardware_catalog.h"
#include "sim/gpu/gpu_spec.h"

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
  for (const char* device : {"Tesla P4", "Tesla P100-PCIE-16GB", "Tesla T4", "Tesla V100-PCIE-32GB", "NVIDIA A100-PCIE-40GB",
                             "NVIDIA L4", "NVIDIA A100 80GB PCIe", "NVIDIA A100-SXM4-40GB", "NVIDIA H100 80GB HBM3"})
    EXPECT_NE(std::find(device_names.begin(), device_names.end(), device), device_names.end()) << device;
}

}  // namespace dse
