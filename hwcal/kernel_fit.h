// Predicting measured kernel latencies (NeuSight CSV format) with the kernel timing model, and
// fitting the calibration parameters to them: hwcal joins its measurements with sim's GPU model
// (dse_hwcal depends on dse_sim, never the other way) and writes the calibration sim loads.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "hwcal/kernel_measurements.h"
#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

struct ErrorSummary {
  double mape_pct = 0;
  double within_20pct = 0;  // fraction of rows with |error| <= 20 %
  std::size_t rows = 0;
};

// MAPE and the share within +-20 % of a list of |error| fractions.
ErrorSummary summarize_errors(const std::vector<double>& errors);

// Error by device (spec name) and op (OPName).
using ErrorTable = std::map<std::string, std::map<std::string, ErrorSummary>>;

struct DeviceRows {
  GpuSpec spec;
  std::vector<KernelMeasurement> rows;
};

// Groups rows by the spec whose device_names contain their Device; rows of unknown devices are
// counted in `unmatched` (device -> rows).
std::map<std::string, DeviceRows> match_devices(const std::vector<KernelMeasurement>& rows,
                                                const std::vector<GpuSpec>& specs,
                                                std::map<std::string, std::size_t>& unmatched);

// The kernels dse launches for one measured row's op; UserError for an op it cannot rebuild.
std::vector<Kernel> predict_kernels(const KernelMeasurement& row, const KernelTimer& timer);
// What a harness that times one op on its own measures for `kernels`: its timing floor once,
// plus each kernel's time. Every validation against isolated-op measurements goes through here.
double timed_alone_s(const std::vector<Kernel>& kernels, const KernelTimer& timer);
// Predicted latency (seconds) of one measured row: timed_alone_s of its kernels.
double predict_latency_s(const KernelMeasurement& row, const KernelTimer& timer);

ErrorTable evaluate(const std::map<std::string, DeviceRows>& devices, const KernelCalibration& calibration);

// Minimises the pseudo-Huber loss (5 % scale: squared below, absolute above) of log(predicted /
// measured) over the devices given (Levenberg-Marquardt, Eigen, from `start` and six more starts
// over GEMM efficiency x SIMT / tensor-core energy ratio; the best is kept).
KernelCalibration fit_calibration(const std::map<std::string, DeviceRows>& devices, const KernelCalibration& start);

// Leave one GPU out: for each device, the calibration fitted (from the defaults) on all the others.
// `progress(done, total, device)` is called before each fit (they take seconds each).
using FitProgress = std::function<void(std::size_t done, std::size_t total, const std::string& device)>;
std::map<std::string, KernelCalibration> leave_one_out_fits(const std::map<std::string, DeviceRows>& devices,
                                                            const FitProgress& progress = {});

// Every row's prediction beside its measurement, with the measured launch (kernel name, grid
// blocks) beside dse's, to tell tile-choice errors from timing errors: CSV with a header.
std::string kernel_predictions_csv(const std::map<std::string, DeviceRows>& devices,
                                   const KernelCalibration& calibration);

}  // namespace dse
