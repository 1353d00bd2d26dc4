// The board's power and SM clock while a calibration session runs, as the driver reports them:
// NVML (libnvidia-ml.so.1, loaded at run time so dse needs no NVIDIA library to build or start),
// else `nvidia-smi --query-gpu`, else nothing. It only reads, except lock_clocks(), which the cuda
// backend calls only under --allow-clock-control.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "hwcal/measure/backend.h"

namespace dse {

class BoardSampler {
 public:
  BoardSampler();
  ~BoardSampler();
  BoardSampler(const BoardSampler&) = delete;
  BoardSampler& operator=(const BoardSampler&) = delete;

  std::string source() const { return source_; }  // "NVML", "nvidia-smi" or "none"
  // One reading now (nullopt without a source).
  std::optional<PowerSample> read();
  // Samples every `period_s` on a thread until stop(); take() returns those taken since the last call.
  void start(double period_s);
  void stop();
  std::vector<PowerSample> take();
  // NVML only: the GPU's SM clock held between min and max MHz (nvmlDeviceSetGpuLockedClocks), and
  // back to the driver's control; false where it cannot (no NVML, no permission).
  bool lock_clocks(unsigned min_mhz, unsigned max_mhz);
  void reset_clocks();

 private:
  struct Nvml;
  std::string source_ = "none";
  Nvml* nvml_ = nullptr;
  std::chrono::steady_clock::time_point origin_;
  std::thread thread_;
  std::atomic<bool> running_{false};
  std::mutex mutex_;
  std::vector<PowerSample> samples_;
  bool clocks_locked_ = false;
};

}  // namespace dse
