// What a search leaves behind: the HDF5 file (/config, /meta, /trials, /best), the best
// configuration as a YAML `dse run` reproduces, and the JSON summary.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "search/search_run.h"
#include "sim/config/config_node.h"
#include "sim/metrics/metric_table.h"

namespace dse {

// A file a search writes beside its output: "results/x.h5" -> "results/x" + suffix (its journal,
// best config, shards).
std::string sibling_path(const std::string& output, const std::string& suffix);

// The experiment with the best trial's values applied and no search block.
std::string best_config_yaml(const ConfigNode& base, const SearchSettings& settings, const TrialResult& best);

// `baseline`: the metrics of the experiment as written, without the search's values (/baseline/metrics),
// or null where it was not run.
void write_search_hdf5(const std::string& path, const std::string& config_yaml, const std::string& config_file,
                       const SearchSettings& settings, const SearchOutcome& outcome,
                       const MetricTable* baseline = nullptr);

nlohmann::json search_summary_json(const SearchSettings& settings, const SearchOutcome& outcome,
                                   const std::string& best_config_path);

}  // namespace dse
