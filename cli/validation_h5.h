// `dse validate kernels|e2e|gemm --output FILE.h5`: every measured row beside dse's prediction (and, for
// kernels with --leave-one-out, the prediction of the calibration fitted without that row's GPU), as
// an HDF5 file that `dse report` draws (docs/results.md, "Validation files").
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "hwcal/e2e_validation.h"
#include "hwcal/gemm_validation.h"
#include "hwcal/kernel_measurements.h"
#include "hwcal/session_fit.h"

namespace dse {

class Hdf5File;

// One measured row: `op` is the kernel's op kind, or for end-to-end rows the model.
struct ValidationRow {
  std::string gpu, op, file;
  std::int64_t line = 0, b = 0, m = 0, n = 0, k = 0;
  double measured_ms = 0, predicted_ms = 0;
  double held_out_ms = std::numeric_limits<double>::quiet_NaN();
};

struct KernelValidationRun {
  std::vector<std::string> files;  // the measurement CSVs
  bool fit = false;
  bool leave_one_out = false;
  KernelCalibration calibration;                           // the one predicted_ms uses
  std::map<std::string, KernelCalibration> held_out_fits;  // GPU -> fitted without it (leave-one-out)
};

// Each writes and commits `out` (opened before the work, so an output that cannot be created stops
// the run first); UserError naming the file if it cannot be written.
void write_kernel_validation_h5(Hdf5File& out, const std::map<std::string, DeviceRows>& devices,
                                const KernelValidationRun& run);
void write_e2e_validation_h5(Hdf5File& out, const std::string& file, const std::vector<E2eRow>& rows);
// `dse calibration validate FILE --output X.h5`: every row the session measured, predicted with the
// default calibration (predicted_ms) and, for the rows the fit held out, with the file's calibration
// (held_out_ms; NaN for the rows it was fitted to).
void write_calibration_validation_h5(Hdf5File& out, const std::string& file, const std::string& gpu,
                                     const CalibrationCheck& check);
void write_gemm_validation_h5(Hdf5File& out, const std::string& file, const std::string& gpu, const std::string& dtype,
                              const std::vector<GemmRow>& rows);

}  // namespace dse
