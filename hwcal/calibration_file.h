// The calibration file `dse calibrate` writes: the kernel model's parameters as every calibration
// file holds them (sim/gpu/kernel_calibration_io.h: `device: {calibration: FILE}` loads it), and
// the session they came from:
//
//   calibration: kernel_timer
//   fitted_on: [h200]
//   source: "dse calibrate (simulated backend)"
//   parameters: {gemm_efficiency: 0.91, ...}
//   session:
//     gpu: h200                          # the spec it was fitted for
//     device: "NVIDIA H200 (simulated)"  # what the driver calls it
//     driver: "..."                      # driver and CUDA runtime versions ("" if unknown)
//     cuda: "..."
//     backend: simulated
//     date_utc: 2026-12-03T21:00:00Z
//     idle_w: 71.0                       # the board at rest, if observed
//     clocks_seen_mhz: [1980, 1980, 1980]   # min, mean, max of the SM clock while measuring
//     power_seen_w: [80, 420, 690]          # the same for board power
//     wall_s: 95.2                       # the session, and serial measurement's estimated time
//     serial_estimate_s: 402.8
//     speedup_vs_serial: 4.23
//     error_vs_serial_pct: 1.4
//     rows:                              # every kernel measured: the fit used those not held out
//       - {op: linear, dtype: fp16, b: 1, m: 4096, n: 4096, k: 4096, latency_ms: 0.162, power_w: 655,
//          held_out: false, models: [], count: 1}
//       - {op: conv2d, dtype: fp16, b: 8, conv: [64, 56, 56, 256, 1, 1, 1, 0, 1], ...}
//     pairs:                             # two kernels at once: checks the GPU model's sharing
//       - {a: {...row}, b: {...row}, latency_ms: 0.21}
//     failed: [{name: "...", status: timeout, message: "..."}]
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hwcal/kernel_measurements.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

struct CalibrationRow {
  KernelMeasurement op;
  bool held_out = false;
  std::vector<std::string> models;  // the zoo models the shape comes from
  std::size_t count = 1;            // how often it occurs in them
};

struct CalibrationPair {
  KernelMeasurement a, b;
  double latency_ms = 0;  // both finished, per iteration
};

struct CalibrationFailure {
  std::string name, status, message;
};

struct CalibrationSession {
  std::string gpu, device, driver, cuda, backend, date_utc;
  std::optional<double> idle_w;
  std::vector<double> clocks_seen_mhz, power_seen_w;  // min, mean, max (empty if none seen)
  double wall_s = 0, serial_estimate_s = 0, speedup_vs_serial = 1, error_vs_serial_pct = 0;
  std::vector<CalibrationRow> rows;
  std::vector<CalibrationPair> pairs;
  std::vector<CalibrationFailure> failed;
};

struct CalibrationFile {
  KernelCalibration parameters;
  std::vector<std::string> fitted_on;
  std::string source;
  std::optional<CalibrationSession> session;  // files `dse calibrate` wrote
};

std::string calibration_file_yaml(const CalibrationFile& file);
// ConfigError at what is wrong (FILE:LINE:COL and the key path).
CalibrationFile read_calibration_file(const std::string& path);

}  // namespace dse
