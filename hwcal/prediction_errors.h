// How far a calibration's predictions (hwcal/row_prediction.h) are from measured rows: the error by
// device and op, the same for GEMMs given the tile they were measured on, and every row's prediction
// beside its measurement as CSV (`dse validate kernels`).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "hwcal/kernel_measurements.h"
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

// Each device's rows predicted with `calibration` (predict_latency_s): the error by device and op.
ErrorTable evaluate(const std::map<std::string, DeviceRows>& devices, const KernelCalibration& calibration);

// The tile choice against the kernel's time: the GEMM rows whose measured tile dse's table holds,
// with dse's MAPE when it picks the tile (as it predicts) and when it is given the measured one.
struct TileChoiceReport {
  ErrorTable dse_tile, measured_tile;
};
TileChoiceReport evaluate_tile_choice(const std::map<std::string, DeviceRows>& devices,
                                      const KernelCalibration& calibration);

// Every row's prediction beside its measurement, with the measured launch (kernel name, grid
// blocks) beside dse's, to tell tile-choice errors from timing errors: CSV with a header.
std::string kernel_predictions_csv(const std::map<std::string, DeviceRows>& devices,
                                   const KernelCalibration& calibration);

}  // namespace dse
