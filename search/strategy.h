// Search strategies speak ask/tell: propose(n) returns up to n new trials, report() tells a trial's
// outcome. A strategy's randomness comes from its seed and the trial id only (trial_uniform), never
// from a global generator or the clock, so a search is the same for any thread count and resumes
// exactly.
//
// Contract: trial ids are 0, 1, 2, ... in proposal order; report() is called once per proposed
// trial, in id order within a batch; propose() returns fewer than n (possibly none) when the
// strategy has nothing more to try.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/base/enum_table.h"
#include "models/base/registry.h"
#include "search/metric_values.h"
#include "search/space.h"
#include "sim/config/config_node.h"

namespace dse {

struct Trial {
  std::int64_t id = 0;
  std::vector<std::string> values;  // one per space parameter, YAML text
};

enum class TrialStatus { ok, infeasible, failed, timeout };
inline constexpr EnumTable<TrialStatus, 4> kTrialStatusNames{{{
    {TrialStatus::ok, "ok"},
    {TrialStatus::infeasible, "infeasible"},
    {TrialStatus::failed, "failed"},
    {TrialStatus::timeout, "timeout"},
}}};

struct TrialResult {
  Trial trial;
  TrialStatus status = TrialStatus::ok;
  MetricValues metrics;             // search/metric_values.h: compact, for sweeps of millions of trials
  std::optional<double> objective;  // set for ok trials: the primary score (= scores[0])
  std::vector<double> scores;       // ok trials: every objective, larger is better (minimised ones negated)
  std::string message;              // why a trial failed or was infeasible
};

// What every strategy takes; a strategy's own knobs (population, acquisition, ...) it reads itself
// from its config node.
struct StrategyOptions {
  std::int64_t trials = 100;  // evaluation budget
  std::uint64_t seed = 1;
};

class Strategy {
 public:
  static constexpr const char* family_name = "strategy";
  static constexpr const char* family_description = "Search strategies (ask/tell)";
  // `params` is the search's strategy block ({name, trials, batch, seed, and the strategy's own
  // keys}): an implementation reads its own keys from it with params.param<T>(), exactly the ones
  // its static declared_keys() declares (DSE_REGISTER_KEYED; tests/search/test_strategy_keys.cpp
  // checks), so a strategy with new knobs touches one file; keys nobody reads are reported as unknown.
  using Factory =
      std::function<std::unique_ptr<Strategy>(const SearchSpace&, const StrategyOptions&, const ConfigNode& params)>;

  virtual ~Strategy() = default;
  virtual std::vector<Trial> propose(std::int64_t n) = 0;
  virtual void report(const TrialResult& result) = 0;
  // True when which trials it proposes never depends on results (grid, random, Sobol, Latin
  // hypercube): such a search can be cut into shards run apart (dse run --shard K/N).
  virtual bool trials_are_independent() const { return false; }
};

using StrategyRegistry = Registry<Strategy>;

// A strategy whose trial i depends on i alone (grid, random, low-discrepancy sequences): it
// proposes ids 0 .. limit() - 1 in order and learns nothing from reports.
class IndexedStrategy : public Strategy {
 public:
  std::vector<Trial> propose(std::int64_t n) final;
  void report(const TrialResult&) final {}
  bool trials_are_independent() const final { return true; }

 protected:
  virtual std::int64_t limit() const = 0;
  virtual std::vector<std::string> values(std::int64_t trial) const = 0;

 private:
  std::int64_t next_ = 0;
};

// A strategy that works on genes: one number in [0, 1) per parameter, turned into values by the
// space (SearchParameter::sample). Subclasses choose each new trial's genes (NSGA-II, Bayesian
// optimisation).
class GeneStrategy : public Strategy {
 public:
  GeneStrategy(const SearchSpace& space, const StrategyOptions& options) : space_(space), options_(options) {}
  std::vector<Trial> propose(std::int64_t n) final;

 protected:
  // The genes of trial `id`; `batch` holds the genes chosen earlier in the same batch.
  virtual std::vector<double> next_genes(std::int64_t id, const std::vector<std::vector<double>>& batch) = 0;
  const std::vector<double>& genes_of(std::int64_t id) const { return genes_.at(id); }
  std::vector<double> random_genes(std::int64_t id) const;
  std::int64_t proposed() const { return next_; }

  const SearchSpace space_;
  const StrategyOptions options_;

 private:
  std::map<std::int64_t, std::vector<double>> genes_;
  std::int64_t next_ = 0;
};

// `population` of a population strategy (aging_evolution, nsga2, cma_es): default 20, at least
// `minimum`; and its declaration (KeySpec), with the strategy's own help.
std::int64_t read_population(const ConfigNode& params, std::int64_t minimum = 2);
KeySpec population_key(std::string help, std::int64_t minimum = 2);

// A uniform number in [0, 1) that depends only on (seed, trial id, stream): SplitMix64 hashing.
double trial_uniform(std::uint64_t seed, std::int64_t trial, std::uint64_t stream);

}  // namespace dse
