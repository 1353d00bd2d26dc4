#include "sim/gpu/kernel_calibration_io.h"

#include <fmt/format.h>

namespace dse {
namespace {

// Every parameter with its valid range, in one table for reading and writing.
struct Field {
  const char* name;
  double KernelCalibration::*member;
  double low, high;
};
// stream_efficiency may exceed 1: a GPU's kernels can reach more than the share its spec cites (a
// measurement with another kernel, or another board of the model).
constexpr Field kFields[] = {
    {"gemm_efficiency", &KernelCalibration::gemm_efficiency, 0.01, 1.0},
    {"gemm_block_overhead_cycles", &KernelCalibration::gemm_block_overhead_cycles, 0, 1e7},
    {"vector_efficiency", &KernelCalibration::vector_efficiency, 0.01, 1.0},
    {"stream_efficiency", &KernelCalibration::stream_efficiency, 0.01, 1.5},
    {"l2_reread_bytes_per_clock", &KernelCalibration::l2_reread_bytes_per_clock, 0.01, 1024},
    {"launch_overhead_us", &KernelCalibration::launch_overhead_us, 0, 1e4},
    {"timing_floor_us", &KernelCalibration::timing_floor_us, 0, 1e5},
    {"saturating_warps_per_scheduler", &KernelCalibration::saturating_warps_per_scheduler, 1, 64},
    {"simt_tensor_energy_ratio", &KernelCalibration::simt_tensor_energy_ratio, 0.1, 100},
    {"active_sm_power_share", &KernelCalibration::active_sm_power_share, 0, 1},
    {"shared_fp32_lane_efficiency", &KernelCalibration::shared_fp32_lane_efficiency, 0, 1},
    {"tlb_miss_cycles_per_row", &KernelCalibration::tlb_miss_cycles_per_row, 0, 1e6},
};

}  // namespace

KernelCalibration read_kernel_calibration(const ConfigNode& file) {
  file.expect_map("a kernel calibration: calibration, fitted_on, source, parameters, session");
  // The session a calibration came from (dse calibrate: hwcal/calibration_file.h) is hwcal's to
  // read; the model needs only the parameters.
  ConfigNode root = file;
  root.erase("session");
  root.param<std::string>("calibration").one_of({"kernel_timer"}, "a calibration kind").required();
  if (const ConfigNode* fitted = root.find("fitted_on"))
    for (const auto& item : fitted->items()) item.as<std::string>();
  root.param<std::string>("source").with_default("");
  const ConfigNode& parameters = root.at("parameters", "the fitted parameters");
  parameters.expect_map("parameter: value");
  // A share of the datasheet bandwidth, where stream_efficiency is a share of the measured stream
  // bandwidth: reading one as the other would be silently 12-30 % off.
  if (const ConfigNode* old = parameters.peek("memory_efficiency"))
    old->fail(
        "memory_efficiency (a share of the datasheet DRAM bandwidth) was replaced by stream_efficiency, a share of "
        "the bandwidth a streaming kernel reaches on the GPU (its spec's dram_stream_share); refit the file "
        "(dse calibrate, or dse validate kernels --fit --save-calibration), or divide the value by that share");
  KernelCalibration calibration;
  for (const auto& field : kFields) {
    if (const auto value = parameters.param<double>(field.name).in_range(field.low, field.high).optional())
      calibration.*field.member = *value;
  }
  root.check_unknown_keys();
  return calibration;
}

std::vector<std::string> kernel_calibration_fitted_on(const ConfigNode& root) {
  std::vector<std::string> gpus;
  if (const ConfigNode* fitted = root.is_map() ? root.peek("fitted_on") : nullptr)
    for (const auto& item : fitted->items()) gpus.push_back(item.as<std::string>());
  return gpus;
}

std::vector<std::pair<std::string, double>> kernel_calibration_parameters(const KernelCalibration& calibration) {
  std::vector<std::pair<std::string, double>> parameters;
  for (const auto& field : kFields) parameters.emplace_back(field.name, calibration.*field.member);
  return parameters;
}

std::string kernel_calibration_yaml(const KernelCalibration& calibration, const std::vector<std::string>& fitted_on,
                                    const std::string& source) {
  std::string yaml = "calibration: kernel_timer\nfitted_on: [";
  for (std::size_t i = 0; i < fitted_on.size(); ++i) yaml += (i ? ", " : "") + fitted_on[i];
  yaml += "]\nsource: \"" + source + "\"\nparameters:\n";
  for (const auto& [name, value] : kernel_calibration_parameters(calibration))
    yaml += fmt::format("  {}: {:.6g}\n", name, value);
  return yaml;
}

}  // namespace dse
