// GEMM validation: LLMCompass's measured GEMMs (lines "M, N, K, TIMEms, RATETflops", no header,
// A[M x K] x B[K x N]) against the kernel timing model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/tensor.h"
#include "sim/gpu/gpu_spec.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

struct GemmRow {
  std::int64_t m = 0, n = 0, k = 0;
  double measured_ms = 0;
  double predicted_ms = 0;
  double clock_mhz = 0;  // the clock its longest kernel runs at alone (the power limit's)
  double power_w = 0;    // the board's power while that kernel runs
  double error() const { return predicted_ms / measured_ms - 1; }
};

struct GemmValidation {
  std::vector<GemmRow> rows;
  double clock_mhz = 0;  // the clock the model runs these GEMMs at (sim/gpu/kernel_timer.h)
};

// How a file's rows were timed: each GEMM on its own between two events, as NeuSight and
// LLMCompass time them (the calibration's timing_floor_us added once per row), or as the mean of
// many launches back to back (benchmark loops: each launch costs its kernels' time, no floor).
enum class GemmTiming { alone, back_to_back };

// UserError with FILE:LINE for a malformed line or a non-positive size or time.
GemmValidation predict_llmcompass_gemms(const std::string& file, const GpuSpec& spec, DType dtype,
                                        const KernelCalibration& calibration = {},
                                        GemmTiming timing = GemmTiming::alone);

}  // namespace dse
