// The processes of one search: under `mpirun -n N dse run X.yaml` (or srun), N ranks; otherwise one.
//
// Every rank runs the same strategy with the same seed and sees every trial's result in trial-id
// order, so the search is identical for any number of ranks; how a batch's trials are spread over
// the ranks is search/trial_distribution.h's. Rank 0 alone writes the journal and the outputs.
//
// MPI is initialised on first use only when a launcher's environment is present (OMPI_COMM_WORLD_SIZE,
// PMI_SIZE or PMIX_RANK), with MPI_THREAD_FUNNELED (only the thread that initialised it calls MPI;
// trials run on other threads), and finalised at exit; a build without MPI is always one rank.
//
// Waiting for a message polls (MPI_Iprobe, then a sleep: IdleBackoff) instead of blocking in MPI,
// whose blocking calls spin a core: a rank waiting for work would otherwise take one from the trials.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dse {

// How a rank waits for a message without spinning a core: sleeps of 20 us, doubling up to 200 us
// while nothing arrives (a waiting rank then costs about 1 % of a core, and an answer waits at most
// 0.2 ms), back to 20 us once one does.
class IdleBackoff {
 public:
  void pause();
  void reset() { pause_us_ = kFirstUs; }

 private:
  static constexpr int kFirstUs = 20;
  static constexpr int kLongestUs = 200;
  int pause_us_ = kFirstUs;
};

struct RankMessage {
  int source = 0;
  int tag = 0;
  std::string text;
};

class RankGroup {
 public:
  static RankGroup& world();
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Every rank's `mine`, in rank order (collective: every rank must call it).
  std::vector<std::string> allgather(const std::string& mine) const;
  // Point to point (several ranks only).
  void send(int to, int tag, const std::string& text) const;
  // A message with `tag` from any rank, if one has arrived; none otherwise.
  std::optional<RankMessage> poll(int tag) const;
  // Waits (polling) for a message with `tag` from `from`.
  std::string receive(int from, int tag) const;
  // Rank 0's `text` on every rank (collective). Ranks other than 0 wait for it polling, so a rank
  // that finished its share does not spin while rank 0 still works.
  std::string broadcast(const std::string& text) const;
  // Prints "dse: rank R: WHY" and ends every rank of the job (MPI_Abort, exit code 1); a rank that
  // cannot go on must not leave the others waiting for it. The journal keeps the finished trials.
  [[noreturn]] void abort(const std::string& why) const;

 private:
  RankGroup();
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace dse
