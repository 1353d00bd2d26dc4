// The kernel-level GPU timing model: each op lowers to the kernels a library would launch
// (gpu_lowering.h); each kernel takes launch overhead plus its waves (kernel_timer.h). Until a
// calibration is loaded it uses KernelCalibration's defaults (docs/validation.md: what they were
// fitted to and how well they predict GPUs left out of the fit).
#include <algorithm>
#include <cmath>

#include "sim/config/config_loader.h"
#include "sim/gpu/gpu_lowering.h"
#include "sim/gpu/gpu_timing_model.h"
#include "sim/gpu/kernel_calibration_io.h"

namespace dse {
namespace {

class KernelTimingModel final : public GpuTimingModel {
 public:
  KernelTimingModel(const GpuSpec& spec, const std::optional<KernelCalibration>& calibration, const std::string& file)
      : timer_(spec, calibration.value_or(KernelCalibration{})),
        source_(calibration ? "calibrated (" + file + ")" : kDefaultKernelCalibrationSource) {}

  static std::vector<KeySpec> declared_keys() {
    return {{"calibration", "string", "none", "",
             "a calibration file (dse validate kernels --fit --save-calibration), relative to the config",
             "calibration.yaml"}};
  }

  // Reads `calibration` (a file from `dse validate kernels --fit --save-calibration`, relative to
  // the experiment); models on the same spec file and calibration share one instance, and with it
  // their per-op kernel choices.
  static std::shared_ptr<const GpuTimingModel> make(const GpuSpec& spec, const Context& context) {
    std::string file;
    std::optional<KernelCalibration> calibration;
    if (const ConfigNode* node = context.device.find("calibration")) {
      file = resolve_config_path(context.config_file, node->as<std::string>());
      if (!config_file_exists(file)) node->fail("expected an existing calibration file, found no file '" + file + "'");
      const ConfigNode root = load_config_file(file);
      calibration = read_kernel_calibration(root);
      // A fit to one GPU's kernels describes that GPU; a fit to several is meant to carry over.
      const auto fitted_on = kernel_calibration_fitted_on(root);
      if (fitted_on.size() == 1 && fitted_on.front() != spec.name)
        node->fail("expected a calibration fitted on " + spec.name + " or on several GPUs, found one fitted on " +
                   fitted_on.front() + " only (" + file +
                   "); fit one on this GPU's measurements with dse validate kernels --fit --save-calibration");
      context.files.push_back({file, read_config_bytes(file)});
    }
    const auto build = [&] { return std::make_shared<const KernelTimingModel>(spec, calibration, file); };
    if (!context.cache || context.files.empty()) return build();  // a spec assembled in code
    std::string key = file;
    for (const auto& f : context.files) key += "|" + f.content;
    return context.cache->get<GpuTimingModel>("kernel timing model", 64, key, build);
  }

  // The kernels cuBLAS-like heuristics pick (tiles chosen as at the default clock and power limit:
  // cuBLAS does not know the clock), each timed at `clock_mhz`.
  std::vector<KernelWork> kernels(const Graph& graph, const Op& op, double clock_mhz) const override {
    std::vector<KernelWork> out;
    for (const auto& kernel : lower_op(graph, op, timer_, &cache_))
      out.push_back(kernel_work(kernel, timer_, clock_mhz));
    return out;
  }

  const GpuPowerModel& power() const override { return timer_.power(); }

  double dram_bandwidth_bytes_per_s() const override { return timer_.dram_bytes_per_s(); }

  std::string calibration() const override { return source_; }

  // The launch overhead each kernel pays on its stream (KernelCalibration::launch_overhead_us, from
  // CUDA.jl's 3.25 us per kernel launched one by one): launches from one host thread come no faster.
  double host_launch_s() const override { return timer_.calibration().launch_overhead_us * 1e-6; }

 private:
  KernelTimer timer_;
  mutable GemmLoweringCache cache_;
  std::string source_;
};

}  // namespace

KernelWork kernel_work(const Kernel& kernel, const KernelTimer& timer, double clock_mhz) {
  const KernelTime t = timer.time_at(kernel, clock_mhz);
  const double slots = static_cast<double>(t.blocks_per_sm) * timer.spec().sm_count;
  const double share = std::clamp(static_cast<double>(kernel.blocks) / slots, 1e-6, 1.0);
  return {kernel.name, std::max<std::int64_t>(1, checked_ps(t.seconds * 1e12, "a kernel's duration")),
          share,       kernel.dram_bytes,
          t.bound,     timer.power().kernel_dynamic_w(timer.load(kernel, t), clock_mhz),
          clock_mhz};
}

DSE_REGISTER_ENTRY(GpuTimingModel, "kernel",
                   "ops lowered to cuBLAS/PyTorch-like kernels; launch overhead + waves at the sustained clock",
                   KernelTimingModel::make, KernelTimingModel::declared_keys())

}  // namespace dse
