// The kernel-level GPU timing model: each op lowers to the kernels a library would launch
// (gpu_lowering.h); each kernel takes launch overhead plus its waves (kernel_timer.h). Until a
// calibration is loaded it uses KernelCalibration's defaults (docs/validation.md: what they were
// fitted to and how well they predict GPUs left out of the fit).
#include <algorithm>
#include <cmath>

#include "sim/gpu/gpu_lowering.h"
#include "sim/gpu/gpu_timing_model.h"

namespace dse {
namespace {

class KernelTimingModel final : public GpuTimingModel {
 public:
  KernelTimingModel(const GpuSpec& spec, const std::optional<KernelCalibration>& calibration, const std::string& file)
      : timer_(spec, calibration.value_or(KernelCalibration{})),
        source_(calibration ? "calibrated (" + file + ")" : "default calibration (fitted to NeuSight FP32 kernels)") {}

  std::vector<KernelWork> kernels(const Graph& graph, const Op& op) const override {
    std::vector<KernelWork> out;
    const GpuSpec& spec = timer_.spec();
    for (const auto& kernel : lower_op(graph, op, timer_, &cache_)) {
      const KernelTime t = timer_.time(kernel);
      const double slots = static_cast<double>(t.blocks_per_sm) * spec.sm_count;
      const double share = std::clamp(static_cast<double>(kernel.blocks) / slots, 1e-6, 1.0);
      out.push_back({kernel.name, std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(t.seconds * 1e12))),
                     share, kernel.dram_bytes, t.bound});
    }
    return out;
  }

  double dram_bandwidth_bytes_per_s() const override {
    return timer_.spec().dram_bandwidth_gbps * 1e9 * timer_.calibration().memory_efficiency;
  }

  std::string calibration() const override { return source_; }
  bool uses_calibration() const override { return true; }

 private:
  KernelTimer timer_;
  mutable GemmLoweringCache cache_;
  std::string source_;
};

}  // namespace

DSE_REGISTER(GpuTimingModel, KernelTimingModel, "kernel",
             "ops lowered to cuBLAS/PyTorch-like kernels; launch overhead + waves at the sustained clock")

}  // namespace dse
