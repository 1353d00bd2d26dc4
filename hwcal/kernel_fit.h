// Predicting measured kernel latencies (NeuSight CSV format) with the kernel timing model, and
// fitting the calibration parameters to them: hwcal joins its measurements with sim's GPU model
// (dse_hwcal depends on dse_sim, never the other way) and writes the calibration sim loads.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hwcal/kernel_measurements.h"
#include "models/graph.h"
#include "sim/gpu/gpu_lowering.h"
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
// The GEMM tile a measured linear or bmm row's kernel ran, read from its name (cuBLAS's and
// CUTLASS's "..._sgemm_PxQ_...": P columns and Q rows of the row-major output; xmma's
// "...tilesizePxQx8...": P rows and Q columns) and, for linear rows, its K split (the grid's blocks over the output
// tiles; a bmm is never split); none for other rows or names.
std::optional<GemmTileRequest> measured_gemm_tile(const KernelMeasurement& row);
// dse's kernels for the row on the tile it was measured on (measured_gemm_tile); empty when the
// name gives none or dse's tile table has no tile of that size.
std::vector<Kernel> predict_kernels_on_measured_tile(const KernelMeasurement& row, const KernelTimer& timer);
// What a harness that times one op on its own measures for `kernels`: its timing floor once,
// plus each kernel's time. Every validation against isolated-op measurements goes through here.
double timed_alone_s(const std::vector<Kernel>& kernels, const KernelTimer& timer);
// What a loop of many launches between two events measures per launch: each kernel's time, no floor.
double timed_back_to_back_s(const std::vector<Kernel>& kernels, const KernelTimer& timer);
// The longest of `kernels` with its time (the clock a validation reports for a row is its); null for none.
struct LongestKernel {
  const Kernel* kernel = nullptr;
  KernelTime time;
};
LongestKernel longest_kernel(const std::vector<Kernel>& kernels, const KernelTimer& timer);
// Predicted latency (seconds) of one measured row: timed_alone_s of its kernels for a row timed on
// its own, their sum for one timed back to back.
double predict_latency_s(const KernelMeasurement& row, const KernelTimer& timer);
// The same for the row's kernels already lowered (predict_kernels).
double predict_latency_s(const KernelMeasurement& row, const std::vector<Kernel>& kernels, const KernelTimer& timer);
// Two rows' kernels launched together on two streams, as the GPU model shares the GPU between
// them (sim/runtime/gpu_executor.h): seconds until both have finished.
double predict_pair_latency_s(const KernelMeasurement& a, const KernelMeasurement& b, const KernelTimer& timer);
// The share of the GPU's block slots the row's kernels fill alone, time-weighted (1: it fills the GPU).
double predict_gpu_share(const KernelMeasurement& row, const KernelTimer& timer);
// The board power (W) the row's kernels draw in a loop.
double predict_power_w(const KernelMeasurement& row, const KernelTimer& timer);
// The board power (W) they would draw in a loop at the boost clock with no power limit holding them.
double predict_power_at_boost_w(const KernelMeasurement& row, const KernelTimer& timer);
// The one-op graph a row measured (for the calibration backends, which run or simulate it).
Graph measured_op_graph(const KernelMeasurement& row);

ErrorTable evaluate(const std::map<std::string, DeviceRows>& devices, const KernelCalibration& calibration);

// The tile choice against the kernel's time: the GEMM rows whose measured tile dse's table holds,
// with dse's MAPE when it picks the tile (as it predicts) and when it is given the measured one.
struct TileChoiceReport {
  ErrorTable dse_tile, measured_tile;
};
TileChoiceReport evaluate_tile_choice(const std::map<std::string, DeviceRows>& devices,
                                      const KernelCalibration& calibration);

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

// Every row's prediction beside its measurement, with the measured launch (kernel name, grid
// blocks) beside dse's, to tell tile-choice errors from timing errors: CSV with a header.
std::string kernel_predictions_csv(const std::map<std::string, DeviceRows>& devices,
                                   const KernelCalibration& calibration);

}  // namespace dse
