#include "sim/gpu/conv_lowering.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "models/ops/op_factory.h"

namespace dse {
namespace {

constexpr double kFloatBytes = 4;

// Multiply-adds of X^T d X for an a x b transform matrix X^T with `nonzeros` non-zeros, d b x b (or
// b x c for the filter's c x c kernel): X^T d costs nonzeros x columns of d, the product times X
// nonzeros x a. Lavin and Gray's matrices (arXiv:1509.09308): F(2x2, 3x3) B^T 4 x 4 with 8
// non-zeros, G 4 x 3 with 8, A^T 2 x 4 with 6; F(4x4, 3x3) B^T 6 x 6 with 22, G 6 x 3 with 14,
// A^T 4 x 6 with 18.
constexpr double transform_macs(double nonzeros, double rows_out, double columns_of_d) {
  return nonzeros * columns_of_d + nonzeros * rows_out;
}
constexpr double kF2DataMacs = transform_macs(8, 4, 4);     // 64 per 4 x 4 input tile and channel
constexpr double kF2FilterMacs = transform_macs(8, 4, 3);   // 56 per filter and channel
constexpr double kF2OutputMacs = transform_macs(6, 2, 4);   // 36 per 2 x 2 output tile and filter
constexpr double kF4DataMacs = transform_macs(22, 6, 6);    // 264 per 6 x 6 input tile and channel
constexpr double kF4FilterMacs = transform_macs(14, 6, 3);  // 126 per filter and channel
constexpr double kF4OutputMacs = transform_macs(18, 4, 6);  // 180 per 4 x 4 output tile and filter

// An algorithm's kernels one after another; one that lowers to nothing is never the fastest.
double seconds_of(const std::vector<Kernel>& kernels, const KernelTimer& timer) {
  return kernels.empty() ? std::numeric_limits<double>::infinity() : timer.seconds(kernels);
}

// A memory-bound transform pass: PyTorch-style elementwise geometry (128 threads, 4 outputs each).
Kernel transform_kernel(const char* name, double outputs, double macs, double read_bytes) {
  Kernel kernel;
  kernel.name = name;
  kernel.threads_per_block = 128;
  kernel.registers_per_thread = 32;
  kernel.blocks = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(outputs / 512)));
  kernel.flops = 2 * macs;
  kernel.dram_bytes = read_bytes + kFloatBytes * outputs;
  kernel.compute_type = "fp32";
  return kernel;
}

}  // namespace

std::vector<Kernel> lower_simt_conv2d(const Graph& graph, const Op& op, const KernelTimer& timer,
                                      const GemmLowerer& lower_gemm, double extra_bytes) {
  std::vector<Kernel> best = lower_gemm(op.gemms.at(0), false, false, extra_bytes);  // implicit GEMM
  double best_seconds = seconds_of(best, timer);
  const auto consider = [&](std::vector<Kernel> kernels) {
    const double seconds = seconds_of(kernels, timer);
    if (seconds < best_seconds) {
      best_seconds = seconds;
      best = std::move(kernels);
    }
  };

  const Window w = ops::recorded_window(op);
  const bool winograd_layer = w.kernel_h == 3 && w.kernel_w == 3 && w.stride_h == 1 && w.stride_w == 1 &&
                              w.dilation_h == 1 && w.dilation_w == 1 && ops::recorded_groups(op) == 1 &&
                              op.inputs.size() == 1;
  if (!winograd_layer) return best;
  const Shape& in = graph.tensor(op.inputs[0]).shape;
  const Shape& out = graph.tensor(op.output).shape;
  if (in.size() != 4 || out.size() != 4) return best;
  const double n = static_cast<double>(in[0]), c = static_cast<double>(in[1]);
  const double input_bytes = kFloatBytes * n * c * static_cast<double>(in[2]) * static_cast<double>(in[3]);
  const double k = static_cast<double>(out[1]), oh = static_cast<double>(out[2]), ow = static_cast<double>(out[3]);
  const double filter_bytes = kFloatBytes * k * c * 9, output_bytes = kFloatBytes * n * k * oh * ow;
  // The 36 positions' GEMMs must stay countable (the direct GEMM's MACs already are; F(4x4) can do
  // up to 4x as many on tiny outputs).
  const double tiles4 = n * std::ceil(oh / 4) * std::ceil(ow / 4);
  if (36 * tiles4 * c * k > 1e18) return best;

  // Fused F(2x2, 3x3): a block is 32 filters x (8 x 16 outputs = 32 tiles of 2 x 2), 16 positions,
  // 256 threads holding 64 accumulators each (an 8 x 8-output SGEMM tile's register budget).
  {
    Kernel fused;
    fused.name = "winograd_fused_2x2_32x128";
    fused.threads_per_block = 256;
    fused.registers_per_thread = 128;
    fused.shared_bytes_per_block = 2 * (128 + 128) * 8 * 4;  // as the 128 x 128 SGEMM tile of its name
    const double blocks = n * std::ceil(k / 32) * std::ceil(ow / 8) * std::ceil(oh / 16);
    fused.blocks = static_cast<std::int64_t>(blocks);
    // Each SIMT main-loop step of an 8 x 8 thread tile: 64 FFMAs in 64.75 issue slots (lower_gemm).
    const double gemm_macs = blocks * 16 * 32 * 32 * c * (64 + 0.75) / 64;
    const double transform = blocks * (32 * c * kF2DataMacs + 32 * c * kF2FilterMacs + 32 * 32 * kF2OutputMacs);
    fused.flops = 2 * (gemm_macs + transform);
    fused.dram_bytes = input_bytes + filter_bytes + output_bytes;
    fused.store_bytes = output_bytes;
    fused.compute_type = "fp32";
    fused.matrix = true;
    consider({fused});
  }
  // Non-fused F(4x4, 3x3): filters and input tiles transformed into DRAM, 36 GEMMs in one batched
  // call, the products transformed back.
  {
    std::vector<Kernel> passes;
    passes.push_back(transform_kernel("winograd_filter_4x4", 36 * k * c, k * c * kF4FilterMacs, filter_bytes));
    passes.push_back(transform_kernel("winograd_data_4x4", 36 * tiles4 * c, tiles4 * c * kF4DataMacs, input_bytes));
    const GemmView positions{36, static_cast<std::int64_t>(tiles4), static_cast<std::int64_t>(k),
                             static_cast<std::int64_t>(c)};
    const std::vector<Kernel> gemm = lower_gemm(positions, true, false, 0);
    if (gemm.empty()) return best;
    passes.insert(passes.end(), gemm.begin(), gemm.end());
    Kernel output = transform_kernel("winograd_output_4x4", n * k * oh * ow, tiles4 * k * kF4OutputMacs,
                                     kFloatBytes * 36 * tiles4 * k);
    passes.push_back(output);
    consider(std::move(passes));
  }
  return best;
}

}  // namespace dse
