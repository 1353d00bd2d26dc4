#include "hwcal/backends/board_sampler.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace dse {

// NVML's C interface, declared here (nvml.h is not needed to build): every call returns 0 on
// success; a device is an opaque pointer; NVML_CLOCK_SM is 1; power is in milliwatts.
struct BoardSampler::Nvml {
  using Device = void*;
  void* library = nullptr;
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*handle_by_index)(unsigned, Device*) = nullptr;
  int (*power_usage)(Device, unsigned*) = nullptr;
  int (*clock_info)(Device, int, unsigned*) = nullptr;
  int (*set_locked_clocks)(Device, unsigned, unsigned) = nullptr;
  int (*reset_locked_clocks)(Device) = nullptr;
  Device device = nullptr;

  template <typename F>
  bool load(F& f, const char* name) {
    f = reinterpret_cast<F>(::dlsym(library, name));
    return f != nullptr;
  }
  bool open() {
    library = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) return false;
    const bool loaded = load(init, "nvmlInit_v2") && load(shutdown, "nvmlShutdown") &&
                        load(handle_by_index, "nvmlDeviceGetHandleByIndex_v2") &&
                        load(power_usage, "nvmlDeviceGetPowerUsage") && load(clock_info, "nvmlDeviceGetClockInfo");
    load(set_locked_clocks, "nvmlDeviceSetGpuLockedClocks");
    load(reset_locked_clocks, "nvmlDeviceResetGpuLockedClocks");
    if (!loaded || init() != 0) return false;
    return handle_by_index(0, &device) == 0;
  }
  ~Nvml() {
    if (device) shutdown();
    if (library) ::dlclose(library);
  }
};

namespace {

constexpr int kNvmlClockSm = 1;

// One `nvidia-smi --query-gpu=power.draw,clocks.sm` reading of GPU 0, or nullopt.
std::optional<std::pair<double, double>> nvidia_smi_reading() {
  std::FILE* pipe =
      ::popen("nvidia-smi --id=0 --query-gpu=power.draw,clocks.sm --format=csv,noheader,nounits 2>/dev/null", "r");
  if (!pipe) return std::nullopt;
  char line[256] = {};
  const bool got = std::fgets(line, sizeof line, pipe) != nullptr;
  const int status = ::pclose(pipe);
  if (!got || status != 0) return std::nullopt;
  std::istringstream in(line);
  double power = 0, clock = 0;
  char comma = 0;
  if (!(in >> power >> comma >> clock) || comma != ',') return std::nullopt;
  return std::pair{power, clock};
}

}  // namespace

BoardSampler::BoardSampler() : origin_(std::chrono::steady_clock::now()) {
  auto* nvml = new Nvml;
  if (nvml->open()) {
    nvml_ = nvml;
    source_ = "NVML";
  } else {
    delete nvml;
    if (nvidia_smi_reading()) source_ = "nvidia-smi";
  }
}

BoardSampler::~BoardSampler() {
  stop();
  reset_clocks();
  delete nvml_;
}

std::optional<PowerSample> BoardSampler::read() {
  const auto t =
      std::chrono::duration_cast<std::chrono::duration<TimePs, std::pico>>(std::chrono::steady_clock::now() - origin_)
          .count();
  if (nvml_) {
    unsigned milliwatts = 0, mhz = 0;
    if (nvml_->power_usage(nvml_->device, &milliwatts) != 0 ||
        nvml_->clock_info(nvml_->device, kNvmlClockSm, &mhz) != 0)
      return std::nullopt;
    return PowerSample{t, milliwatts * 1e-3, static_cast<double>(mhz)};
  }
  if (source_ == "nvidia-smi")
    if (const auto reading = nvidia_smi_reading()) return PowerSample{t, reading->first, reading->second};
  return std::nullopt;
}

void BoardSampler::start(double period_s) {
  if (source_ == "none" || running_) return;
  running_ = true;
  thread_ = std::thread([this, period_s] {
    while (running_) {
      if (const auto sample = read()) {
        const std::lock_guard lock(mutex_);
        samples_.push_back(*sample);
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(period_s));
    }
  });
}

void BoardSampler::stop() {
  running_ = false;
  if (thread_.joinable()) thread_.join();
}

std::vector<PowerSample> BoardSampler::take() {
  const std::lock_guard lock(mutex_);
  return std::exchange(samples_, {});
}

bool BoardSampler::lock_clocks(unsigned min_mhz, unsigned max_mhz) {
  if (!nvml_ || !nvml_->set_locked_clocks || nvml_->set_locked_clocks(nvml_->device, min_mhz, max_mhz) != 0)
    return false;
  clocks_locked_ = true;
  return true;
}

void BoardSampler::reset_clocks() {
  if (clocks_locked_ && nvml_ && nvml_->reset_locked_clocks) nvml_->reset_locked_clocks(nvml_->device);
  clocks_locked_ = false;
}

}  // namespace dse
