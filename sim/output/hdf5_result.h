// One HDF5 file per run (layout in docs/results.md):
//   /config   the resolved YAML (after includes and -p overrides), one string
//   /meta     dse_version, git_commit, date_utc, host, config_file, calibration,
//             hardware_files + hardware_file_contents (every spec file used, verbatim)
//   /summary  experiment, device_kind, device, timing_model (and the device's word settings),
//             /summary/metrics (the run's metric table: name, value, unit, description columns)
//             and /summary/models (one row per model, as columns)
//   /ops      the timeline, one row per op, as columns
// Written to a temporary name and renamed on success.
#pragma once

#include <string>

#include "sim/run/experiment.h"
#include "sim/run/run_result.h"

namespace dse {

void write_hdf5_result(const std::string& path, const Experiment& experiment, const RunResult& result);

}  // namespace dse
