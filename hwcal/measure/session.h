// A calibration session's measurements, DOPpler's way (hwcal/measure/doppler.h): candidates are
// measured in chunks of `dop` at once; failures under parallelism are re-run alone; outliers (the
// double-MAD z-score of log(measured / predicted) over the last 64 parallel measurements) and a
// random remeasure_share of the rest are re-measured alone, keeping the lower latency; the chunk's
// bias (mean (parallel - alone) / parallel over the random sample) corrects the others by (1 - bias)
// when under bias_limit, except candidates slowed unlike the sample (their log(parallel / dse's
// prediction) differs from the sampled candidates' mean by more than bias_limit allows), which are
// measured alone; the controller takes the chunk's error
// (mean |parallel - alone| / alone over the sample) and failure share; a chunk whose bias reaches
// bias_limit is not corrected but measured again alone (its values are not worth keeping). At the
// end the fastest isolate_top_share are re-measured alone.
//
// The session reports its wall time against serial measurement (estimated: each candidate's set-up,
// as measured alone, plus its timed runs) and its error against it (each candidate's: 0 where it was
// measured alone, else its chunk's sample error after correction). With serial_reference every
// candidate is also measured alone afterwards (not counted), for the exact error and serial time.
//
// Every chunk is journaled as it finishes (hwcal/measure/session_journal.h), so an interrupted session
// resumes where it stopped without re-measuring what it had.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hwcal/measure/backend.h"
#include "hwcal/measure/doppler.h"
#include "sim/gpu/kernel_timer.h"
#include "sim/output/jsonl_journal.h"

namespace dse {

struct SessionSettings {
  MeasureSettings measure;
  ParallelSettings parallel;
  std::uint64_t seed = 1;         // the random re-measurement sample
  bool serial_reference = false;  // also measure every candidate alone afterwards
};

struct CandidateResult {
  MeasureStatus status = MeasureStatus::ok;
  std::string message;
  double latency_ms = 0;  // the session's value (ok only)
  std::optional<double> parallel_ms, serial_ms;
  int dop = 1;                // measured at
  bool outlier = false;       // flagged by the z-score, or slowed unlike its chunk's sample
  bool sampled = false;       // in the random re-measurement sample
  bool corrected = false;     // scaled by its chunk's bias
  bool isolated = false;      // re-measured alone as one of the fastest
  double error_estimate = 0;  // its expected error against serial measurement (see above)
  std::optional<double> power_w;
  std::optional<double> reference_ms;  // serial_reference
};

struct ChunkLog {
  int dop = 1;
  std::size_t candidates = 0;
  double error = 0;          // mean |parallel - alone| / alone over the random sample
  double failure_share = 0;  // failed under parallelism
  double bias = 0;
  double wall_s = 0;  // with its re-measurements
};

struct SessionResult {
  DeviceInfo device;
  std::vector<CandidateResult> results;  // one per candidate, in order
  std::vector<ChunkLog> chunks;
  double wall_s = 0;
  double serial_estimate_s = 0;
  double speedup_vs_serial = 1;
  double error_vs_serial_pct = 0;
  std::optional<double> reference_serial_s;   // serial_reference: the serial session's time
  std::optional<double> reference_error_pct;  // and the session's mean error against it
  std::vector<PowerSample> samples;           // the board's sensor readings
  std::optional<double> idle_w;
  bool resumed = false;  // some chunks came from the journal
};

// Called after each chunk: candidates done of total, and the dop that chunk used.
using SessionProgress = std::function<void(std::size_t done, std::size_t total, int dop)>;

// `model` predicts each candidate (the outlier feature); `journal` (null: none) holds the chunks of an
// interrupted run to resume from, and takes each new chunk.
SessionResult run_session(MeasurementBackend& backend, const std::vector<Candidate>& candidates,
                          const SessionSettings& settings, const KernelTimer& model, JsonLinesJournal* journal,
                          const SessionProgress& progress = {});

}  // namespace dse
