// Calibration files for the kernel timing model: what `dse validate kernels --fit --save-calibration`
// writes and `device: {calibration: FILE}` loads.
//
//   calibration: kernel_timer          # which model the parameters belong to
//   fitted_on: [t4, l4, ...]           # GPUs whose measurements were fitted
//   source: "dse validate kernels ... --fit"
//   parameters: {gemm_efficiency: 0.89, ...}   # KernelCalibration's fields; absent ones keep defaults
//   session: {...}                     # dse calibrate's files: the session (hwcal/calibration_file.h)
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/config/config_node.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

// How results describe KernelCalibration's defaults (docs/validation.md: what they were fitted to).
inline constexpr const char* kDefaultKernelCalibrationSource = "default calibration (fitted to NeuSight FP32 kernels)";

KernelCalibration read_kernel_calibration(const ConfigNode& root);
// The file's `fitted_on` GPUs (empty when it names none).
std::vector<std::string> kernel_calibration_fitted_on(const ConfigNode& root);
// Every parameter by its file name, in file order.
std::vector<std::pair<std::string, double>> kernel_calibration_parameters(const KernelCalibration& calibration);
std::string kernel_calibration_yaml(const KernelCalibration& calibration, const std::vector<std::string>& fitted_on,
                                    const std::string& source);

}  // namespace dse
