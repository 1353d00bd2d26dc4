// Measured GPU kernel latencies: one op per row with its latency, device and shape. Rows come from
// the NeuSight CSV format (tests/data/neusight: FP32 ops each timed on their own, with launch
// geometry; GEMMs as B, M, N, K, row ops as B, H, convolutions as their layer) or from a
// calibration session (hwcal/measure/session.h: many launches timed back to back, any dtype,
// convolutions, the launch overhead). This is what `dse validate kernels` predicts and what
// calibration fits against, grouped by the GPU spec that measured them (match_devices).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/tensor.h"
#include "sim/gpu/gpu_spec.h"

namespace dse {

// A convolution row's shape (NCHW input of the row's b images; `out` filters of r x s).
struct ConvShape {
  std::int64_t channels = 0, height = 0, width = 0, out = 0, r = 1, s = 1, stride = 1, pad = 0, groups = 1;
  auto operator<=>(const ConvShape&) const = default;
};

struct KernelMeasurement {
  std::string op;                      // OPName: linear, bmm, ln, softmax, add, addu, relu, ...; conv2d, reduce, launch
  double latency_ms = 0;               // Latency
  std::string device;                  // Device: "NVIDIA L4", "Tesla P4", ...
  std::string kernel;                  // Kernel Name ("" where the file records no launch)
  std::array<std::int64_t, 3> grid{};  // Grid x, y, z (0 where the file records no launch)
  std::array<std::int64_t, 3> block{};      // Block x, y, z
  std::int64_t b = 0, m = 0, n = 0, k = 0;  // op shape (layer norm, softmax: B rows of H = m)
  std::string file;                         // where the row is: its file and line
  int line = 0;
  DType dtype = DType::fp32;  // NeuSight's rows are FP32
  // Timed as many launches back to back between two events (a calibration session: no harness
  // floor) rather than one op on its own (NeuSight's harness: timing_floor_us once per row).
  bool back_to_back = false;
  std::optional<ConvShape> conv;  // conv2d rows
  std::optional<double> power_w;  // the board's mean power while it ran in a loop, where observed
};

// The blocks of the row's launch (grid x * y * z; read within CUDA's limits, so no overflow); 0
// where the file records no launch.
inline std::int64_t grid_blocks(const KernelMeasurement& row) { return row.grid[0] * row.grid[1] * row.grid[2]; }

// Reads every row; UserError "FILE:LINE:COL: COLUMN: expected ..., found ..." on bad input.
std::vector<KernelMeasurement> read_kernel_measurements(const std::string& path);

// A GPU's rows and the spec that predicts them.
struct DeviceRows {
  GpuSpec spec;
  std::vector<KernelMeasurement> rows;
};

// Groups rows by the spec whose device_names contain their Device; rows of unknown devices are
// counted in `unmatched` (device -> rows).
std::map<std::string, DeviceRows> match_devices(const std::vector<KernelMeasurement>& rows,
                                                const std::vector<GpuSpec>& specs,
                                                std::map<std::string, std::size_t>& unmatched);

}  // namespace dse
