// A calibration session's measurements, DOPpler's way (hwcal/measure/doppler.h): candidates measured
// in chunks of `dop` at once, checked against re-measurements alone (failures, outliers, a random
// sample), corrected by the chunk's bias or measured again alone, the fastest re-measured alone at
// the end. Each chunk is journaled as it finishes (hwcal/measure/session_journal.h), so an
// interrupted session resumes without re-measuring what it had. The rules step by step:
// docs/calibration.md ("Measuring in parallel, as DOPpler does").
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
  bool serial_reference = false;  // also measure every candidate alone afterwards (not counted)
};

struct CandidateResult {
  MeasureStatus status = MeasureStatus::ok;
  std::string message;
  double latency_ms = 0;  // the session's value (ok only)
  std::optional<double> parallel_ms, serial_ms;
  int dop = 1;  // measured at
  // Flagged by the double-MAD z-score of log(measured / predicted) over the last 64 parallel
  // measurements, or slowed unlike its chunk's sample (its log(parallel / dse's prediction) differs
  // from the sampled candidates' mean by more than bias_limit allows): re-measured alone.
  bool outlier = false;
  bool sampled = false;    // in the random re-measurement sample
  bool corrected = false;  // scaled by (1 - its chunk's bias), the bias under bias_limit
  bool isolated = false;   // re-measured alone as one of the fastest
  // Its expected error against serial measurement: 0 where it was measured alone, else its chunk's
  // sample error after correction.
  double error_estimate = 0;
  std::optional<double> power_w;
  std::optional<double> reference_ms;  // serial_reference
};

struct ChunkLog {
  int dop = 1;
  std::size_t candidates = 0;
  double error = 0;          // mean |parallel - alone| / alone over the random sample
  double failure_share = 0;  // failed under parallelism
  double bias = 0;           // mean (parallel - alone) / parallel over the random sample
  double wall_s = 0;         // with its re-measurements
};

struct SessionResult {
  DeviceInfo device;
  std::vector<CandidateResult> results;  // one per candidate, in order
  std::vector<ChunkLog> chunks;
  double wall_s = 0;
  double serial_estimate_s = 0;  // each candidate's set-up, as measured alone, plus its timed runs
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
