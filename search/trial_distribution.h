// How one batch of a search's trials is spread over the threads of this process and the ranks of
// an MPI job (search/rank_group.h), and the load each rank counts. Each rank's strategy sees the
// same reports in trial-id order, so the search is the same for any number of ranks and threads.
// The distributions, the chunking and the load reported per rank: docs/cluster.md ("One MPI job").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <tbb/task_arena.h>
#include <nlohmann/json.hpp>

#include "models/base/enum_table.h"
#include "search/rank_group.h"
#include "search/strategy.h"

namespace dse {

// dynamic (the default under MPI): rank 0 hands out each batch's trials in guided chunks as ranks
// ask, and journals each result as it arrives; a request of a rank already in the next batch waits
// for it (messages carry their batch). static_split (--distribution static): trial i of a batch on
// rank i mod N, exchanged after the batch. docs/cluster.md has the chunk sizes and when ranks ask.
enum class Distribution { dynamic, static_split };
inline constexpr EnumTable<Distribution, 2> kDistributionNames{
    {{{Distribution::dynamic, "dynamic"}, {Distribution::static_split, "static"}}}};

struct DistributionOptions {
  Distribution kind = Distribution::dynamic;
  std::int64_t min_chunk = 1;  // the smallest chunk rank 0 hands out (dynamic)
  int threads = 1;             // trials at once on each rank
};

// One rank's share of a search.
struct RankLoad {
  int rank = 0;
  int threads = 1;
  std::int64_t trials = 0;    // trials this rank simulated
  double busy_s = 0;          // summed over its threads: time inside trials
  double wall_s = 0;          // the search's wall time on this rank
  double coordinator_s = 0;   // rank 0, dynamic: time spent answering requests (not waiting)
  std::int64_t requests = 0;  // rank 0, dynamic: requests answered
  double exchange_s = 0;      // time spent sending the batch's results to every rank
  std::int64_t batches = 0;
  // Busy share of the rank's thread-time: busy_s / (threads x wall_s).
  double busy_share() const { return wall_s > 0 ? busy_s / (threads * wall_s) : 0.0; }
};
nlohmann::json rank_load_json(const RankLoad& load);
RankLoad rank_load_from_json(const nlohmann::json& json);

struct BatchWork {
  // The batch's indices to simulate (the same list on every rank).
  std::vector<std::size_t> todo;
  // Simulates batch index i (any thread, any rank).
  std::function<TrialResult(std::size_t i)> evaluate;
  // Rank 0 (or the only rank): a result is final; called once per index, from one thread at a time.
  // `journal_line`: the result's journal line as the rank that ran it wrote it (null: none yet).
  // `more_follow`: more results come in the same call chain (a request's), so the journal may hold
  // this one until the last of them.
  std::function<void(std::size_t i, const TrialResult& result, double wall_s, const std::string* journal_line,
                     bool more_follow)>
      finished;
  // Whether every rank needs every result (a strategy that learns from them): false for sweeps whose
  // trials are independent, where only rank 0 (the journal, the outputs) keeps them and the batch's
  // exchange is skipped (dynamic).
  bool results_everywhere = true;
};

// One search's distribution: every rank makes one and calls run_batch for every batch, in order.
class TrialDistributor {
 public:
  TrialDistributor(const RankGroup& ranks, const DistributionOptions& options);
  // Simulates `work.todo` across the group and fills results[i] and wall_s[i] for each i in it, on
  // rank 0 and, where work.results_everywhere, on every rank. One rank alone runs the batch on TBB
  // threads, reporting each trial to `finished` as it ends.
  void run_batch(const BatchWork& work, std::vector<TrialResult>& results, std::vector<double>& wall_s);
  RankLoad& load() { return load_; }

 private:
  const RankGroup& ranks_;
  DistributionOptions options_;
  RankLoad load_;
  // Several ranks: this rank's trials run on the arena's `threads` workers, none of its slots kept for
  // the main thread, which talks MPI meanwhile (search_run.cpp lets TBB start one thread more for it).
  tbb::task_arena arena_;
  // Rank 0: requests of a later batch that came while it still coordinated this one (a rank that was
  // not sent this batch's results moves on at once), answered when that batch starts.
  std::vector<RankMessage> early_;
};

}  // namespace dse
