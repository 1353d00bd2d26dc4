// Measured GPU kernel latencies in the NeuSight CSV format (tests/data/neusight): one
// kernel per row with its latency, device, launch geometry and op shape. This is what `dse validate
// kernels` predicts and what calibration fits against.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace dse {

struct KernelMeasurement {
  std::string op;                           // OPName: linear, bmm, ln, softmax, add, addu, relu, ...
  double latency_ms = 0;                    // Latency
  std::string device;                       // Device: "NVIDIA L4", "Tesla P4", ...
  std::string kernel;                       // Kernel Name
  std::array<std::int64_t, 3> grid{};       // Grid x, y, z
  std::array<std::int64_t, 3> block{};      // Block x, y, z
  std::int64_t b = 0, m = 0, n = 0, k = 0;  // op shape (layer norm, softmax: B rows of H = m)
  std::string file;                         // where the row is: its file and line
  int line = 0;
};

// Reads every row; UserError "FILE:LINE:COL: COLUMN: expected ..., found ..." on bad input.
std::vector<KernelMeasurement> read_kernel_measurements(const std::string& path);

}  // namespace dse
