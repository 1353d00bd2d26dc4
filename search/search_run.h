// A search as the experiment YAML's `search:` block describes it (space, objective, constraints,
// strategy: docs/search.md), run against the simulator. Each trial is the experiment with the trial's
// values as `-p KEY=VALUE` overrides (search/trial.h); batches of trials run in parallel on TBB
// threads and MPI ranks (search/trial_distribution.h) and reach the strategy in trial-id order, so
// the outcome is the same for any thread and rank count. Every finished trial is appended to a
// journal (JSON lines, flushed at once): `resume` takes its trials instead of evaluating them again,
// so a killed search continues where it stopped and ends the same.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/base/enum_table.h"
#include "search/space.h"
#include "search/strategy.h"
#include "search/trial_distribution.h"
#include "sim/config/config_node.h"
#include "sim/run/run_cache.h"

namespace dse {

enum class Relation { le, lt, ge, gt };
inline constexpr EnumTable<Relation, 4> kRelationNames{
    {{{Relation::le, "le"}, {Relation::lt, "lt"}, {Relation::ge, "ge"}, {Relation::gt, "gt"}}}};

// Where a metric name was written, for errors about it ("search.objective.maximize").
struct MetricMention {
  SourceMark mark;
  std::string key_path;
};

struct SearchConstraint {
  std::string metric;
  Relation relation = Relation::le;
  double bound = 0;
  MetricMention where;
};

struct SearchObjective {
  std::string metric;
  bool maximize = true;
  MetricMention where;
};

struct SearchSettings {
  SearchSpace space;
  std::vector<SearchObjective> objectives;  // the first is the primary one ("best" is best on it)
  const SearchObjective& primary() const { return objectives.front(); }
  std::vector<SearchConstraint> constraints;
  std::string strategy = "random";
  StrategyOptions options;
  ConfigNode strategy_params;  // the strategy block: each strategy reads its own keys from it
  std::int64_t batch = 8;
  std::optional<double> timeout_s;  // per trial, wall clock: a trial still simulating then is `timeout`
  std::string description;          // the search block as YAML: a journal belongs to exactly one search
};

SearchSettings read_search_settings(const ConfigNode& search, const SpaceContext& context = {});

// ConfigError at the first space parameter whose key the experiment `base` does not read (a
// misspelt key made every trial fail, each blaming a `-p` flag never given), pointing at the key
// in the search block. Costs one read of the experiment per parameter, no simulation.
void check_search_space_keys(const ConfigNode& base, const std::string& config_file, const SearchSettings& settings);

// ConfigError at the first objective or constraint naming a metric not in `metrics` (what the
// base experiment's device reports: Device::metric_names), listing those that are.
void check_search_metrics(const SearchSettings& settings, const std::vector<std::string>& metrics);

// One of N shards of a search whose trials are independent (Strategy::trials_are_independent):
// shard K takes the trials whose id mod N is K (dse run --shard K/N; dse merge joins them).
struct SearchShard {
  std::int64_t index = 0;
  std::int64_t count = 1;
  bool holds(std::int64_t trial_id) const { return trial_id % count == index; }
  // How many of trial ids 0 .. trials - 1 it holds.
  std::int64_t share(std::int64_t trials) const { return (trials + count - 1 - index) / count; }
};
// The most shards a search may be cut into: more than a cluster's job array runs (Slurm's
// MaxArraySize is 1,001 by default); beyond it a typo, whose merge would list a billion missing shards.
inline constexpr std::int64_t kMaxShards = 100'000;
// "K/N" with 0 <= K < N <= kMaxShards; UserError naming `flag` otherwise.
SearchShard parse_shard(const std::string& text, const std::string& flag);
// A search's journal header text: its description, and the shard where there is one (a shard's
// journal resumes only that shard).
std::string journal_description(const SearchSettings& settings, const std::optional<SearchShard>& shard);

struct SearchRunOptions {
  std::string journal_path;          // "" = no journal (search/journal.h: it also locks the output)
  bool resume = false;               // continue from the journal's trials
  bool force = false;                // start over, discarding a journal that holds trials
  int threads = 0;                   // 0 = TBB's default (all cores)
  DistributionOptions distribution;  // across MPI ranks (its threads: from `threads`)
  std::optional<SearchShard> shard;  // only this shard's trials
  nlohmann::json journal_extra = nlohmann::json::object();  // more journal header fields (a shard's config)
  // What the trials share (graphs, timing models, baselines); null: the search makes its own.
  std::shared_ptr<RunCache> cache;
  std::function<void(std::int64_t done, std::int64_t total, const std::optional<TrialResult>& best)> progress;
};

struct SearchOutcome {
  std::vector<TrialResult> trials;      // in id order
  std::optional<TrialResult> best;      // the ok trial with the best objective (lowest id on ties)
  std::optional<int> journal_cut_line;  // a last journal line cut short by a kill (resume re-ran it)
  std::int64_t evaluated = 0;           // trials simulated in this run (the rest came from the journal
                                        // or repeated an earlier trial's values)
  double wall_s = 0;
  Distribution distribution = Distribution::dynamic;
  std::vector<RankLoad> ranks;  // every rank's load, in rank order (one entry without MPI)
  std::optional<SearchShard> shard;
  std::vector<std::string> merged_from;  // dse merge: the shards' files
};

// `base` is the experiment without its search block.
SearchOutcome run_search(const ConfigNode& base, const std::string& config_file, const SearchSettings& settings,
                         const SearchRunOptions& options);

// The overrides of a trial ("key=value" for each parameter).
std::vector<std::string> trial_overrides(const SearchSpace& space, const Trial& trial);

}  // namespace dse
