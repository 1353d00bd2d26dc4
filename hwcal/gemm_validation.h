// GEMM validation: LLMCompass's measured GEMMs (lines "M, N, K, TIMEms, RATETflops", no header,
// A[M x K] x B[K x N]) against the kernel timing model, each GEMM timed on its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/tensor.h"
#include "sim/gpu/gpu_spec.h"

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

// UserError with FILE:LINE for a malformed line or a non-positive size or time.
GemmValidation predict_llmcompass_gemms(const std::string& file, const GpuSpec& spec, DType dtype);

}  // namespace dse
