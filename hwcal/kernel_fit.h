// Fitting the kernel timing model's calibration parameters to measured rows (Levenberg-Marquardt
// on the log error of hwcal/row_prediction.h's predictions), and leave-one-GPU-out fits: hwcal joins
// its measurements with sim's GPU model (dse_hwcal depends on dse_sim, never the other way) and
// writes the calibration sim loads.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hwcal/kernel_measurements.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

// The parameters a fit to NeuSight's rows frees (the others are not identifiable from ops timed
// one at a time, or, as stream_efficiency, are set by measurement: each spec's stream share):
// gemm_efficiency, vector_efficiency, timing_floor_us, saturating_warps_per_scheduler,
// simt_tensor_energy_ratio, gemm_block_overhead_cycles, l2_reread_bytes_per_clock, and
// shared_fp32_lane_efficiency where the rows include a GPU with FP32 lanes shared with INT32
// (fit_calibration leaves it at `start`'s value otherwise).
const std::vector<std::string>& default_fit_parameters();

struct FitOptions {
  std::vector<std::string> parameters = default_fit_parameters();  // the ones fitted; the rest keep `start`'s
  // A prior on every fitted parameter (a Gaussian of prior_sigma in log units around its value),
  // weighing as much as prior_rows rows: a fit to one GPU's rows stays near what every other GPU's
  // fit found where those rows say little (hwcal/session_fit.h).
  std::optional<KernelCalibration> prior;
  double prior_sigma = 0.25;
  double prior_rows = 50;
  // Eigen's epsfcn for the numerical Jacobian (0: its default, a step of sqrt(machine epsilon) x
  // |x|). The kernel model's clocks come from a root solved to 1e-9, so a larger step gives a
  // cleaner gradient; the NeuSight fit keeps the default its documented numbers were made with.
  double difference_step = 0;
};

// Minimises the pseudo-Huber loss (5 % scale: squared below, absolute above) of log(predicted /
// measured) latency, and power where a row measured it, over the devices given (Levenberg-
// Marquardt, Eigen, from `start` and six more starts over GEMM efficiency x SIMT / tensor-core
// energy ratio; the best is kept). Every parameter stays within its calibration-file range.
KernelCalibration fit_calibration(const std::map<std::string, DeviceRows>& devices, const KernelCalibration& start,
                                  const FitOptions& options = {});

// What one row adds to that loss: the pseudo-Huber loss of log(predicted / measured) (5 % scale).
double fit_row_loss(double predicted, double measured);

// Leave one GPU out: for each device, the calibration fitted (from the defaults) on all the others;
// a parameter that none of the others identifies (the shared FP32/INT32 lanes' rate when the one
// held out is the only GPU with such lanes) starts from its prior, since the defaults took it from
// that GPU (KernelCalibration::kSharedFp32LaneEfficiencyPrior).
// `progress(done, total, device)` is called before each fit (they take seconds each).
using FitProgress = std::function<void(std::size_t done, std::size_t total, const std::string& device)>;
std::map<std::string, KernelCalibration> leave_one_out_fits(const std::map<std::string, DeviceRows>& devices,
                                                            const FitProgress& progress = {});

}  // namespace dse
