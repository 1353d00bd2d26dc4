#include "hwcal/gemm_validation.h"

#include <sstream>

#include "hwcal/row_prediction.h"
#include "models/base/errors.h"
#include "models/base/input_file.h"
#include "models/ops/op_library.h"
#include "sim/gpu/gpu_lowering.h"

namespace dse {

GemmValidation predict_llmcompass_gemms(const std::string& file, const GpuSpec& spec, DType dtype,
                                        const KernelCalibration& calibration, GemmTiming timing) {
  std::istringstream in(read_input_file(file, kMaxTextInputBytes, "a GEMM measurement file"));
  const KernelTimer timer(spec, calibration);
  GemmValidation out;
  out.clock_mhz = timer.gemm_clock_mhz(std::string(dtype_name(dtype)));
  int line_number = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::stringstream fields(line);
    std::string m, n, k, time;
    std::getline(fields, m, ',');
    std::getline(fields, n, ',');
    std::getline(fields, k, ',');
    std::getline(fields, time, ',');
    GemmRow row;
    try {
      row.m = std::stoll(m);
      row.n = std::stoll(n);
      row.k = std::stoll(k);
      row.measured_ms = std::stod(time);  // "0.1900ms": the number, then the unit
    } catch (const std::exception&) {
      throw UserError(file + ":" + std::to_string(line_number) + ": expected 'M, N, K, TIMEms, ...', found '" + line +
                      "'");
    }
    if (row.m < 1 || row.n < 1 || row.k < 1 || !(row.measured_ms > 0))
      throw UserError(file + ":" + std::to_string(line_number) + ": expected positive sizes and time, found '" + line +
                      "'");
    Graph graph("gemm");
    const auto a = graph.add_input("a", {row.m, row.k}, dtype);
    const auto b = graph.add_input("b", {row.k, row.n}, dtype);
    ops::matmul(graph, "gemm", a, b);
    const std::vector<Kernel> kernels = lower_op(graph, graph.ops().back(), timer);
    row.predicted_ms =
        1e3 * (timing == GemmTiming::alone ? timed_alone_s(kernels, timer) : timed_back_to_back_s(kernels, timer));
    if (const LongestKernel longest = longest_kernel(kernels, timer); longest.kernel) {
      row.clock_mhz = longest.time.clock_mhz;
      row.power_w = timer.board_w(*longest.kernel, longest.time);
    }
    out.rows.push_back(row);
  }
  return out;
}

}  // namespace dse
