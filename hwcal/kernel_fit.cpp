#include "hwcal/kernel_fit.h"

#include <unsupported/Eigen/NonLinearOptimization>
#include <unsupported/Eigen/NumericalDiff>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "hwcal/row_prediction.h"

namespace dse {

namespace {

bool has_shared_fp32_lanes(const GpuSpec& spec) { return spec.fp32_lanes_shared_with_int32 > 0; }
bool has_measured_tlb(const GpuSpec& spec) { return spec.l1_tlb.has_value(); }

// A fitted parameter: how the optimiser sees it (log, or log(1 + x) where 0 is allowed) and its
// bounds (the calibration file's ranges, kernel_calibration_io.cpp). A parameter only some GPUs'
// rows depend on names them (`identified_by`): a fit without one leaves it alone, and a
// leave-one-out fit without one starts it from `prior` rather than from the defaults, which took
// it from the GPU held out.
struct FitParameter {
  const char* name;
  double KernelCalibration::*member;
  bool log1p;  // x = log(1 + value): zero allowed
  double low, high;
  bool (*identified_by)(const GpuSpec&) = nullptr;  // null: every GPU's rows
  double prior = 0;
};
constexpr FitParameter kFitParameters[] = {
    {"gemm_efficiency", &KernelCalibration::gemm_efficiency, false, 0.01, 1.0},
    {"vector_efficiency", &KernelCalibration::vector_efficiency, false, 0.01, 1.0},
    {"stream_efficiency", &KernelCalibration::stream_efficiency, false, 0.01, 1.5},
    {"timing_floor_us", &KernelCalibration::timing_floor_us, false, 1e-3, 1e5},
    {"saturating_warps_per_scheduler", &KernelCalibration::saturating_warps_per_scheduler, false, 1, 64},
    {"simt_tensor_energy_ratio", &KernelCalibration::simt_tensor_energy_ratio, false, 0.1, 100},
    {"gemm_block_overhead_cycles", &KernelCalibration::gemm_block_overhead_cycles, true, 0, 1e7},
    {"l2_reread_bytes_per_clock", &KernelCalibration::l2_reread_bytes_per_clock, false, 1e-2, 1024},
    {"launch_overhead_us", &KernelCalibration::launch_overhead_us, true, 0, 1e4},
    {"active_sm_power_share", &KernelCalibration::active_sm_power_share, true, 0, 1},
    {"shared_fp32_lane_efficiency", &KernelCalibration::shared_fp32_lane_efficiency, true, 0, 1, has_shared_fp32_lanes,
     KernelCalibration::kSharedFp32LaneEfficiencyPrior},
    {"tlb_miss_cycles_per_row", &KernelCalibration::tlb_miss_cycles_per_row, true, 0, 1e6, has_measured_tlb,
     KernelCalibration::kTlbMissCyclesPerRowPrior},
};

// Whether any of `devices` has rows that depend on `p`.
bool identified(const FitParameter& p, const std::map<std::string, DeviceRows>& devices) {
  return !p.identified_by ||
         std::ranges::any_of(devices, [&p](const auto& entry) { return p.identified_by(entry.second.spec); });
}

const FitParameter& fit_parameter(const std::string& name) {
  for (const auto& p : kFitParameters)
    if (name == p.name) return p;
  throw std::logic_error("not a fitted calibration parameter: " + name);
}

double to_x(const FitParameter& p, double value) { return p.log1p ? std::log1p(value) : std::log(value); }
double from_x(const FitParameter& p, double x) {
  return std::clamp(p.log1p ? std::expm1(x) : std::exp(x), p.low, p.high);
}

// The fit minimises the pseudo-Huber loss of the log error r = log(predicted / measured): about r^2
// below kHuberScale, about 2 kHuberScale |r| above it. The reported statistic is the mean absolute
// error (MAPE), which an absolute loss targets; under squared loss the rows no model term explains
// (the P100's long reductions, up to 3x slower than their other rows) pulled every parameter.
// 0.05 (5 %) is about the spread of a GPU's well-predicted rows; 0.02 fits the same to 1 %.
constexpr double kHuberScale = 0.05;

// A residual whose square is the pseudo-Huber loss of r, smooth for Levenberg-Marquardt.
double robust_residual(double r) {
  const double u = r / kHuberScale;
  return std::copysign(kHuberScale * std::sqrt(2 * (std::sqrt(1 + u * u) - 1)), r);
}

// Residuals for Eigen's Levenberg-Marquardt: robust_residual(log(predicted / measured)) of each
// row's latency (and power, where measured), then one per free parameter for its prior.
struct LogErrorFunctor {
  using Scalar = double;
  using InputType = Eigen::VectorXd;
  using ValueType = Eigen::VectorXd;
  using JacobianType = Eigen::MatrixXd;
  enum { InputsAtCompileTime = Eigen::Dynamic, ValuesAtCompileTime = Eigen::Dynamic };

  std::vector<std::pair<const GpuSpec*, const KernelMeasurement*>> samples;
  std::vector<const FitParameter*> free;
  KernelCalibration base;  // the values of the parameters not fitted
  std::optional<KernelCalibration> prior;
  double prior_weight = 0;  // per parameter: residual = weight * (x - x_prior)
  std::size_t power_rows = 0;

  int inputs() const { return static_cast<int>(free.size()); }
  int values() const { return static_cast<int>(samples.size() + power_rows + (prior ? free.size() : 0)); }
  KernelCalibration calibration(const Eigen::VectorXd& x) const {
    KernelCalibration c = base;
    for (std::size_t i = 0; i < free.size(); ++i)
      c.*(free[i]->member) = from_x(*free[i], x[static_cast<Eigen::Index>(i)]);
    return c;
  }
  Eigen::VectorXd vector_of(const KernelCalibration& c) const {
    Eigen::VectorXd x(static_cast<Eigen::Index>(free.size()));
    for (std::size_t i = 0; i < free.size(); ++i)
      x[static_cast<Eigen::Index>(i)] = to_x(*free[i], c.*(free[i]->member));
    return x;
  }

  int operator()(const Eigen::VectorXd& x, Eigen::VectorXd& residuals) const {
    const KernelCalibration c = calibration(x);
    std::map<const GpuSpec*, KernelTimer> timers;
    Eigen::Index out = 0;
    for (const auto& [spec, row] : samples) {
      auto it = timers.find(spec);
      if (it == timers.end()) it = timers.emplace(spec, KernelTimer(*spec, c)).first;
      residuals[out++] = robust_residual(std::log(predict_latency_s(*row, it->second) / (row->latency_ms * 1e-3)));
      if (row->power_w) residuals[out++] = robust_residual(std::log(predict_power_w(*row, it->second) / *row->power_w));
    }
    if (prior) {
      const Eigen::VectorXd x_prior = vector_of(*prior);
      for (Eigen::Index i = 0; i < x.size(); ++i) residuals[out++] = prior_weight * (x[i] - x_prior[i]);
    }
    return 0;
  }
};

}  // namespace

double fit_row_loss(double predicted, double measured) {
  const double r = robust_residual(std::log(predicted / measured));
  return r * r;
}

const std::vector<std::string>& default_fit_parameters() {
  static const std::vector<std::string> names = {"gemm_efficiency",           "vector_efficiency",
                                                 "timing_floor_us",           "saturating_warps_per_scheduler",
                                                 "simt_tensor_energy_ratio",  "gemm_block_overhead_cycles",
                                                 "l2_reread_bytes_per_clock", "shared_fp32_lane_efficiency"};
  return names;
}

KernelCalibration fit_calibration(const std::map<std::string, DeviceRows>& devices, const KernelCalibration& start,
                                  const FitOptions& options) {
  LogErrorFunctor functor;
  functor.base = start;
  for (const auto& name : options.parameters)
    if (const FitParameter& p = fit_parameter(name); identified(p, devices)) functor.free.push_back(&p);
  if (options.prior) {
    functor.prior = *options.prior;
    // A Gaussian prior of `prior_sigma` in log units, scaled so that it weighs as much as
    // `prior_rows` rows at the Huber scale (the loss is a sum over rows).
    functor.prior_weight = kHuberScale / options.prior_sigma * std::sqrt(options.prior_rows);
  }
  for (const auto& [name, device] : devices) {
    // At most 400 rows per device and op keep a fit to seconds; the stride keeps every shape range.
    std::map<std::string, std::vector<const KernelMeasurement*>> by_op;
    for (const auto& row : device.rows) by_op[row.op].push_back(&row);
    for (const auto& [op, rows] : by_op) {
      const std::size_t stride = std::max<std::size_t>(1, rows.size() / 400);
      for (std::size_t i = 0; i < rows.size(); i += stride) {
        functor.samples.emplace_back(&device.spec, rows[i]);
        if (rows[i]->power_w) ++functor.power_rows;
      }
    }
  }
  if (functor.samples.empty()) throw std::invalid_argument("kernel calibration fit: no rows to fit");
  if (functor.free.empty()) return start;  // nothing these rows can tell
  // GEMM efficiency and the power model's SIMT energy (which sets the clock of a power-limited
  // kernel) trade against each other on every GPU below its boost clock, so the loss surface has
  // several basins and Levenberg-Marquardt stops in the one it starts in: start it from `start`
  // and from a grid over the two, and keep the best.
  std::vector<KernelCalibration> starts{start};
  for (const double ratio : {3.0, 6.0, 12.0})
    for (const double efficiency : {0.7, 0.95}) {
      KernelCalibration c = start;
      c.simt_tensor_energy_ratio = ratio;
      c.gemm_efficiency = efficiency;
      starts.push_back(c);
    }
  Eigen::NumericalDiff<LogErrorFunctor> numeric(functor, options.difference_step);
  Eigen::VectorXd best;
  double best_loss = std::numeric_limits<double>::infinity();
  for (const auto& candidate : starts) {
    Eigen::VectorXd x = functor.vector_of(candidate);
    Eigen::LevenbergMarquardt<Eigen::NumericalDiff<LogErrorFunctor>> solver(numeric);
    solver.parameters.maxfev = 400;
    solver.minimize(x);
    Eigen::VectorXd residuals(functor.values());
    functor(x, residuals);
    if (const double loss = residuals.squaredNorm(); loss < best_loss) {
      best_loss = loss;
      best = x;
    }
  }
  if (best.size() == 0) throw std::runtime_error("kernel calibration fit: no start gave a finite error");
  return functor.calibration(best);
}

std::map<std::string, KernelCalibration> leave_one_out_fits(const std::map<std::string, DeviceRows>& devices,
                                                            const FitProgress& progress) {
  std::map<std::string, KernelCalibration> fits;
  std::size_t done = 0;
  for (const auto& [name, device] : devices) {
    if (progress) progress(done++, devices.size(), name);
    auto others = devices;
    others.erase(name);
    // The defaults were fitted with this GPU in: a parameter only its rows identify starts from its prior.
    KernelCalibration start;
    for (const FitParameter& p : kFitParameters)
      if (!identified(p, others)) start.*p.member = p.prior;
    fits[name] = fit_calibration(others, start);
  }
  if (progress) progress(done, devices.size(), "");
  return fits;
}

}  // namespace dse
