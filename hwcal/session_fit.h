// Fitting and checking a calibration from a session's rows (hwcal/calibration_file.h): a held-out
// share of the rows is kept aside, the rest fitted (hwcal/kernel_fit.h) with a prior at the
// calibration every other GPU's measurements give (the defaults), so a fit to one GPU stays
// physical where its rows say little; the check predicts the held-out rows, the zoo models' kernels
// end to end, and the pairs run at once, with the defaults beside the fit.
#pragma once

#include <string>
#include <vector>

#include "hwcal/calibration_file.h"
#include "hwcal/kernel_fit.h"
#include "hwcal/prediction_errors.h"

namespace dse {

struct SessionFitOptions {
  double holdout_share = 0.2;
  double prior_sigma = 0.25;  // log units: about +-28 % at one sigma
  double prior_rows = 50;
};

// What a session's rows fit (timed back to back: the launch overhead shows, the harness floor does
// not; power where observed): gemm_efficiency, vector_efficiency, stream_efficiency,
// saturating_warps_per_scheduler, gemm_block_overhead_cycles, l2_reread_bytes_per_clock,
// launch_overhead_us, simt_tensor_energy_ratio, active_sm_power_share.
const std::vector<std::string>& session_fit_parameters();

// Whether a row is held out: a hash of its op, dtype and shape below `share`, so the split is the
// same every time (and one shape measured twice falls on one side).
bool is_held_out(const KernelMeasurement& row, double share);

// Marks each row held out or not and fits the rest for `spec`.
KernelCalibration fit_session(std::vector<CalibrationRow>& rows, const GpuSpec& spec, const SessionFitOptions& options);

// `dse validate kernels --fit` on one GPU's rows: `parameters` fitted with the prior on the rows not
// held out, and the held-out rows' error by op with the fit and with the defaults.
struct OneGpuFit {
  KernelCalibration calibration;
  ErrorTable held_out_fitted, held_out_default;
  std::size_t fitted_rows = 0, held_out_rows = 0;
};
OneGpuFit fit_one_gpu(const DeviceRows& device, const std::vector<std::string>& parameters,
                      const SessionFitOptions& options);

struct CalibrationCheck {
  // Held-out rows by op, and all of them, predicted with the defaults and with the file's calibration.
  std::map<std::string, ErrorSummary> held_out_default, held_out_fitted;
  ErrorSummary all_default, all_fitted;
  // Each zoo model's measured kernels (conv and linear layers, each counted as often as it occurs)
  // summed, against the sum predicted.
  struct Model {
    std::string name;
    double measured_ms = 0, default_ms = 0, fitted_ms = 0;
  };
  std::vector<Model> models;
  ErrorSummary pairs_default, pairs_fitted;  // two kernels at once
  // Every measured row, predicted with the defaults and with the file's calibration.
  struct Row {
    const KernelMeasurement* measurement = nullptr;  // into the file's session: valid while the file is
    bool held_out = false;
    double default_ms = 0, fitted_ms = 0;
  };
  std::vector<Row> rows;
};

CalibrationCheck check_calibration(const CalibrationFile& file, const GpuSpec& spec);

}  // namespace dse
