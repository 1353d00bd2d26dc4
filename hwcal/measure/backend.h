// Where a calibration session's candidates are measured: a registered family (`dse list
// calibration_backend`). `cuda` runs them on the machine's GPU in worker processes
// (hwcal/backends/cuda_backend.cpp); `simulated` runs them on dse's own GPU model with noise,
// interference and faults (hwcal/backends/simulated_backend.cpp), so the session is tested without
// a GPU.
//
// Contract: measure() runs every candidate of a chunk at once (one worker and stream each) and
// returns one Measurement per candidate, in order; a candidate that fails or passes its timeout is
// reported as such and never stops the chunk. wall_s is what the chunk took from start to end.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hwcal/measure/measurement.h"
#include "models/base/registry.h"
#include "sim/config/config_node.h"
#include "sim/gpu/gpu_spec.h"
#include "sim/metrics/power_sample.h"

namespace dse {

// The GPU a session ran on, as the calibration file records it.
struct DeviceInfo {
  std::string name;    // "NVIDIA H200" (the driver's), or the simulated spec's
  std::string driver;  // driver version, "" if unknown
  std::string cuda;    // CUDA runtime version, "" if unknown
};

struct ChunkResult {
  std::vector<Measurement> measurements;
  double wall_s = 0;
};

class MeasurementBackend {
 public:
  static constexpr const char* family_name = "calibration_backend";
  static constexpr const char* family_description = "Where dse calibrate measures kernels";
  // `block` is the session's backend block ({name, and the backend's own keys}); `spec` the GPU the
  // calibration is for.
  using Factory = std::function<std::unique_ptr<MeasurementBackend>(const ConfigNode& block, const GpuSpec& spec)>;

  virtual ~MeasurementBackend() = default;
  virtual DeviceInfo device() const = 0;
  virtual ChunkResult measure(const std::vector<const Candidate*>& chunk, const MeasureSettings& settings) = 0;
  // The board's sensor readings taken since the last call (power and SM clock while measuring;
  // times since the session started).
  virtual std::vector<PowerSample> samples() = 0;
  // The board's power with nothing running, W (nullopt where it cannot be observed).
  virtual std::optional<double> idle_power_w() = 0;
  // Before measuring: a ConfigError at a key of the backend block that names a candidate the
  // session does not have. Default: the block names none.
  virtual void check_candidates(const std::vector<Candidate>& /*candidates*/) const {}
};

using MeasurementBackendRegistry = Registry<MeasurementBackend>;

}  // namespace dse
