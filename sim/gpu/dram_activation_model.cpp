#include "sim/gpu/dram_activation_model.h"

#include <algorithm>
#include <cmath>

namespace dse {
namespace {

// Activations for `rows` rows `row_bytes` apart, each read one sector per k step along its length:
// rows a row span or more apart cost one per sector; shorter rows lie span / row_bytes to a span,
// and the rows a step reads in one span share its activation.
double strided_activations(double rows, double row_bytes, double span_bytes) {
  const double sectors = std::ceil(row_bytes / kDramSectorBytes);
  return rows * sectors * std::min(1.0, row_bytes / span_bytes);
}

}  // namespace

double dram_activations(const Kernel& kernel, const DramActivationWindow& dram) {
  const Kernel::GemmFootprint& f = kernel.gemm_footprint;
  if (f.k <= 0 || f.m <= 0 || f.n <= 0) return 0;
  // A GEMM of at most 16 rows runs cuBLAS's small-N kernel (gemmSN_TN_kernel<float, 128, 16, ...>
  // in public PyTorch profiles of 16-token and batch-4 linear layers), a GEMV-like loop whose
  // warps read each row along the reduction in wide loads: its traffic streams. (NeuSight's P4
  // traces time BERT's pooler, 8 and 16 rows x 1,024 x 1,024, at 63 and 90 us, its 4 MB of
  // weights at 120 GB/s or more; one activation per sector would take 98 us.)
  if (f.m <= kSmallNRows) return kernel.dram_bytes / dram.row_span_bytes;
  const double a_rows = static_cast<double>(f.matrices * f.m);
  double activations = strided_activations(a_rows, f.a_row_bytes(), dram.row_span_bytes);
  double strided_bytes = a_rows * f.a_row_bytes();
  if (f.b_transposed) {
    const double b_rows = static_cast<double>((f.b_batched ? f.matrices : 1) * f.n);
    activations += strided_activations(b_rows, f.b_row_bytes(), dram.row_span_bytes);
    strided_bytes += b_rows * f.b_row_bytes();
  }
  // B read row by row, C and the split-K partials: streams, a row span per activation.
  return activations + std::max(0.0, kernel.dram_bytes - strided_bytes) / dram.row_span_bytes;
}

}  // namespace dse
