// The simulated calibration backend: candidates "measured" on dse's own GPU model with a true
// calibration of its own (`truth`, KernelCalibration's fields: what the session should recover),
// so that the measurement engine, the DOPpler controller and the fit are tested without a GPU.
//
//   backend: {name: simulated, truth: {gemm_efficiency: 0.85}, noise_pct: 1, interference_pct: 2,
//             outlier_rate: 0.02, failure_rate: 0.002, setup_ms: 150, fail: [NAME], hang: [NAME], seed: 1,
//             sharing: auto}
//
// A candidate alone takes its true latency times a lognormal noise (noise_pct). Measured with d - 1
// others at once, each worker first sets up (0.5-1.5 x setup_ms: process, context, allocations; an
// assumption, not a measurement), then runs its timed repeats (measurement.h's discipline); the
// workers' timed loops share the GPU as a device's passes do (sim/runtime/shared_resource.h, under
// the rule `sharing` names, Sharing::passes: by default proportional to the share of the GPU's
// block slots each loop's kernels fill alone), and each is slowed by as much as that stretches its
// window. On top, each
// other worker adds interference_pct % at random (0 to twice that: caches and DRAM), a measurement
// is an outlier (1.5-3x) with probability outlier_rate (d - 1) / d, and a candidate fails (out of
// memory, a lost context) with probability failure_rate (d - 1). Names in `fail` always fail and
// in `hang` never finish. The chunk lasts as long as its slowest worker. The board (one
// BoardPower over the session) draws idle while the workers set up and idle plus each candidate's
// dynamic power (the power model at the truth) over its slowdown while they loop, at most the TDP;
// its sensor is read every 100 ms of session time.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>

#include "hwcal/measure/backend.h"
#include "hwcal/measured_op.h"
#include "hwcal/row_prediction.h"
#include "models/base/did_you_mean.h"
#include "sim/gpu/kernel_calibration_io.h"
#include "sim/metrics/board_power.h"
#include "sim/runtime/shared_resource.h"

namespace dse {
namespace {

class SimulatedBackend final : public MeasurementBackend {
 public:
  SimulatedBackend(const ConfigNode& block, const GpuSpec& spec)
      : spec_(spec), timer_(spec, read_truth(block)), sharing_(read_sharing(block).passes) {
    noise_ = block.param<double>("noise_pct").in_range(0, 100).with_default(1.0) / 100;
    interference_ = block.param<double>("interference_pct").in_range(0, 1000).with_default(2.0) / 100;
    outlier_rate_ = block.param<double>("outlier_rate").in_range(0, 1).with_default(0.02);
    failure_rate_ = block.param<double>("failure_rate").in_range(0, 1).with_default(0.002);
    setup_s_ = block.param<double>("setup_ms").in_range(0, 1e6).with_default(150) * 1e-3;
    rng_.seed(static_cast<std::uint64_t>(block.param<std::int64_t>("seed").in_range(0, INT64_MAX).with_default(1)));
    for (const char* key : {"fail", "hang"})
      if (const ConfigNode* names = block.find(key))
        for (const auto& name : names->items()) {
          (key[0] == 'f' ? fail_ : hang_).insert(name.as<std::string>());
          planted_.push_back(name);
        }
  }

  // A planted name that matches no kernel would plant nothing: an error listing the closest names.
  void check_candidates(const std::vector<Candidate>& candidates) const override {
    std::vector<std::string> names;
    for (const Candidate& c : candidates) names.push_back(c.name);
    for (const ConfigNode& item : planted_) {
      const std::string name = item.as<std::string>();
      if (std::find(names.begin(), names.end(), name) != names.end()) continue;
      std::vector<std::string> closest = names;
      std::stable_sort(closest.begin(), closest.end(), [&name](const std::string& a, const std::string& b) {
        return edit_distance(name, a) < edit_distance(name, b);
      });
      const std::size_t shown = std::min<std::size_t>(closest.size(), 8);
      closest.resize(shown);
      item.fail(fmt::format("expected the name of one of the session's {} kernels (the closest: {}{}), found '{}'{}",
                            names.size(), join_names(closest), names.size() > shown ? ", ..." : "", name,
                            did_you_mean_suffix(name, names)));
    }
  }

  static std::vector<KeySpec> declared_keys() {
    return {{"truth", "mapping", "the default calibration", "",
             "the GPU's true calibration, a calibration file's parameters: what the fit should recover",
             "{gemm_efficiency: 0.85}"},
            sharing_key("how the workers' timed loops share the GPU"),
            {"noise_pct", "number", "1", "%", "the lognormal noise of each timed repeat (0 to 100)", "2"},
            {"interference_pct", "number", "2", "%",
             "each other worker slows a measurement by 0 to twice this, at random (0 to 1,000)", "5"},
            {"outlier_rate", "number", "0.02", "",
             "the chance of an outlier (1.5-3x) among d workers at once is this x (d - 1) / d", "0.05"},
            {"failure_rate", "number", "0.002", "", "the chance a candidate fails, per other worker beside it", "0.01"},
            {"setup_ms", "number", "150", "ms",
             "a worker's set-up (0.5-1.5x this): process, CUDA context, allocations (an assumption)", "100"},
            {"seed", "integer", "1", "", "the seed of the noise, interference, outliers and failures", "7"},
            {"fail", "list of strings", "none", "", "candidates that always fail (planted failures)",
             "[\"add fp16 8x64\"]"},
            {"hang", "list of strings", "none", "", "candidates that never finish (they time out)",
             "[\"softmax fp16 16x256\"]"}};
  }

  DeviceInfo device() const override { return {spec_.display_name + " (simulated)", "", ""}; }

  std::optional<double> idle_power_w() override { return timer_.power().idle_w(); }

  std::vector<PowerSample> samples() override { return std::exchange(samples_, {}); }

  ChunkResult measure(const std::vector<const Candidate*>& chunk, const MeasureSettings& settings) override {
    const double d = static_cast<double>(chunk.size());
    std::lognormal_distribution<double> noise(0, noise_);
    std::uniform_real_distribution<double> uniform(0, 1);
    // Each worker's set-up takes 0.5-1.5 x setup_ms, then it runs its timed repeats: the windows in
    // which workers use the GPU overlap in part.
    std::vector<double> begin, end;
    for (const Candidate* c : chunk) {
      begin.push_back(setup_s_ * (0.5 + uniform(rng_)));
      end.push_back(begin.back() + timed_runs_s(truth(*c).latency_s * 1e3, settings));
    }
    if (settings.exclusive_timing) {
      // Taking turns on the GPU in the order their set-ups finish: no two timed windows overlap.
      std::vector<std::size_t> order(chunk.size());
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return begin[a] < begin[b]; });
      double free_at = 0;
      for (const std::size_t k : order) {
        const double length = end[k] - begin[k];
        begin[k] = std::max(begin[k], free_at);
        end[k] = free_at = begin[k] + length;
      }
    }
    const std::vector<double> contention = loop_slowdowns(chunk, begin, end);
    ChunkResult result;
    double timed_s = 0, power_w = timer_.power().idle_w();
    for (std::size_t k = 0; k < chunk.size(); ++k) {
      const Candidate* c = chunk[k];
      const Truth& t = truth(*c);
      Measurement m;
      if (hang_.contains(c->name)) {
        m.status = MeasureStatus::timeout;
        m.message = fmt::format("no result within the {:g} s timeout", settings.timeout_s);
        m.device_s = settings.timeout_s;
      } else if (fail_.contains(c->name) || uniform(rng_) < failure_rate_ * (d - 1)) {
        m.status = MeasureStatus::failed;
        m.message = fail_.contains(c->name) ? "the kernel failed to launch (a planted failure)"
                                            : "the worker lost its CUDA context (out of memory beside " +
                                                  std::to_string(chunk.size() - 1) + " others)";
        m.device_s = begin[k];
      } else {
        // Taking turns on the GPU, the others only set up meanwhile (host work): no interference,
        // and a fifth of the outliers (host-side jitter).
        const double others = settings.exclusive_timing ? 0 : d - 1;
        const double outlier_rate = outlier_rate_ * (d - 1) / d * (settings.exclusive_timing ? 0.2 : 1.0);
        double slowdown = contention[k] * (1 + interference_ * others * 2 * uniform(rng_));
        if (uniform(rng_) < outlier_rate) slowdown *= 1.5 + 1.5 * uniform(rng_);
        const double latency_ms = t.latency_s * 1e3 * slowdown;
        for (int r = 0; r < settings.repeat; ++r) m.repeats_ms.push_back(latency_ms * noise(rng_));
        std::vector<double> sorted = m.repeats_ms;
        std::sort(sorted.begin(), sorted.end());
        m.latency_ms = sorted[sorted.size() / 2];
        m.device_s = settings.exclusive_timing ? end[k] : begin[k] + timed_runs_s(latency_ms, settings);
        if (chunk.size() == 1) m.power_w = t.power_w * noise(rng_);
        timed_s = std::max(timed_s, m.device_s - begin[k]);
        power_w += (t.power_w - timer_.power().idle_w()) / slowdown;
      }
      result.wall_s = std::max(result.wall_s, m.device_s);
      result.measurements.push_back(std::move(m));
    }
    const double clock_mhz = truth(*chunk.front()).clock_mhz, idle_w = timer_.power().idle_w();
    const double loops_end = std::min(clock_s_ + setup_s_ + timed_s, clock_s_ + result.wall_s);
    board_at(clock_s_, idle_w, clock_mhz);
    board_at(std::min(clock_s_ + setup_s_, loops_end), std::min(power_w, spec_.tdp_w), clock_mhz);
    board_at(loops_end, idle_w, clock_mhz);
    clock_s_ += result.wall_s;
    board_at(clock_s_, idle_w, clock_mhz);
    return result;
  }

 private:
  struct Truth {
    double latency_s = 0;   // per launch (a pair: both finished)
    double share = 1;       // of the GPU's block slots its kernels fill alone, time-weighted
    double dram_bytes = 0;  // per launch
    double power_w = 0;     // the board while it runs in a loop
    double clock_mhz = 0;
  };

  // How much longer each worker's timed window [begin, end) (seconds, as it would run alone) lasts
  // beside the others' on the GPU: the windows run as works on the shared device from their starts.
  std::vector<double> loop_slowdowns(const std::vector<const Candidate*>& chunk, const std::vector<double>& begin,
                                     const std::vector<double>& end) {
    Engine engine;
    SharedResource gpu(engine, sharing_, timer_.dram_bytes_per_s());
    std::vector<double> slowdown(chunk.size(), 1.0);
    for (std::size_t k = 0; k < chunk.size(); ++k) {
      const Truth& t = truth(*chunk[k]);
      const TimePs solo_ps = checked_ps((end[k] - begin[k]) * 1e12, "a timed window");
      if (solo_ps <= 0) continue;
      const double launches = t.latency_s > 0 ? (end[k] - begin[k]) / t.latency_s : 0;
      const SharedResource::Work work{solo_ps, t.share, t.dram_bytes * launches, 0, 0};
      engine.schedule_at(checked_ps(begin[k] * 1e12, "a worker's start"), [&gpu, &slowdown, work, k] {
        gpu.start(work, [&slowdown, work, k](TimePs start, TimePs finish) {
          slowdown[k] = std::max(1.0, static_cast<double>(finish - start) / static_cast<double>(work.solo_ps));
        });
      });
    }
    engine.run();
    return slowdown;
  }

  // The sensor's readings up to `time_s` (session time), then the board from there on.
  void board_at(double time_s, double power_w, double clock_mhz) {
    const TimePs now = checked_ps(time_s * 1e12, "the simulated session's time");
    for (TimePs at; (at = (readings_ + 1) * kSensorPeriodPs) <= now; ++readings_)
      samples_.push_back(board_.read_sensor(at));
    board_.set(now, power_w, clock_mhz);
  }

  static KernelCalibration read_truth(const ConfigNode& block) {
    const ConfigNode* truth = block.find("truth");
    if (!truth) return {};
    // The truth block is a calibration's parameters: read as a calibration file's are.
    ConfigNode file = ConfigNode::map(truth->mark());
    file.set("calibration", ConfigNode::scalar("kernel_timer", false, truth->mark()), truth->mark());
    file.set("parameters", *truth, truth->mark());
    const KernelCalibration calibration = read_kernel_calibration(file);  // checks the copy's keys
    for (const auto& key : truth->keys()) truth->find(key);               // so the original's are read
    return calibration;
  }

  const Truth& truth(const Candidate& c) {
    if (const auto it = truths_.find(c.name); it != truths_.end()) return it->second;
    Truth t;
    t.share = predict_gpu_share(c.op, timer_);
    for (const auto& kernel : predict_kernels(c.op, timer_)) {
      t.clock_mhz = timer_.time(kernel).clock_mhz;
      t.dram_bytes += kernel.dram_bytes;
    }
    t.latency_s = c.paired ? predict_pair_latency_s(c.op, *c.paired, timer_) : predict_latency_s(c.op, timer_);
    t.power_w = predict_power_w(c.op, timer_);
    return truths_.emplace(c.name, t).first->second;
  }

  GpuSpec spec_;
  KernelTimer timer_;
  std::shared_ptr<const SharingRule> sharing_;
  double noise_ = 0.01, interference_ = 0.02, outlier_rate_ = 0.02, failure_rate_ = 0.002, setup_s_ = 0.15;
  std::set<std::string> fail_, hang_;
  std::vector<ConfigNode> planted_;  // the names in fail and hang, for check_candidates
  std::mt19937_64 rng_;
  std::map<std::string, Truth> truths_;
  static constexpr TimePs kSensorPeriodPs = 100'000'000'000;  // 100 ms, as NVML averages power
  BoardPower board_;
  std::int64_t readings_ = 0;  // the sensor's, so far
  std::vector<PowerSample> samples_;
  double clock_s_ = 0;  // simulated time since the session started
};

}  // namespace

DSE_REGISTER_KEYED(MeasurementBackend, SimulatedBackend, "simulated",
                   "dse's GPU model at a true calibration, with noise, interference and faults (no GPU needed)")

}  // namespace dse
