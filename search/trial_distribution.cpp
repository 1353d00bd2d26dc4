#include "search/trial_distribution.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>

#include "search/parallel_for.h"
#include "search/trial_wire.h"

namespace dse {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Message tags of the dynamic distribution: a rank's request for trials (with the results of
// those it finished), rank 0's answer (the batch indices to simulate; none: the batch is handed out).
constexpr int kRequestTag = 9101;
constexpr int kAssignTag = 9102;

// A request: u64 batch, u8 final, then the trial records (search/trial_wire.h) of the trials the
// rank finished since its last one. An answer: u64 count, then that many batch indices.
std::string request_text(std::int64_t batch, bool final, const std::string& records) {
  std::string out;
  write_u64(out, static_cast<std::uint64_t>(batch));
  write_u8(out, final ? 1 : 0);
  return out + records;
}

// A trial another rank ran, into its place in the batch (its journal line, if any, stays in `trial`).
void take(WireTrial&& trial, std::vector<TrialResult>& results, std::vector<double>& wall_s) {
  results.at(trial.index) = std::move(trial.result);
  wall_s.at(trial.index) = trial.wall_s;
}

// Tasks in `arena` that only its workers run: the calling thread, the one that talks MPI
// (search/rank_group.h), enqueues them and waits for them without joining the arena, so it stays
// free to answer other ranks meanwhile. An exception escaping a task ends the job (other ranks must
// not wait for this one).
class ArenaTasks {
 public:
  ArenaTasks(const RankGroup& ranks, tbb::task_arena& arena) : ranks_(ranks), arena_(arena) {}
  ArenaTasks(const ArenaTasks&) = delete;
  ArenaTasks& operator=(const ArenaTasks&) = delete;
  ~ArenaTasks() { wait(); }  // its tasks refer to it

  void run(std::function<void()> body) {
    {
      const std::lock_guard lock(mutex_);
      ++unfinished_;
    }
    arena_.enqueue([this, body = std::move(body)] {
      try {
        body();
      } catch (const std::exception& error) {
        ranks_.abort(std::string("a trial failed inside dse: ") + error.what());
      }
      // Notified under the lock: wait() may return, and this object go, once the lock is released.
      const std::lock_guard lock(mutex_);
      if (--unfinished_ == 0) done_.notify_all();
    });
  }
  // Waits until every task run so far has ended.
  void wait() {
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return unfinished_ == 0; });
  }

 private:
  const RankGroup& ranks_;
  tbb::task_arena& arena_;
  std::mutex mutex_;
  std::condition_variable done_;
  std::size_t unfinished_ = 0;
};

// Simulates `indices` on this process's TBB threads; `report_each`: pass each to work.finished as it ends.
void simulate_here(const std::vector<std::size_t>& indices, const BatchWork& work, bool report_each,
                   std::vector<TrialResult>& results, std::vector<double>& wall_s, RankLoad& load) {
  std::mutex mutex;
  parallel_for(indices.size(), [&](std::size_t k) {
    const std::size_t i = indices[k];
    const auto start = Clock::now();
    results[i] = work.evaluate(i);
    wall_s[i] = seconds_since(start);
    const std::lock_guard lock(mutex);
    load.busy_s += wall_s[i];
    ++load.trials;
    if (report_each && work.finished) work.finished(i, results[i], wall_s[i], nullptr, false);
  });
}

void static_split(const RankGroup& ranks, tbb::task_arena& arena, const BatchWork& work,
                  std::vector<TrialResult>& results, std::vector<double>& wall_s, RankLoad& load) {
  std::vector<std::size_t> mine;
  for (std::size_t k = 0; k < work.todo.size(); ++k)
    if (static_cast<int>(k % static_cast<std::size_t>(ranks.size())) == ranks.rank()) mine.push_back(work.todo[k]);
  arena.execute([&] { simulate_here(mine, work, false, results, wall_s, load); });
  const auto exchange = Clock::now();
  std::string records;
  for (const auto i : mine) write_wire_trial(records, i, results[i], wall_s[i], false);
  for (const auto& text : ranks.allgather(records))
    for (WireReader in(text); !in.done();) take(in.trial(), results, wall_s);
  load.exchange_s += seconds_since(exchange);
  if (ranks.rank() == 0 && work.finished)
    for (std::size_t k = 0; k < work.todo.size(); ++k)
      work.finished(work.todo[k], results[work.todo[k]], wall_s[work.todo[k]], nullptr, k + 1 < work.todo.size());
}

// Rank 0: answers requests and simulates trials on its own threads meanwhile.
void coordinate(const RankGroup& ranks, tbb::task_arena& arena, const DistributionOptions& options,
                const BatchWork& work, std::vector<TrialResult>& results, std::vector<double>& wall_s, RankLoad& load,
                std::vector<RankMessage>& early) {
  const std::int64_t batch = load.batches;
  std::mutex mutex;  // guards next, results of remote ranks, load, and calls of finished
  std::size_t next = 0;
  const std::size_t total_threads = static_cast<std::size_t>(options.threads) * static_cast<std::size_t>(ranks.size());
  // One task per thread, each taking the batch's next trial until none is left to hand out.
  ArenaTasks threads(ranks, arena);
  for (int t = 0; t < options.threads; ++t)
    threads.run([&] {
      for (;;) {
        std::size_t i;
        {
          const std::lock_guard lock(mutex);
          if (next >= work.todo.size()) return;
          i = work.todo[next++];
        }
        const auto start = Clock::now();
        TrialResult result = work.evaluate(i);
        const double wall = seconds_since(start);
        const std::lock_guard lock(mutex);
        results[i] = std::move(result);
        wall_s[i] = wall;
        load.busy_s += wall;
        ++load.trials;
        if (work.finished) work.finished(i, results[i], wall, nullptr, false);
      }
    });
  int finals = 0;
  IdleBackoff backoff;
  std::vector<RankMessage> waiting;  // this batch's requests that came early, first
  waiting.swap(early);
  while (finals < ranks.size() - 1) {
    std::optional<RankMessage> message;
    if (!waiting.empty()) {
      message = std::move(waiting.front());
      waiting.erase(waiting.begin());
    } else {
      message = ranks.poll(kRequestTag);
    }
    if (!message) {
      backoff.pause();
      continue;
    }
    backoff.reset();
    const auto start = Clock::now();
    WireReader in(message->text);
    if (static_cast<std::int64_t>(in.u64()) != batch) {
      early.push_back(std::move(*message));
      continue;
    }
    const bool final = in.u8() != 0;
    std::string answer;
    {
      const std::lock_guard lock(mutex);
      while (!in.done()) {
        WireTrial t = in.trial();
        take(std::move(t), results, wall_s);
        if (work.finished) work.finished(t.index, results[t.index], t.wall_s, &t.journal_line, !in.done());
      }
      if (final) {
        ++finals;
      } else {
        const std::size_t remaining = work.todo.size() - next;
        const std::size_t guided = (remaining + 2 * total_threads - 1) / (2 * total_threads);
        const std::size_t chunk =
            std::min(remaining, std::max<std::size_t>(guided, static_cast<std::size_t>(options.min_chunk)));
        write_u64(answer, chunk);
        for (std::size_t k = 0; k < chunk; ++k) write_u64(answer, work.todo[next++]);
      }
    }
    if (!final) ranks.send(message->source, kAssignTag, answer);
    load.coordinator_s += seconds_since(start);
    ++load.requests;
  }
  threads.wait();
  if (!work.results_everywhere) return;
  const auto exchange = Clock::now();
  std::string records;
  for (const auto i : work.todo) write_wire_trial(records, i, results[i], wall_s[i], false);
  ranks.broadcast(records);
  load.exchange_s += seconds_since(exchange);
}

// Ranks other than 0: ask for trials, simulate them on this rank's threads, send the results back.
void work_for_coordinator(const RankGroup& ranks, tbb::task_arena& arena, const DistributionOptions& options,
                          const BatchWork& work, std::vector<TrialResult>& results, std::vector<double>& wall_s,
                          RankLoad& load) {
  const std::int64_t batch = load.batches;
  std::mutex mutex;
  std::condition_variable started;
  std::size_t waiting = 0;  // trials received and not yet started
  std::string finished;     // records of the trials finished since the last request
  const auto simulate = [&](std::size_t i) {
    {
      const std::lock_guard lock(mutex);
      --waiting;
    }
    started.notify_all();
    const auto start = Clock::now();
    TrialResult result = work.evaluate(i);
    const double wall = seconds_since(start);
    const std::lock_guard lock(mutex);
    write_wire_trial(finished, i, result, wall, true);
    load.busy_s += wall;
    ++load.trials;
  };
  ArenaTasks trials(ranks, arena);
  // Ask again while fewer trials wait than twice this rank's threads: the next chunk arrives before
  // the threads run dry.
  for (;;) {
    std::string send;
    {
      std::unique_lock lock(mutex);
      started.wait(lock, [&] { return waiting < 2 * static_cast<std::size_t>(options.threads); });
      send.swap(finished);
    }
    ranks.send(0, kRequestTag, request_text(batch, false, send));
    const std::string answer = ranks.receive(0, kAssignTag);
    WireReader in(answer);
    const std::uint64_t count = in.u64();
    {
      const std::lock_guard lock(mutex);
      waiting += static_cast<std::size_t>(count);
    }
    // One task per trial; the arena runs them in about the order they came.
    for (std::uint64_t k = 0; k < count; ++k)
      trials.run([&simulate, i = static_cast<std::size_t>(in.u64())] { simulate(i); });
    if (count == 0) break;
  }
  trials.wait();
  ranks.send(0, kRequestTag, request_text(batch, true, finished));
  if (!work.results_everywhere) return;
  const auto exchange = Clock::now();
  const std::string records = ranks.broadcast("");
  for (WireReader in(records); !in.done();) take(in.trial(), results, wall_s);
  load.exchange_s += seconds_since(exchange);
}

}  // namespace

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RankLoad, rank, threads, trials, busy_s, wall_s, coordinator_s, requests, exchange_s,
                                   batches)

nlohmann::json rank_load_json(const RankLoad& load) { return load; }
RankLoad rank_load_from_json(const nlohmann::json& json) { return json.get<RankLoad>(); }

TrialDistributor::TrialDistributor(const RankGroup& ranks, const DistributionOptions& options)
    : ranks_(ranks), options_(options), arena_(options.threads, 0) {
  load_.rank = ranks.rank();
  load_.threads = options.threads;
}

void TrialDistributor::run_batch(const BatchWork& work, std::vector<TrialResult>& results,
                                 std::vector<double>& wall_s) {
  ++load_.batches;
  if (ranks_.size() == 1) return simulate_here(work.todo, work, true, results, wall_s, load_);
  if (options_.kind == Distribution::static_split) return static_split(ranks_, arena_, work, results, wall_s, load_);
  if (ranks_.rank() == 0) return coordinate(ranks_, arena_, options_, work, results, wall_s, load_, early_);
  work_for_coordinator(ranks_, arena_, options_, work, results, wall_s, load_);
}

}  // namespace dse
