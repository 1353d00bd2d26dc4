// The kernel-level GPU timing model: each op lowers to the kernels a library would launch
// (gpu_lowering.h); each kernel takes launch overhead plus its waves (kernel_timer.h). Until a
// calibration is loaded it uses KernelCalibration's defaults (docs/validation.md: what they were
// fitted to and how well they predict GPUs left out of the fit).
#include <cmath>

#include "sim/gpu/gpu_lowering.h"
#include "sim/gpu/gpu_timing_model.h"

namespace dse {
namespace {

class KernelTimingModel final : public GpuTimingModel {
 public:
  explicit KernelTimingModel(const GpuSpec& spec) : timer_(spec, KernelCalibration{}) {}

  OpTiming time(const Graph& graph, const Op& op) const override {
    const auto kernels = lower_op(graph, op, timer_);
    if (kernels.empty()) return {1, "none"};
    double seconds = 0, longest = -1;
    std::string bound = "none";
    for (const auto& kernel : kernels) {
      const KernelTime t = timer_.time(kernel);
      seconds += t.seconds;
      if (t.seconds > longest) {
        longest = t.seconds;
        bound = t.bound;
      }
    }
    return {std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(seconds * 1e12))), bound};
  }

  std::string calibration() const override { return "uncalibrated (datasheet, default efficiencies)"; }

 private:
  KernelTimer timer_;
};

}  // namespace

DSE_REGISTER(GpuTimingModel, KernelTimingModel, "kernel",
             "ops lowered to cuBLAS/PyTorch-like kernels; launch overhead + waves at the sustained clock")

}  // namespace dse
