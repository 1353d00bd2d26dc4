// `dse validate kernels`' study: measured kernel rows (NeuSight CSV format), matched to GPU specs,
// predicted with the kernel timing model under a calibration (the defaults, a saved one, or one
// fitted to the rows here), and the errors set beside what no model could do better (the
// measurements' own scatter, batch_scaling_floor.h), the unrecorded clock state (clock_states.h)
// and the tile choice; with leave-one-out, each GPU again under a fit to the others.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "hwcal/batch_scaling_floor.h"
#include "hwcal/clock_states.h"
#include "hwcal/kernel_fit.h"
#include "hwcal/session_fit.h"

namespace dse {

struct KernelValidationOptions {
  KernelCalibration calibration;  // predicted with, and where a fit of several GPUs starts
  bool fit = false;               // fit to the rows first (one GPU: fit_one_gpu; several: fit_calibration)
  bool leave_one_out = false;     // also fit without each GPU and predict it (needs two or more)
};

// The clocks (MHz) the timing model gives a GPU under a calibration: an SGEMM's and an FP16
// tensor-core GEMM's (none without tensor cores), beside the datasheet's base and boost.
struct ModelClocks {
  double base_mhz = 0, boost_mhz = 0, sgemm_mhz = 0;
  std::optional<double> fp16_tensor_mhz;
};
ModelClocks model_clocks(const GpuSpec& spec, const KernelCalibration& calibration);

// A floor of the measurements' own scatter over the rows it covers (`grouped`), beside dse's error
// on the same rows: with the calibration, and held out (leave-one-out only).
struct FloorComparison {
  FloorOptions rows;  // which rows the floor covers
  std::map<std::string, DeviceRows> grouped;
  ErrorTable floor, model, held_out;
};

struct KernelValidationReport {
  KernelCalibration calibration;     // every prediction below uses it: options.calibration or the fit
  std::optional<OneGpuFit> one_gpu;  // fit on one GPU: its held-out rows' errors, fitted and default
  ErrorTable errors;                 // every row, device -> op
  std::map<std::string, ModelClocks> clocks;
  FloorComparison batch_scaling;  // rows >= 1 ms at 3+ batch sizes, each shape at its best throughput
  FloorComparison affine;         // every row at 3+ batch sizes, each shape at its best a + b x items
  ClockStateTable clock_states;
  TileChoiceReport tile_choice;
  // Leave-one-out only: per GPU, the calibration fitted on the others and what it predicts.
  std::map<std::string, KernelCalibration> held_out_fits;
  std::map<std::string, ModelClocks> held_out_clocks;
  ErrorTable held_out;
  ClockStateTable held_out_clock_states;
};

// Runs the study over `devices` (match_devices's). `progress` is called before each leave-one-out
// fit (seconds each).
KernelValidationReport validate_kernel_rows(const std::map<std::string, DeviceRows>& devices,
                                            const KernelValidationOptions& options, const FitProgress& progress = {});

}  // namespace dse
