// FP32 convolutions on CUDA cores lower to the fastest of cuDNN's forward algorithms
// (sim/gpu/conv_lowering.h): implicit GEMM, never split along the reduction, and for 3 x 3 stride-1
// layers the fused F(2x2, 3x3) and non-fused F(4x4, 3x3) Winograd kernels.
#include <gtest/gtest.h>

#include <string>

#include "models/ops/op_library.h"
#include "sim/gpu/gpu_lowering.h"
#include "sim/gpu/kernel_timer.h"
#include "tests/sim/catalog_gpu.h"

namespace dse {
namespace {

struct Conv {
  Graph graph{"conv"};
  const Op& op() const { return graph.ops().back(); }
};

// One convolution of `n` images of c x size x size onto k filters of r x r.
Conv conv(std::int64_t n, std::int64_t c, std::int64_t size, std::int64_t k, std::int64_t r, std::int64_t stride,
          DType dtype = DType::fp32) {
  Conv out;
  Window window;
  window.kernel_h = window.kernel_w = r;
  window.stride_h = window.stride_w = stride;
  window.pad_h = window.pad_w = r / 2;
  ops::conv2d(out.graph, "conv", out.graph.add_input("x", {n, c, size, size}, dtype), k, window, 1, false);
  return out;
}

bool splits_k(const std::vector<Kernel>& kernels) {
  for (const Kernel& kernel : kernels)
    if (kernel.name.find("splitk") != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(ConvLowering, A3x3Stride1LayerRunsWinogradFasterThanItsImplicitGemm) {
  // ResNet's 3 x 3 layer of 256 channels on 14 x 14, batch 32: Winograd does 4x (F(4x4)) or 2.25x
  // (F(2x2)) fewer multiplies than the direct convolution, and cuDNN's benchmark keeps it.
  const KernelTimer v100(test::catalog_gpu("v100_pcie"), KernelCalibration{});
  const Conv layer = conv(32, 256, 14, 256, 3, 1);
  const auto kernels = lower_op(layer.graph, layer.op(), v100);
  ASSERT_FALSE(kernels.empty());
  EXPECT_EQ(kernels.front().name.rfind("winograd", 0), 0u) << kernels.front().name;
  const auto implicit = lower_gemm(layer.op().gemms[0], "fp32", false, 4, 0, v100, false, nullptr, false);
  EXPECT_LT(v100.seconds(kernels), 0.8 * v100.seconds(implicit));
  // The non-fused algorithm is four launches: filter and data transforms, 36 positions' GEMMs in one
  // batched call, the output transform.
  if (kernels.size() > 1) {
    ASSERT_EQ(kernels.size(), 4u);
    EXPECT_EQ(kernels[1].name, "winograd_data_4x4");
    EXPECT_EQ(kernels[3].name, "winograd_output_4x4");
  } else {
    // The fused kernel: a block per image, 32 filters and 8 x 16 outputs.
    EXPECT_EQ(kernels[0].blocks, 32 * (256 / 32) * 2 * 1);
  }
}

TEST(ConvLowering, OtherLayersRunTheImplicitGemmUnsplit) {
  const KernelTimer v100(test::catalog_gpu("v100_pcie"), KernelCalibration{});
  // A strided 3 x 3 and a 1 x 1 layer: no Winograd; a long reduction onto few outputs, which cuBLAS
  // would split, is not split by cuDNN (grid z = 1 on all of NeuSight's implicit-GEMM rows).
  for (const Conv& layer : {conv(1, 2048, 7, 64, 3, 2), conv(1, 4096, 7, 64, 1, 1)}) {
    const auto kernels = lower_op(layer.graph, layer.op(), v100);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].name.rfind("sgemm_", 0), 0u) << kernels[0].name;
    EXPECT_FALSE(splits_k(kernels)) << kernels[0].name;
    EXPECT_TRUE(splits_k(lower_gemm(layer.op().gemms[0], "fp32", false, 4, 0, v100)));
  }
}

TEST(ConvLowering, TensorCoreConvolutionsKeepTheirGemm) {
  // FP16 on an A100's tensor cores: cuDNN's implicit-GEMM tensor-core kernels, no Winograd.
  const KernelTimer a100(test::catalog_gpu("a100_pcie_40gb"), KernelCalibration{});
  const Conv layer = conv(32, 256, 14, 256, 3, 1, DType::fp16);
  const auto kernels = lower_op(layer.graph, layer.op(), a100);
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name.rfind("hgemm_", 0), 0u) << kernels[0].name;
}

}  // namespace dse
