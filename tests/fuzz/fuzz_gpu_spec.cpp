// A GPU spec file (configs/hardware/gpu/*.yaml) and the power model built from it.
#include "sim/config/config_loader.h"
#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/kernel_timer.h"
#include "tests/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return dse::fuzz::expect_result_or_user_error([&] {
    const dse::GpuSpec spec = dse::read_gpu_spec(dse::load_config_text(dse::fuzz::text(data, size), "fuzz_gpu.yaml"));
    (void)dse::KernelTimer(spec, dse::KernelCalibration{}).sustained_clock_mhz();
  });
}
