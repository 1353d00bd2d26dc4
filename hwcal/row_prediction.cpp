#include "hwcal/row_prediction.h"

#include <algorithm>
#include <limits>

#include "hwcal/measured_op.h"
#include "sim/gpu/gpu_timing_model.h"
#include "sim/runtime/streams.h"

namespace dse {

double timed_back_to_back_s(const std::vector<Kernel>& kernels, const KernelTimer& timer) {
  return timer.seconds(kernels);
}

double timed_alone_s(const std::vector<Kernel>& kernels, const KernelTimer& timer) {
  return timer.calibration().timing_floor_us * 1e-6 + timed_back_to_back_s(kernels, timer);
}

LongestKernel longest_kernel(const std::vector<Kernel>& kernels, const KernelTimer& timer) {
  LongestKernel longest;
  for (const auto& kernel : kernels) {
    const KernelTime t = timer.time(kernel);
    if (longest.kernel && t.seconds <= longest.time.seconds) continue;
    longest = {&kernel, t};
  }
  return longest;
}

double predict_latency_s(const KernelMeasurement& row, const KernelTimer& timer) {
  return predict_latency_s(row, predict_kernels(row, timer), timer);
}

double predict_latency_s(const KernelMeasurement& row, const std::vector<Kernel>& kernels, const KernelTimer& timer) {
  return row.back_to_back ? timed_back_to_back_s(kernels, timer) : timed_alone_s(kernels, timer);
}

double predict_pair_latency_s(const KernelMeasurement& a, const KernelMeasurement& b, const KernelTimer& timer) {
  Engine engine;
  GpuExecutor gpu(engine, timer.dram_bytes_per_s());
  StreamRuntime runtime(engine, gpu);
  for (const KernelMeasurement* row : {&a, &b}) {
    const int stream = runtime.create_stream();
    for (const auto& kernel : predict_kernels(*row, timer))
      runtime.launch(stream, kernel_work(kernel, timer, timer.time(kernel).clock_mhz));
  }
  engine.schedule_at(0, [&runtime] { runtime.start(); });
  engine.run();
  return static_cast<double>(engine.now()) * 1e-12;
}

double predict_gpu_share(const KernelMeasurement& row, const KernelTimer& timer) {
  double busy_s = 0, share_s = 0;
  for (const auto& kernel : predict_kernels(row, timer)) {
    const KernelTime t = timer.time(kernel);
    const double slots = static_cast<double>(t.blocks_per_sm) * timer.spec().sm_count;
    share_s += t.seconds * std::min(1.0, static_cast<double>(kernel.blocks) / std::max(1.0, slots));
    busy_s += t.seconds;
  }
  return busy_s > 0 ? share_s / busy_s : 1.0;
}

namespace {
// The kernels in a loop at `point`: their energy over their time (each at the clock the firmware gives it).
double loop_power_w(const KernelMeasurement& row, const KernelTimer& timer, const GpuOperatingPoint& point) {
  double joules = 0, seconds = 0;
  for (const auto& kernel : predict_kernels(row, timer)) {
    const KernelTime t = timer.time(kernel, point);
    joules += timer.board_w(kernel, t) * t.seconds;
    seconds += t.seconds;
  }
  return seconds > 0 ? joules / seconds : timer.power().idle_w();
}
}  // namespace

double predict_power_w(const KernelMeasurement& row, const KernelTimer& timer) {
  return loop_power_w(row, timer, GpuOperatingPoint::defaults(timer.spec()));
}

double predict_power_at_boost_w(const KernelMeasurement& row, const KernelTimer& timer) {
  return loop_power_w(row, timer, {timer.spec().boost_clock_mhz, std::numeric_limits<double>::max()});
}

}  // namespace dse
