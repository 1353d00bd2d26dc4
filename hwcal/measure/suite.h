// The kernels a calibration session measures, from the session's `kernels` block:
//
//   kernels:
//     dtypes: [fp16, fp32]               # GEMMs in each (and the models' convolutions in the first)
//     gemm_sizes: [256, 1024, 4096]      # square GEMMs M = N = K
//     models: [resnet50, bert_base]      # every distinct convolution and linear layer of these zoo models
//     batch: 8                           # ... at this batch
//     vector_ops: [add, relu, reduce, ln, softmax]
//     vector_rows: [4096, 65536]         # vector ops over rows x cols elements
//     vector_cols: [256, 4096]
//     launch: true                       # an empty kernel: the launch overhead
//     pairs: 6                           # GEMM + vector op pairs run at once on two streams
//
// Every candidate is one op the kernel timing model can predict (KernelMeasurement rows timed back
// to back), so what a session measures is what the fit and the validation use.
#pragma once

#include <vector>

#include "hwcal/measure/measurement.h"
#include "sim/config/config_node.h"

namespace dse {

// ConfigError at the block's key that is wrong (an unknown model, dtype or op).
std::vector<Candidate> read_kernel_suite(const ConfigNode& kernels, const std::string& device);

}  // namespace dse
