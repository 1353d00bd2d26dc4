// The processes of one search: under `mpirun -n N dse run X.yaml` (or srun), N ranks; otherwise one.
//
// Every rank runs the same strategy with the same seed; each evaluates its share of every batch
// (trial i of a batch on rank i mod N, on its own TBB threads) and all ranks exchange the results,
// so every rank's strategy sees the same reports in the same order and the search is identical for
// any number of ranks. Rank 0 alone writes the journal and the outputs.
//
// MPI is initialised on first use only when a launcher's environment is present (OMPI_COMM_WORLD_SIZE,
// PMI_SIZE or PMIX_RANK) and finalised at exit; a build without MPI is always one rank.
#pragma once

#include <string>
#include <vector>

namespace dse {

class RankGroup {
 public:
  static RankGroup& world();
  int rank() const { return rank_; }
  int size() const { return size_; }
  // Every rank's `mine`, in rank order (collective: every rank must call it).
  std::vector<std::string> allgather(const std::string& mine) const;

 private:
  RankGroup();
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace dse
