#include "hwcal/kernel_fit.h"

#include <fmt/format.h>

#include <unsupported/Eigen/NonLinearOptimization>
#include <unsupported/Eigen/NumericalDiff>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>

#include "models/base/ceil_div.h"
#include "models/base/checked_count.h"
#include "models/base/csv_table.h"
#include "models/base/errors.h"
#include "models/ops/op_library.h"
#include "sim/gpu/gpu_lowering.h"
#include "sim/gpu/gpu_timing_model.h"
#include "sim/runtime/streams.h"

namespace dse {

std::map<std::string, DeviceRows> match_devices(const std::vector<KernelMeasurement>& rows,
                                                const std::vector<GpuSpec>& specs,
                                                std::map<std::string, std::size_t>& unmatched) {
  std::map<std::string, DeviceRows> out;
  for (const auto& row : rows) {
    const GpuSpec* spec = find_spec_by_device_name(specs, row.device);
    if (!spec) {
      ++unmatched[row.device];
      continue;
    }
    auto& device = out[spec->name];
    device.spec = *spec;
    device.rows.push_back(row);
  }
  return out;
}

namespace {

// NeuSight's elementwise OPNames (test/elem.csv) and the op each runs over B x H floats: two such
// tensors (add ... pow), one and a Python scalar (addu ... powu: PyTorch's tensor-scalar kernels,
// two pointers each), or one (relu, gelu, tanh).
enum class SecondOperand { none, tensor, scalar };
struct NeusightElementwise {
  OpKind kind;
  SecondOperand second = SecondOperand::none;
};
const std::map<std::string, NeusightElementwise, std::less<>>& neusight_elementwise_ops() {
  static const std::map<std::string, NeusightElementwise, std::less<>> kOps = {
      {"add", {OpKind::add, SecondOperand::tensor}},
      {"mul", {OpKind::mul, SecondOperand::tensor}},
      {"div", {OpKind::div, SecondOperand::tensor}},
      {"pow", {OpKind::pow, SecondOperand::tensor}},
      {"addu", {OpKind::add, SecondOperand::scalar}},
      {"mulu", {OpKind::mul, SecondOperand::scalar}},
      {"divu", {OpKind::div, SecondOperand::scalar}},
      {"powu", {OpKind::pow, SecondOperand::scalar}},
      {"relu", {OpKind::relu}},
      {"gelu", {OpKind::gelu}},
      {"tanh", {OpKind::tanh}},
  };
  return kOps;
}

}  // namespace

namespace {

Graph build_measured_op_graph(const KernelMeasurement& row) {
  Graph graph(row.op);
  const std::string& op = row.op;
  const DType dtype = row.dtype;
  // NeuSight's shapes reduce over N and produce K columns: linear is [B*M, N] x [N, K] (K output
  // features), bmm is [B, M, N] x [B, N, K]. The recorded grids confirm it (e.g. linear M=32768,
  // N=4096, K=1024 on sgemm_128x128: grid 8 x 256 = K/128 x M/128).
  if (op == "linear") {
    const auto x = graph.add_input("x", {checked_mul(row.b, row.m, "B x M"), row.n}, dtype);
    ops::linear(graph, "linear", x, row.k, true);
  } else if (op == "bmm") {
    const auto a = graph.add_input("a", {row.b, row.m, row.n}, dtype);
    const auto b = graph.add_input("b", {row.b, row.n, row.k}, dtype);
    ops::matmul(graph, "bmm", a, b);
  } else if (op == "conv2d") {
    if (!row.conv)
      throw UserError(row.file + ":" + std::to_string(row.line) +
                      ": OPName: a conv2d row needs its convolution's shape, which the NeuSight CSV format has no "
                      "columns for (calibration files from dse calibrate carry it)");
    const ConvShape& c = *row.conv;
    Window window;
    window.kernel_h = c.r;
    window.kernel_w = c.s;
    window.stride_h = window.stride_w = c.stride;
    window.pad_h = window.pad_w = c.pad;
    ops::conv2d(graph, "conv2d", graph.add_input("x", {row.b, c.channels, c.height, c.width}, dtype), c.out, window,
                c.groups);
  } else if (op == "ln" || op == "layernorm") {
    ops::layernorm(graph, "ln", graph.add_input("x", {row.b, row.m}, dtype));
  } else if (op == "softmax") {
    ops::softmax(graph, "softmax", graph.add_input("x", {row.b, row.m}, dtype), -1);
  } else if (op == "reduce") {
    ops::reduce(graph, "reduce", OpKind::reduce_sum, graph.add_input("x", {row.b, row.m}, dtype), {1}, false);
  } else if (const auto it = neusight_elementwise_ops().find(op); it != neusight_elementwise_ops().end()) {
    const auto& [kind, second] = it->second;
    const auto x = graph.add_input("x", {row.b, row.m}, dtype);
    if (second == SecondOperand::none)
      ops::unary(graph, op, kind, x);
    else
      ops::binary(graph, op, kind, x,
                  graph.add_input("y", second == SecondOperand::scalar ? Shape{1} : Shape{row.b, row.m}, dtype));
  } else {
    std::string names;
    for (const auto& [name, _] : neusight_elementwise_ops()) names += (names.empty() ? "" : ", ") + name;
    throw UserError(row.file + ":" + std::to_string(row.line) +
                    ": OPName: expected linear, bmm, conv2d, ln, softmax, reduce, launch or an elementwise op (" +
                    names + "), found '" + op + "'");
  }
  return graph;
}

}  // namespace

Graph measured_op_graph(const KernelMeasurement& row) {
  const auto in_row = [&row](const std::exception& e) {
    return UserError(row.file + ":" + std::to_string(row.line) + ": " + row.op + " row: " + e.what());
  };
  try {
    return build_measured_op_graph(row);
  } catch (const CountOverflow& e) {
    throw in_row(e);
  } catch (const std::invalid_argument& e) {  // a shape no op of that kind has (ops::linear of K = 0)
    throw in_row(e);
  }
}

std::vector<Kernel> predict_kernels(const KernelMeasurement& row, const KernelTimer& timer) {
  // An empty kernel: what one launch costs back to back (the launch overhead, one tiny block).
  if (row.op == "launch") {
    Kernel empty;
    empty.name = "empty";
    empty.threads_per_block = 32;
    empty.registers_per_thread = 16;
    return {empty};
  }
  const Graph graph = measured_op_graph(row);
  return lower_op(graph, graph.ops().back(), timer);
}

std::optional<GemmTileRequest> measured_gemm_tile(const KernelMeasurement& row) {
  if (row.op != "linear" && row.op != "bmm") return std::nullopt;
  static const std::regex kTile("(sgemm_|tilesize)([0-9]{1,6})x([0-9]{1,6})");
  std::smatch match;
  if (!std::regex_search(row.kernel, match, kTile)) return std::nullopt;
  GemmTileRequest tile;
  // cuBLAS's and CUTLASS's SIMT names give columns first, xmma's rows first: the H200's
  // tilesize128x64 covers a 512 x 1,280 linear output as grid 4 x 20.
  const bool rows_first = match[1].str() == "tilesize";
  tile.rows = std::stoll(match[rows_first ? 2 : 3].str());
  tile.columns = std::stoll(match[rows_first ? 3 : 2].str());
  if (tile.rows <= 0 || tile.columns <= 0) return std::nullopt;
  // A linear row's K split: the blocks over the output tiles when they divide (the grid's z is not
  // always the split: the P4's sgemm_128x128x8_NT_vec lays 160 output tiles out as 4 x 10 x 4).
  if (row.op == "linear") {
    std::int64_t rows = 0, tiles = 0;
    if (__builtin_mul_overflow(row.b, row.m, &rows) ||
        __builtin_mul_overflow(ceil_div(rows, tile.rows), ceil_div(row.k, tile.columns), &tiles))
      return std::nullopt;  // predicting the row says what overflows
    const std::int64_t blocks = grid_blocks(row);
    if (tiles > 0 && blocks > tiles && blocks % tiles == 0) tile.split = blocks / tiles;
  }
  return tile;
}

std::vector<Kernel> predict_kernels_on_measured_tile(const KernelMeasurement& row, const KernelTimer& timer) {
  const auto tile = measured_gemm_tile(row);
  if (!tile) return {};
  const Graph graph = measured_op_graph(row);
  return lower_op(graph, graph.ops().back(), timer, nullptr, &*tile);
}

double timed_back_to_back_s(const std::vector<Kernel>& kernels, const KernelTimer& timer) {
  return timer.seconds(kernels);
}

double timed_alone_s(const std::vector<Kernel>& kernels, const KernelTimer& timer) {
  return timer.calibration().timing_floor_us * 1e-6 + timed_back_to_back_s(kernels, timer);
}

LongestKernel longest_kernel(const std::vector<Kernel>& kernels, const KernelTimer& timer) {
  LongestKernel longest;
  for (const auto& kernel : kernels) {
    const KernelTime t = timer.time(kernel);
    if (longest.kernel && t.seconds <= longest.time.seconds) continue;
    longest = {&kernel, t};
  }
  return longest;
}

double predict_latency_s(const KernelMeasurement& row, const KernelTimer& timer) {
  return predict_latency_s(row, predict_kernels(row, timer), timer);
}

double predict_latency_s(const KernelMeasurement& row, const std::vector<Kernel>& kernels, const KernelTimer& timer) {
  return row.back_to_back ? timed_back_to_back_s(kernels, timer) : timed_alone_s(kernels, timer);
}

double predict_pair_latency_s(const KernelMeasurement& a, const KernelMeasurement& b, const KernelTimer& timer) {
  Engine engine;
  GpuExecutor gpu(engine, timer.dram_bytes_per_s());
  StreamRuntime runtime(engine, gpu);
  for (const KernelMeasurement* row : {&a, &b}) {
    const int stream = runtime.create_stream();
    for (const auto& kernel : predict_kernels(*row, timer))
      runtime.launch(stream, kernel_work(kernel, timer, timer.time(kernel).clock_mhz));
  }
  engine.schedule_at(0, [&runtime] { runtime.start(); });
  engine.run();
  return static_cast<double>(engine.now()) * 1e-12;
}

double predict_gpu_share(const KernelMeasurement& row, const KernelTimer& timer) {
  double busy_s = 0, share_s = 0;
  for (const auto& kernel : predict_kernels(row, timer)) {
    const KernelTime t = timer.time(kernel);
    const double slots = static_cast<double>(t.blocks_per_sm) * timer.spec().sm_count;
    share_s += t.seconds * std::min(1.0, static_cast<double>(kernel.blocks) / std::max(1.0, slots));
    busy_s += t.seconds;
  }
  return busy_s > 0 ? share_s / busy_s : 1.0;
}

namespace {
// The kernels in a loop at `point`: their energy over their time (each at the clock the firmware gives it).
double loop_power_w(const KernelMeasurement& row, const KernelTimer& timer, const GpuOperatingPoint& point) {
  double joules = 0, seconds = 0;
  for (const auto& kernel : predict_kernels(row, timer)) {
    const KernelTime t = timer.time(kernel, point);
    joules += timer.board_w(kernel, t) * t.seconds;
    seconds += t.seconds;
  }
  return seconds > 0 ? joules / seconds : timer.power().idle_w();
}
}  // namespace

double predict_power_w(const KernelMeasurement& row, const KernelTimer& timer) {
  return loop_power_w(row, timer, GpuOperatingPoint::defaults(timer.spec()));
}

double predict_power_at_boost_w(const KernelMeasurement& row, const KernelTimer& timer) {
  return loop_power_w(row, timer, {timer.spec().boost_clock_mhz, std::numeric_limits<double>::max()});
}

ErrorSummary summarize_errors(const std::vector<double>& errors) {
  ErrorSummary summary;
  summary.rows = errors.size();
  double sum = 0;
  std::size_t within = 0;
  for (const double e : errors) {
    sum += e;
    within += e <= 0.2 ? 1 : 0;
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, errors.size()));
  summary.mape_pct = 100 * sum / n;
  summary.within_20pct = static_cast<double>(within) / n;
  return summary;
}

ErrorTable evaluate(const std::map<std::string, DeviceRows>& devices, const KernelCalibration& calibration) {
  ErrorTable table;
  for (const auto& [name, device] : devices) {
    const KernelTimer timer(device.spec, calibration);
    std::map<std::string, std::vector<double>> errors;
    for (const auto& row : device.rows) {
      const double measured = row.latency_ms * 1e-3;
      errors[row.op].push_back(std::abs(predict_latency_s(row, timer) - measured) / measured);
    }
    for (const auto& [op, list] : errors) table[name][op] = summarize_errors(list);
  }
  return table;
}

TileChoiceReport evaluate_tile_choice(const std::map<std::string, DeviceRows>& devices,
                                      const KernelCalibration& calibration) {
  TileChoiceReport report;
  for (const auto& [name, device] : devices) {
    const KernelTimer timer(device.spec, calibration);
    std::map<std::string, std::vector<double>> own, given;
    for (const auto& row : device.rows) {
      const auto on_tile = predict_kernels_on_measured_tile(row, timer);
      if (on_tile.empty()) continue;
      const double measured = row.latency_ms * 1e-3;
      own[row.op].push_back(std::abs(predict_latency_s(row, timer) - measured) / measured);
      given[row.op].push_back(std::abs(timed_alone_s(on_tile, timer) - measured) / measured);
    }
    for (const auto& [op, list] : own) report.dse_tile[name][op] = summarize_errors(list);
    for (const auto& [op, list] : given) report.measured_tile[name][op] = summarize_errors(list);
  }
  return report;
}

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

std::string kernel_predictions_csv(const std::map<std::string, DeviceRows>& devices,
                                   const KernelCalibration& calibration) {
  std::string csv =
      "device,op,b,m,n,k,measured_ms,predicted_ms,error_pct,measured_kernel,measured_blocks,predicted_kernels,"
      "predicted_blocks,clock_mhz,power_w,measured_tile_predicted_ms,conv,power_at_boost_w,idle_w\n";
  for (const auto& [name, device] : devices) {
    const KernelTimer timer(device.spec, calibration);
    for (const auto& row : device.rows) {
      const auto kernels = predict_kernels(row, timer);
      std::int64_t blocks = 0;
      std::string names;
      for (const auto& kernel : kernels) {
        blocks += kernel.blocks;
        names += (names.empty() ? "" : ";") + kernel.name;
      }
      const LongestKernel longest = longest_kernel(kernels, timer);
      const double clock_mhz = longest.kernel ? longest.time.clock_mhz : 0.0;
      const double predicted_ms = timed_alone_s(kernels, timer) * 1e3;
      const auto on_tile = predict_kernels_on_measured_tile(row, timer);
      const std::string on_tile_ms = on_tile.empty() ? "" : fmt::format("{:.6g}", timed_alone_s(on_tile, timer) * 1e3);
      // A convolution's layer: channels x height x width, filters, kernel, stride, padding, groups.
      std::string conv;
      if (row.conv) {
        const ConvShape& c = *row.conv;
        conv = fmt::format("{}x{}x{} to {} {}x{}/{} pad {} groups {}", c.channels, c.height, c.width, c.out, c.r, c.s,
                           c.stride, c.pad, c.groups);
      }
      csv += fmt::format(
          "{},{},{},{},{},{},{:.6g},{:.6g},{:.2f},{},{},{},{},{:.0f},{:.1f},{},{},{:.1f},{:.1f}\n", name, row.op, row.b,
          row.m, row.n, row.k, row.latency_ms, predicted_ms, 100 * (predicted_ms / row.latency_ms - 1),
          csv_field(row.kernel), grid_blocks(row) > 0 ? std::to_string(grid_blocks(row)) : "", names, blocks, clock_mhz,
          predict_power_w(row, timer), on_tile_ms, conv, predict_power_at_boost_w(row, timer), timer.power().idle_w());
    }
  }
  return csv;
}

}  // namespace dse
