// Measured kernel latencies (NeuSight's CSV format) and the kernel model's prediction of each row.
#include "hwcal/kernel_measurements.h"
#include "hwcal/row_prediction.h"
#include "sim/config/hardware_catalog.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<dse::GpuSpec> specs = dse::read_catalog_gpu_specs(dse::HardwareCatalog::for_listing());
  return dse::fuzz::expect_result_or_user_error([&] {
    const auto rows = dse::read_kernel_measurements(dse::fuzz::as_file(data, size, ".csv"));
    std::map<std::string, std::size_t> unmatched;
    for (const auto& [name, device] : dse::match_devices(rows, specs, unmatched)) {
      const dse::KernelTimer timer(device.spec, dse::KernelCalibration{});
      for (const auto& row : device.rows) (void)dse::predict_latency_s(row, timer);
    }
  });
}
