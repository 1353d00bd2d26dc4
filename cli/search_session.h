// A search as `dse run` sets it up and finishes it, shared with `dse merge`, which finishes the
// search of shards run apart exactly as one run would have: the same result file, best config and
// summary.
#pragma once

#include <string>

#include "cli/command.h"
#include "search/search_run.h"
#include "sim/config/config_node.h"
#include "sim/run/experiment.h"

namespace dse {

struct PreparedSearch {
  ConfigNode config;        // the experiment with its search block, overrides applied
  ConfigNode base;          // without the search block
  std::string config_file;  // as given
  Experiment check;         // the base, read (it must be a valid experiment)
  SearchSettings settings;
};

// Reads and checks the search block of `config` (space keys, metrics) against its base experiment.
PreparedSearch prepare_search(const ConfigNode& config, const std::string& config_file);

// Writes OUTPUT (HDF5, with the base experiment's metrics as the baseline) and OUTPUT.best.yaml where
// there is an output, then prints the human summary (ranked trials, statuses, the Pareto front, the
// ranks' load) and the JSON summary as `mode` says.
void finish_search(const PreparedSearch& search, const SearchOutcome& outcome, const std::string& output,
                   const std::string& journal_path, const OutputMode& mode);

}  // namespace dse
