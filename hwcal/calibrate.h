// A calibration session from its YAML (configs/calibration/session.yaml, docs/calibration.md):
//
//   name: session
//   gpu: h200                        # the spec the calibration is for
//   backend: {name: simulated, ...}  # dse list calibration_backend; the backend's own keys
//   kernels: {...}                   # hwcal/measure/suite.h
//   measure: {warmup: 2, repeat: 5, min_repeat_ms: 10, timeout_s: 4}
//   parallel: {adaptive: true, dop: 8, beta: 0.2, error_threshold: 0.05, failure_threshold: 0.05,
//              increment: [2, 12], ceiling: 128, remeasure_share: 0.2, outlier_z: 3,
//              bias_limit: 0.25, isolate_top_share: 0.05}
//   fit: {holdout_share: 0.2, prior_sigma: 0.25, prior_rows: 50}
//   serial_reference: false          # also measure every kernel alone (the exact error and speedup)
//   seed: 1
//   output: results/calibration/h200_simulated.yaml
//
// measures the kernels (hwcal/measure/session.h: journaled to OUTPUT.journal.jsonl, so an
// interrupted session resumes), fits the calibration (hwcal/session_fit.h) and writes it with the
// session (hwcal/calibration_file.h).
#pragma once

#include <string>
#include <vector>

#include "hwcal/calibration_file.h"
#include "hwcal/measure/session.h"
#include "hwcal/session_fit.h"
#include "sim/output/jsonl_journal.h"

namespace dse {

struct CalibrateOptions {
  std::string session_file;            // the session YAML (an embedded default when empty)
  std::vector<std::string> overrides;  // -p KEY=VALUE on it
  // --backend NAME: the session's backend block if it names NAME already, else {name: NAME}.
  std::string backend;
  JournalStart start = JournalStart::fresh;
  SessionProgress progress;
};

struct CalibrateOutcome {
  std::string name;
  std::string output;   // the calibration file written
  std::string journal;  // the session's journal
  std::size_t candidates = 0;
  SessionResult session;
  CalibrationFile file;
  CalibrationCheck check;
};

CalibrateOutcome calibrate(const CalibrateOptions& options);

}  // namespace dse
