#include <gtest/gtest.h>

#include "models/ops/op_library.h"
#include "sim/gpu/gpu_timing_model.h"

namespace dse {
namespace {

// Round numbers so every expectation can be checked by hand.
GpuSpec toy_gpu() {
  GpuSpec spec;
  spec.name = "toy";
  spec.dram_bandwidth_gbps = 1000;            // 1 byte/ps
  spec.cuda_core_tflops = {{"fp32", 10}};     // 10 flop/ps
  spec.tensor_core_tflops = {{"fp16", 100}};  // 100 flop/ps
  // What the power model needs: one SM at 1 GHz reaching the peaks above.
  spec.sm_count = 1;
  spec.base_clock_mhz = spec.boost_clock_mhz = 1000;
  spec.cuda_core_flops_per_clock = {{"fp32", 10000}};
  spec.tensor_core_flops_per_clock = {{"fp16", 100000}};
  spec.tdp_w = 100;
  return spec;
}

std::shared_ptr<const GpuTimingModel> roofline(const GpuSpec& spec) {
  const ConfigNode device = ConfigNode::map({});
  std::vector<HardwareFile> files;
  return GpuTimingRegistry::instance().find("roofline")->factory(spec, {device, "", files, nullptr});
}

}  // namespace

TEST(Roofline, MatrixOpsUseTensorCoresInTheirType) {
  Graph g("gemm");
  const auto x = g.add_input("x", {1024, 1024}, DType::fp16);
  ops::linear(g, "fc", x, 1024);
  const Op& op = g.op(0);
  // flops = 2 * 1024^3 + 1024^2 (bias) = 2,148,532,224 -> at 100 flop/ps: 21,485,323 ps (ceil)
  // bytes = 2 * (1024^2 + 1024^2 + 1024) + 2 * 1024^2 = 6,293,504 -> 6,293,504 ps: compute-bound
  const OpTiming timing = roofline(toy_gpu())->time(g, op);
  EXPECT_EQ(op.cost.flops, 2'148'532'224);
  EXPECT_EQ(timing.duration_ps, 21'485'323);
  EXPECT_EQ(timing.bound, "compute");
}

TEST(Roofline, Fp32MatrixOpsAndVectorOpsUseCudaCores) {
  Graph g("mixed");
  const auto x = g.add_input("x", {1024, 1024}, DType::fp32);
  ops::linear(g, "fc", x, 1024);
  const auto h = g.add_input("h", {1000, 1000}, DType::fp16);
  ops::relu(g, "relu", h);
  const auto model = roofline(toy_gpu());
  // fp32: 2,148,532,224 flops at 10 flop/ps = 214,853,222.4 -> 214,853,223 ps
  EXPECT_EQ(model->time(g, g.op(0)).duration_ps, 214'853'223);
  // relu fp16 on 1e6 elements: 1e6 flops at 10 flop/ps = 1e5 ps; 4e6 bytes at 1 byte/ps = 4e6 ps
  const OpTiming relu = model->time(g, g.op(1));
  EXPECT_EQ(relu.duration_ps, 4'000'000);
  EXPECT_EQ(relu.bound, "memory");
  EXPECT_EQ(model->calibration(), "uncalibrated (datasheet)");
}

TEST(Roofline, ViewsTakeNoTime) {
  Graph g("view");
  ops::flatten(g, "f", g.add_input("x", {2, 3, 4, 4}, DType::fp32));
  const OpTiming timing = roofline(toy_gpu())->time(g, g.op(0));
  EXPECT_EQ(timing.bound, "none");
  EXPECT_LE(timing.duration_ps, 1);
}

}  // namespace dse
