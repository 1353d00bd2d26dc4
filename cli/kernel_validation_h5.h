// `dse validate kernels --output FILE.h5`: every measured row beside dse's prediction (and, with
// --leave-one-out, the prediction of the calibration fitted without that row's GPU), as an HDF5
// file that `dse report` draws (docs/results.md, "Validation files").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "hwcal/kernel_fit.h"

namespace dse {

struct KernelValidationRun {
  std::vector<std::string> files;  // the measurement CSVs
  bool fit = false;
  bool leave_one_out = false;
  KernelCalibration calibration;                           // the one predicted_ms uses
  std::map<std::string, KernelCalibration> held_out_fits;  // GPU -> fitted without it (leave-one-out)
};

class Hdf5File;
// Writes and commits `out` (opened before the work, so an output that cannot be created stops the
// run first); UserError naming the file if it cannot be written.
void write_kernel_validation_h5(Hdf5File& out, const std::map<std::string, DeviceRows>& devices,
                                const KernelValidationRun& run);

}  // namespace dse
