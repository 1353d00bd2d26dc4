// The kernels cuDNN's forward algorithms launch for an FP32 convolution on CUDA cores, and the
// fastest of them, as cuDNN's benchmark mode (PyTorch's torch.backends.cudnn.benchmark) keeps.
//
// - Implicit GEMM (CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM: *_scudnn_128x64_relu_*): the
//   convolution's im2col GEMM in one kernel, never split along the reduction (grid z is 1 on every
//   one of NeuSight's FP32 rows that ran it).
// - Winograd, fused (CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD: *_scudnn_winograd_128x128_ldg1_ldg4_*):
//   F(2x2, 3x3), 3 x 3 stride-1 layers only. One 256-thread block per image, 32 filters and 8 x 16
//   outputs (NeuSight's V100 grids: B * ceil(K / 32) x ceil(OW / 8) x ceil(OH / 16)), transforming
//   its own input tiles and filters; the 16 Winograd positions are 16 GEMMs over the channels.
// - Winograd, non-fused (CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED: winogradForwardData4x4,
//   winogradForwardFilter4x4, a strided-batched SGEMM with grid z = 36, winogradForwardOutput4x4):
//   F(4x4, 3x3), 3 x 3 stride-1 layers only. The transforms pass through DRAM; the 36 positions are
//   one batched SGEMM of (tiles x C) x (C x K).
// The transforms' arithmetic is the non-zeros of Lavin and Gray's matrices ("Fast Algorithms for
// Convolutional Neural Networks", CVPR 2016, arXiv:1509.09308, section 4) applied on both sides of
// each tile, one multiply-add each.
#pragma once

#include <functional>
#include <vector>

#include "models/graph.h"
#include "sim/gpu/kernel.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

// Lowers one GEMM as cuBLAS would (gpu_lowering.h's lower_gemm, through its cache): the GEMM, whether
// it is one strided-batched call, whether its K may be split, and operand bytes beyond A, B and C.
using GemmLowerer =
    std::function<std::vector<Kernel>(const GemmView& gemm, bool strided_batched, bool split_k, double extra_bytes)>;

// The fastest of cuDNN's algorithms for `op`, an FP32 conv2d on CUDA cores (Winograd only for 3 x 3,
// stride 1, undilated, ungrouped layers). `extra_bytes`: the op's traffic beyond its im2col GEMM's
// operands, as lower_op counts it for the implicit GEMM.
std::vector<Kernel> lower_simt_conv2d(const Graph& graph, const Op& op, const KernelTimer& timer,
                                      const GemmLowerer& lower_gemm, double extra_bytes);

}  // namespace dse
