// The kernels cuDNN's forward algorithms launch for an FP32 convolution on CUDA cores, and the
// fastest of them, as cuDNN's benchmark mode (PyTorch's torch.backends.cudnn.benchmark) keeps
// (CUDNN_CONVOLUTION_FWD_ALGO_*):
// - IMPLICIT_PRECOMP_GEMM (*_scudnn_128x64_relu_*): the im2col GEMM in one kernel, K never split;
// - WINOGRAD (*_scudnn_winograd_128x128_ldg1_ldg4_*): fused F(2x2, 3x3), 3 x 3 stride-1 layers;
// - WINOGRAD_NONFUSED (winogradForward{Data,Filter,Output}4x4 around one strided-batched SGEMM,
//   (tiles x C) x (C x K), of the 36 positions): F(4x4, 3x3), 3 x 3 stride-1 layers, the
//   transforms through DRAM.
// conv_lowering.cpp gives each algorithm's blocks and transform arithmetic (Lavin and Gray, CVPR
// 2016); docs/validation.md ("Out of sample: NeuSight's convolutions") the kernels NeuSight measured.
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
