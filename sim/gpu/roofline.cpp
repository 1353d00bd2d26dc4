// The per-op roofline (Williams, Waterman, Patterson, CACM 2009): an op takes as long as the slower
// of its arithmetic at the datasheet peak and its DRAM traffic at the datasheet bandwidth.
//   duration = max(flops / peak_flops, (bytes_read + bytes_written) / dram_bandwidth)
// Matrix ops (conv, matmul) in a type the tensor cores support run at the tensor-core peak; all
// other ops, and fp32 matrix ops (PyTorch's default, TF32 off), at the CUDA-core peak of their type
// (fp32 if the table has no entry for it). No launch overhead, caching or efficiency loss: this is
// the lower bound every real kernel sits above, until a calibrated model replaces it. The peaks are
// the datasheet's, at the boost clock; at a lower SM clock the arithmetic slows in proportion and
// DRAM does not. Power comes from the GPU power model with the default calibration's coefficients.
#include <algorithm>
#include <cmath>

#include "sim/gpu/gpu_timing_model.h"

namespace dse {
namespace {

class Roofline final : public GpuTimingModel {
 public:
  explicit Roofline(const GpuSpec& spec)
      : spec_(spec),
        power_(spec, {KernelCalibration{}.simt_tensor_energy_ratio, KernelCalibration{}.active_sm_power_share}) {}

  // Reads no keys of its own; a calibration would be silently ignored, so it is refused.
  static std::shared_ptr<const GpuTimingModel> make(const GpuSpec& spec, const Context& context) {
    if (const ConfigNode* calibration = context.device.peek("calibration"))
      context.device.find("calibration")
          ->fail(
              "expected no calibration with timing_model roofline, which has no fitted parameters to take from "
              "it (the kernel model does: timing_model: kernel), found " +
              calibration->describe());
    return std::make_shared<const Roofline>(spec);
  }

  std::vector<KernelWork> kernels(const Graph&, const Op& op, double clock_mhz) const override {
    const std::int64_t bytes = op.cost.bytes_read + op.cost.bytes_written;
    if (op.cost.flops == 0 && bytes == 0) return {};
    const double peak_tflops = peak_for(op) * clock_mhz / spec_.boost_clock_mhz;
    const double compute_s = static_cast<double>(op.cost.flops) / (peak_tflops * 1e12);
    const double memory_s = static_cast<double>(bytes) / (spec_.dram_bandwidth_gbps * 1e9);
    const double seconds = std::max(compute_s, memory_s);
    const TimePs picoseconds = checked_ps(seconds * 1e12, "an op's duration");
    KernelLoad load;
    load.seconds = seconds;
    load.flops = static_cast<double>(op.cost.flops);
    load.compute_type = std::string(dtype_name(op.dtype));
    load.tensor_cores = on_tensor_cores(op);
    load.dram_bytes = static_cast<double>(bytes);
    // The roofline assumes an op fills the GPU.
    return {{std::string(op_kind_name(op.kind)), std::max<std::int64_t>(picoseconds, 1), 1.0,
             static_cast<double>(bytes), compute_s >= memory_s ? "compute" : "memory",
             power_.kernel_dynamic_w(load, clock_mhz), clock_mhz}};
  }

  const GpuPowerModel& power() const override { return power_; }

  double dram_bandwidth_bytes_per_s() const override { return spec_.dram_bandwidth_gbps * 1e9; }

  std::string calibration() const override { return "uncalibrated (datasheet)"; }

  double host_launch_s() const override { return 0; }  // a bound: no launch cost anywhere

 private:
  bool on_tensor_cores(const Op& op) const {
    return op_category(op) == OpCategory::matrix && op.dtype != DType::fp32 &&
           spec_.tensor_core_peak(dtype_name(op.dtype)).has_value();
  }

  double peak_for(const Op& op) const {
    const std::string_view type = dtype_name(op.dtype);
    if (on_tensor_cores(op)) return *spec_.tensor_core_peak(type);
    if (const auto peak = spec_.cuda_core_peak(type)) return *peak;
    return *spec_.cuda_core_peak("fp32");
  }

  GpuSpec spec_;
  GpuPowerModel power_;
};

}  // namespace

DSE_REGISTER_FACTORY(GpuTimingModel, "roofline",
                     "max(flops / datasheet peak, bytes / DRAM bandwidth) per op; no overheads (a lower bound)",
                     Roofline::make)

}  // namespace dse
