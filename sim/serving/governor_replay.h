// Replaying a recorded serving run through a dse governor: the run's own power readings go in, and
// every decision dse's governor takes is compared with the state the run recorded next.
//
// The recorded runs are the BatchDVFS paper's logs (tests/data/batchdvfs/README.md): one CSV row
// per batch with its time stamp, the highest power reading since the controller last acted, the
// cap, and the controller's state (BestBS = batch - 1, minBS/maxBS, DVFS = SM clock in MHz), the
// columns a file has deciding what is compared. A controller acts before a batch once more than its
// period has passed since it last acted; rows carry no "acted" flag, and timestamps are rounded to
// 10 ms, so a gap within `timing_tolerance_s` of the period could go either way: the replay follows
// both readings (and both at the first decision, whose reference time the log does not give),
// keeping those the recorded states bear out. A row no reading explains is a mismatch; the replay
// then takes the recorded state and goes on.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sim/serving/governor.h"

namespace dse {

struct ReplayOptions {
  std::string governor;                  // a Governor registry name
  std::vector<std::string> assignments;  // "key=value" for the governor block (-p), e.g. period_s=3
  // The clock levels of the recorded GPU, ascending; default the ten P40 levels of the paper's code.
  std::vector<double> clock_levels_mhz;
  double initial_clock_mhz = 1063;  // the paper's code starts BatchDVFS and DVFS-only here
  int max_batch = 256;
  double timing_tolerance_s = 0.011;  // half the timestamps' 10 ms rounding, and a little more
};

// The P40 application clocks the paper's code steps through, MHz (github nabavinejad/BatchDVFS,
// f05286d, BatchDVFS/*.py, `DVFS_List`; memory clock 3615 MHz).
std::vector<double> batch_dvfs_p40_clock_levels_mhz();

struct ReplayState {
  int batch = 0;                                   // 0: the file does not record it
  double clock_mhz = 0;                            // 0: the file does not record it
  std::vector<std::pair<std::string, int>> inner;  // minBS, maxBS where recorded
};

struct ReplayMismatch {
  int line = 0;        // the CSV line whose state dse did not reproduce
  double time_s = 0;   // the time stamp of the row before it (when the governor would have acted)
  double power_w = 0;  // the reading the governor acted on
  ReplayState before, recorded, dse;
};

struct ReplayReport {
  std::string file;
  std::string governor;
  double power_cap_w = 0;
  int rows = 0;         // data rows
  int decisions = 0;    // rows before which the governor acted (every timing reading agrees)
  int ambiguous = 0;    // rows where acting and not acting both explain the log
  int transitions = 0;  // rows whose recorded state differs from the row before
  int matched = 0;      // of those, the ones dse's governor reproduced
  std::vector<ReplayMismatch> mismatches;
};

// UserError (FILE:LINE:COL) for a file without the needed columns, a non-numeric cell, a clock
// that is not one of the levels, or a cap that changes within the run.
ReplayReport replay_governor(const std::string& csv_path, const ReplayOptions& options);

}  // namespace dse
