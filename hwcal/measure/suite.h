// The kernels a calibration session measures, from the session's `kernels` block (docs/calibration.md
// lists its keys; configs/calibration/session.yaml sets them). Every candidate is one op the kernel
// timing model can predict (KernelMeasurement rows timed back to back), so what a session measures
// is what the fit and the validation use.
#pragma once

#include <vector>

#include "hwcal/measure/measurement.h"
#include "sim/config/config_node.h"

namespace dse {

// ConfigError at the block's key that is wrong (an unknown model, dtype or op).
std::vector<Candidate> read_kernel_suite(const ConfigNode& kernels, const std::string& device);

}  // namespace dse
