// The calibration file `dse calibrate` writes: the kernel model's parameters as every calibration
// file holds them (sim/gpu/kernel_calibration_io.h; `device: {calibration: FILE}` loads it), and the
// session they came from. docs/calibration.md ("The fit and the file") shows the format.
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
  // gpu: the spec it was fitted for; device: what the driver calls it; driver and cuda: their
  // versions ("" if unknown); date_utc: ISO 8601, e.g. 2026-12-03T21:00:00Z.
  std::string gpu, device, driver, cuda, backend, date_utc;
  std::optional<double> idle_w;  // the board at rest, if observed
  // The SM clock and the board power while measuring: min, mean, max (empty if none seen).
  std::vector<double> clocks_seen_mhz, power_seen_w;
  // The session's wall time, serial measurement's estimated time, and the speedup and error against it.
  double wall_s = 0, serial_estimate_s = 0, speedup_vs_serial = 1, error_vs_serial_pct = 0;
  std::vector<CalibrationRow> rows;    // every kernel measured; the fit used those not held out
  std::vector<CalibrationPair> pairs;  // two kernels at once: checks the GPU model's sharing
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
