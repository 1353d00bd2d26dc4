// How long one op takes on a GPU: the pluggable family behind `device.timing_model`.
//
// Contract: time() is a pure function of the op (and the spec the model was built with), safe to
// call from many threads; durations are positive integers of picoseconds.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "models/base/registry.h"
#include "models/graph.h"
#include "sim/gpu/gpu_spec.h"

namespace dse {

struct OpTiming {
  std::int64_t duration_ps = 0;
  std::string bound;  // what limits the op: "compute", "memory" or "none"
};

class GpuTimingModel {
 public:
  static constexpr const char* family_name = "gpu_timing";
  static constexpr const char* family_description = "How a GPU op's duration is computed";
  using Factory = std::function<std::unique_ptr<GpuTimingModel>(const GpuSpec&)>;

  virtual ~GpuTimingModel() = default;
  // `op` belongs to `graph` (lowering needs its tensors).
  virtual OpTiming time(const Graph& graph, const Op& op) const = 0;
  // Where the model's numbers come from, e.g. "uncalibrated (datasheet)".
  virtual std::string calibration() const = 0;
};

using GpuTimingRegistry = Registry<GpuTimingModel>;

}  // namespace dse
