// What the kernel timing model predicts for a measured row (hwcal/kernel_measurements.h): its
// latency as the harness that measured it times it (one op alone with the harness's floor, or many
// launches back to back), two rows launched together on two streams, the share of the GPU it fills,
// and the board power it draws.
#pragma once

#include <vector>

#include "hwcal/kernel_measurements.h"
#include "sim/gpu/kernel.h"
#include "sim/gpu/kernel_timer.h"

namespace dse {

// What a harness that times one op on its own measures for `kernels`: its timing floor once,
// plus each kernel's time. Every validation against isolated-op measurements goes through here.
double timed_alone_s(const std::vector<Kernel>& kernels, const KernelTimer& timer);
// What a loop of many launches between two events measures per launch: each kernel's time, no floor.
double timed_back_to_back_s(const std::vector<Kernel>& kernels, const KernelTimer& timer);
// The longest of `kernels` with its time (the clock a validation reports for a row is its); null for none.
struct LongestKernel {
  const Kernel* kernel = nullptr;
  KernelTime time;
};
LongestKernel longest_kernel(const std::vector<Kernel>& kernels, const KernelTimer& timer);
// Predicted latency (seconds) of one measured row: timed_alone_s of its kernels for a row timed on
// its own, their sum for one timed back to back.
double predict_latency_s(const KernelMeasurement& row, const KernelTimer& timer);
// The same for the row's kernels already lowered (predict_kernels).
double predict_latency_s(const KernelMeasurement& row, const std::vector<Kernel>& kernels, const KernelTimer& timer);
// Two rows' kernels launched together on two streams, as the GPU model shares the GPU between
// them (sim/runtime/gpu_executor.h): seconds until both have finished.
double predict_pair_latency_s(const KernelMeasurement& a, const KernelMeasurement& b, const KernelTimer& timer);
// The share of the GPU's block slots the row's kernels fill alone, time-weighted (1: it fills the GPU).
double predict_gpu_share(const KernelMeasurement& row, const KernelTimer& timer);
// The board power (W) the row's kernels draw in a loop.
double predict_power_w(const KernelMeasurement& row, const KernelTimer& timer);
// The board power (W) they would draw in a loop at the boost clock with no power limit holding them.
double predict_power_at_boost_w(const KernelMeasurement& row, const KernelTimer& timer);

}  // namespace dse
