// `dse calibrate`: a calibration session from its YAML (configs/calibration/session.yaml is the
// default; docs/calibration.md lists its keys). It measures the kernels (hwcal/measure/session.h;
// journaled to OUTPUT.journal.jsonl, so an interrupted session resumes), fits the calibration
// (hwcal/session_fit.h) and writes it with the session (hwcal/calibration_file.h).
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
