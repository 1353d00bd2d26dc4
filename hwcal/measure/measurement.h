// What a calibration session measures and how: each candidate is one op (a KernelMeasurement row
// without its latency) or two ops run at once on two streams, timed as TVM's measurement discipline
// times a kernel (warm-up runs, then `repeat` repeats of `number` back-to-back launches between two
// device events, `number` grown until a repeat lasts min_repeat_ms; the median per-launch time).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "hwcal/kernel_measurements.h"
#include "models/base/enum_table.h"

namespace dse {

struct MeasureSettings {
  int warmup = 2;             // runs before timing
  int repeat = 5;             // timed repeats; the median is kept
  double min_repeat_ms = 10;  // `number` launches per repeat grow until one repeat lasts this long
  double timeout_s = 4;       // per candidate at one worker (DOPpler's; it grows with the parallelism)
  // dse beyond DOPpler: workers measured at once set up together (process, context, allocations),
  // but take turns on the GPU for their timed runs (a lock they hold from warm-up to the last
  // repeat), so no kernel is timed beside another; `shared` times them all at once as DOPpler does.
  bool exclusive_timing = false;
};

struct Candidate {
  std::string name;  // unique within a session, e.g. "linear fp16 4096x4096x4096"
  KernelMeasurement op;
  std::optional<KernelMeasurement> paired;  // run at the same time on a second stream
  // The zoo models whose ops this candidate's shape comes from (for end-to-end checks).
  std::vector<std::string> models;
  std::size_t occurrences = 1;  // how many times the shape occurs in those models
};

// The launches per repeat that make a repeat last min_repeat_ms (at least one), and the time the
// warm-up runs and the timed repeats of a kernel of `latency_ms` take together.
int launches_per_repeat(double latency_ms, const MeasureSettings& settings);
double timed_runs_s(double latency_ms, const MeasureSettings& settings);

enum class MeasureStatus { ok, failed, timeout };
inline constexpr EnumTable<MeasureStatus, 3> kMeasureStatusNames{{{
    {MeasureStatus::ok, "ok"},
    {MeasureStatus::failed, "failed"},
    {MeasureStatus::timeout, "timeout"},
}}};

struct Measurement {
  MeasureStatus status = MeasureStatus::ok;
  double latency_ms = 0;  // median per launch (ok only); a pair: both kernels, per iteration
  std::vector<double> repeats_ms;
  std::optional<double> power_w;  // the board's mean power while it ran, where observed
  std::string message;            // why it failed
  double device_s = 0;            // the time it held its worker: set-up, warm-up and repeats
};

}  // namespace dse
