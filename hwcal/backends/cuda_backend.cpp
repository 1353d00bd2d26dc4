// The cuda calibration backend: each candidate measured by its own worker process, dse-measure-cuda
// (hwcal/cuda/measure_worker.cu: cuBLAS GEMMs, cuDNN convolutions, elementwise, reduction,
// layer-norm and softmax kernels, the empty launch, pairs on two streams; timed with CUDA events),
// built beside dse where the CUDA toolkit is found. The board's power and clock come from NVML or
// nvidia-smi (hwcal/backends/board_sampler.h), sampled every 50 ms. Its keys (worker,
// allow_clock_control) and what it does to clocks: docs/calibration.md.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

#include "hwcal/backends/board_sampler.h"
#include "hwcal/backends/worker_process.h"
#include "hwcal/measure/backend.h"
#include "models/base/errors.h"

namespace dse {
namespace {

// The worker's protocol: one request line of KEY=VALUE words on its stdin (op, dtype, b, m, n, k,
// conv=C,H,W,OUT,R,S,STRIDE,PAD,GROUPS, pair.* for a second op, warmup, repeat, min_repeat_ms,
// lock=PATH for exclusive timing); KEY=VALUE lines on its stdout (status=ok|failed, latency_ms,
// repeats_ms=A,B,..., timed_s, message). `--info` answers name, driver, cuda.

// One op's words of a request (`prefix` "pair." for the second op of a pair).
std::string op_words(const KernelMeasurement& m, const std::string& prefix) {
  std::string out = fmt::format("{0}op={1} {0}dtype={2} {0}b={3} {0}m={4} {0}n={5} {0}k={6}", prefix, m.op,
                                dtype_name(m.dtype), m.b, m.m, m.n, m.k);
  if (m.conv) {
    const ConvShape& c = *m.conv;
    out += fmt::format(" {}conv={},{},{},{},{},{},{},{},{}", prefix, c.channels, c.height, c.width, c.out, c.r, c.s,
                       c.stride, c.pad, c.groups);
  }
  return out;
}

// A worker's KEY=VALUE lines.
std::map<std::string, std::string> answer(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (const auto eq = line.find('='); eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
  return out;
}

// `worker`'s default: $DSE_CUDA_WORKER, else dse-measure-cuda beside the running dse.
std::string default_worker() {
  if (const char* env = std::getenv("DSE_CUDA_WORKER")) return env;
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? "dse-measure-cuda" : (self.parent_path() / "dse-measure-cuda").string();
}

class CudaBackend final : public MeasurementBackend {
 public:
  // With allow_clock_control (dse calibrate --allow-clock-control) the SM clock is locked to the
  // spec's base clock for the session and given back to the driver at its end; without it dse never
  // changes a clock or a limit.
  CudaBackend(const ConfigNode& block, const GpuSpec& spec) : spec_(spec) {
    worker_ = block.param<std::string>("worker").with_default(default_worker());
    const bool clock_control = block.param<bool>("allow_clock_control").with_default(false);
    if (::access(worker_.c_str(), X_OK) != 0)
      block.fail(
          "expected the cuda backend's worker, dse-measure-cuda (built beside dse where the CUDA toolkit is "
          "found; or give backend.worker or $DSE_CUDA_WORKER), found no program '" +
          worker_ + "'");
    const WorkerRun info = run_workers(worker_, {"--info"}, {""}, 60).front();
    const auto fields = answer(info.out);
    if (info.exit_code != 0 || !fields.contains("name"))
      block.fail("expected a GPU the worker can use, found none: " + worker_ + " --info: " +
                 (info.timed_out               ? std::string("no answer in 60 s")
                  : fields.contains("message") ? fields.at("message")
                  : info.err.empty()           ? std::string("no output")
                                               : info.err));
    device_ = {fields.at("name"), fields.count("driver") ? fields.at("driver") : "",
               fields.count("cuda") ? fields.at("cuda") : ""};
    const bool named = std::any_of(spec.device_names.begin(), spec.device_names.end(),
                                   [&](const std::string& n) { return device_.name.find(n) != std::string::npos; });
    if (!named)
      block.fail(
          fmt::format("expected a GPU the session's spec ({}) names in its device_names, found a '{}' (give "
                      "the spec of this GPU: --gpu NAME, dse list gpu)",
                      spec.name, device_.name));
    if (const auto idle = sampler_.read()) idle_w_ = idle->power_w;
    if (clock_control &&
        !sampler_.lock_clocks(static_cast<unsigned>(spec.base_clock_mhz), static_cast<unsigned>(spec.base_clock_mhz)))
      block.fail(
          "expected to lock the SM clock (--allow-clock-control: NVML with root or the driver's permission), "
          "found that NVML " +
          std::string(sampler_.source() == "NVML" ? "refused" : "is not available"));
    sampler_.start(0.05);
  }

  static std::vector<KeySpec> declared_keys() {
    return {{"worker", "string", "$DSE_CUDA_WORKER, else dse-measure-cuda beside dse", "",
             "the worker program that measures one kernel (hwcal/cuda/measure_worker.cu)", "build/dse-measure-cuda"},
            {"allow_clock_control", "boolean", "false", "",
             "lock the SM clock to the spec's base clock for the session (NVML; --allow-clock-control)", "true"}};
  }

  DeviceInfo device() const override { return device_; }
  std::optional<double> idle_power_w() override { return idle_w_; }

  std::vector<PowerSample> samples() override {
    collect();
    if (seen_.size() > 4096) seen_.erase(seen_.begin(), seen_.end() - 2048);
    return std::exchange(pending_, {});
  }

  ChunkResult measure(const std::vector<const Candidate*>& chunk, const MeasureSettings& settings) override {
    std::vector<std::string> requests;
    for (const Candidate* c : chunk) {
      std::string request = op_words(c->op, "");
      if (c->paired) request += " " + op_words(*c->paired, "pair.");
      request += fmt::format(" warmup={} repeat={} min_repeat_ms={:g}", settings.warmup, settings.repeat,
                             settings.min_repeat_ms);
      if (settings.exclusive_timing) request += " lock=" + lock_path_;
      requests.push_back(request);
    }
    const auto start = std::chrono::steady_clock::now();
    const auto runs = run_workers(worker_, {}, requests, settings.timeout_s);
    ChunkResult result;
    result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    collect();
    for (const auto& run : runs) {
      Measurement m;
      m.device_s = run.wall_s;
      const auto fields = answer(run.out);
      if (run.timed_out) {
        m.status = MeasureStatus::timeout;
        m.message = fmt::format("no result within the {:g} s timeout", settings.timeout_s);
      } else if (run.exit_code != 0 || !fields.contains("status") || fields.at("status") != "ok") {
        m.status = MeasureStatus::failed;
        m.message = fields.count("message")
                        ? fields.at("message")
                        : fmt::format("the worker exited with {}: {}", run.exit_code, run.err.substr(0, 300));
      } else {
        try {
          m.latency_ms = std::stod(fields.at("latency_ms"));
          std::istringstream repeats(fields.count("repeats_ms") ? fields.at("repeats_ms") : "");
          for (std::string value; std::getline(repeats, value, ',');) m.repeats_ms.push_back(std::stod(value));
          // Alone, the board's mean power over the worker's timed runs (its last timed_s seconds).
          if (chunk.size() == 1 && fields.count("timed_s")) m.power_w = mean_power(std::stod(fields.at("timed_s")));
          if (!(m.latency_ms > 0)) throw std::invalid_argument("not a latency");
        } catch (const std::exception&) {
          m.status = MeasureStatus::failed;
          m.message = "the worker's answer is not a measurement: " + run.out.substr(0, 300);
        }
      }
      result.measurements.push_back(std::move(m));
    }
    return result;
  }

 private:
  void collect() {
    const auto taken = sampler_.take();
    seen_.insert(seen_.end(), taken.begin(), taken.end());
    pending_.insert(pending_.end(), taken.begin(), taken.end());
  }

  std::optional<double> mean_power(double timed_s) {
    if (seen_.empty() || timed_s < 0.2) return std::nullopt;  // NVML averages power over ~100 ms
    const double end = seen_.back().time_s(), begin = end - timed_s;
    double sum = 0;
    int n = 0;
    for (const auto& s : seen_)
      if (s.time_s() >= begin) {
        sum += s.power_w;
        ++n;
      }
    return n >= 3 ? std::optional<double>(sum / n) : std::nullopt;
  }

  GpuSpec spec_;
  std::string worker_;
  // Exclusive timing's lock: the workers of one session take turns on the GPU by it.
  std::string lock_path_ =
      (std::filesystem::temp_directory_path() / ("dse-gpu-turn-" + std::to_string(::getpid()) + ".lock")).string();
  DeviceInfo device_;
  BoardSampler sampler_;
  std::optional<double> idle_w_;
  std::vector<PowerSample> seen_;     // recent samples, for a measurement's mean power
  std::vector<PowerSample> pending_;  // not yet handed to the session
};

}  // namespace

DSE_REGISTER_KEYED(MeasurementBackend, CudaBackend, "cuda",
                   "the machine's GPU: each kernel in a dse-measure-cuda worker process, timed by CUDA events")

}  // namespace dse
