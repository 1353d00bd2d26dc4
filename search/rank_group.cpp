#include "search/rank_group.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

#ifdef DSE_HAVE_MPI
#include <mpi.h>
#endif

namespace dse {

#ifdef DSE_HAVE_MPI
namespace {

bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (const char* value = std::getenv(name); value && *value) return true;
  return false;
}

// The tag broadcast() announces rank 0's message with (its length), before MPI_Bcast sends it.
constexpr int kBroadcastTag = 9001;

// The message from `source` (or MPI_ANY_SOURCE) with `tag`, if one has arrived: read whole.
std::optional<RankMessage> read_if_arrived(int source, int tag) {
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(source, tag, MPI_COMM_WORLD, &arrived, &status);
  if (!arrived) return std::nullopt;
  int length = 0;
  MPI_Get_count(&status, MPI_CHAR, &length);
  RankMessage message{status.MPI_SOURCE, status.MPI_TAG, std::string(static_cast<std::size_t>(length), '\0')};
  MPI_Recv(message.text.data(), length, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return message;
}

}  // namespace
#endif

void IdleBackoff::pause() {
  std::this_thread::sleep_for(std::chrono::microseconds(pause_us_));
  pause_us_ = std::min(kLongestUs, 2 * pause_us_);
}

RankGroup::RankGroup() {
#ifdef DSE_HAVE_MPI
  if (!launched_by_mpi()) return;
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    std::atexit([] {
      int finalised = 0;
      MPI_Finalized(&finalised);
      if (!finalised) MPI_Finalize();
    });
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
#endif
}

RankGroup& RankGroup::world() {
  static RankGroup group;
  return group;
}

std::vector<std::string> RankGroup::allgather(const std::string& mine) const {
  if (size_ == 1) return {mine};
#ifdef DSE_HAVE_MPI
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_));
  MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> offsets(static_cast<std::size_t>(size_), 0);
  int total = 0;
  for (int r = 0; r < size_; ++r) {
    offsets[static_cast<std::size_t>(r)] = total;
    total += lengths[static_cast<std::size_t>(r)];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int r = 0; r < size_; ++r)
    out.push_back(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]),
                             static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)])));
  return out;
#else
  throw std::logic_error("RankGroup: several ranks without MPI");
#endif
}

void RankGroup::send(int to, int tag, const std::string& text) const {
#ifdef DSE_HAVE_MPI
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
#else
  (void)to, (void)tag, (void)text;
  throw std::logic_error("RankGroup: several ranks without MPI");
#endif
}

std::optional<RankMessage> RankGroup::poll(int tag) const {
#ifdef DSE_HAVE_MPI
  return read_if_arrived(MPI_ANY_SOURCE, tag);
#else
  (void)tag;
  throw std::logic_error("RankGroup: several ranks without MPI");
#endif
}

std::string RankGroup::receive(int from, int tag) const {
#ifdef DSE_HAVE_MPI
  IdleBackoff backoff;
  for (;;) {
    if (auto message = read_if_arrived(from, tag)) return std::move(message->text);
    backoff.pause();
  }
#else
  (void)from, (void)tag;
  throw std::logic_error("RankGroup: several ranks without MPI");
#endif
}

std::string RankGroup::broadcast(const std::string& text) const {
  if (size_ == 1) return text;
#ifdef DSE_HAVE_MPI
  // Rank 0 announces the length point to point (the others wait for it polling), then the text
  // goes by MPI_Bcast's tree, which every rank now enters at once.
  long long length = static_cast<long long>(text.size());
  if (rank_ == 0) {
    for (int r = 1; r < size_; ++r) send(r, kBroadcastTag, std::to_string(length));
  } else {
    length = std::stoll(receive(0, kBroadcastTag));
  }
  std::string out = rank_ == 0 ? text : std::string(static_cast<std::size_t>(length), '\0');
  // MPI counts are int: send in pieces of at most 1 GiB.
  constexpr long long kPiece = 1LL << 30;
  for (long long offset = 0; offset < length; offset += kPiece)
    MPI_Bcast(out.data() + offset, static_cast<int>(std::min(kPiece, length - offset)), MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
#else
  throw std::logic_error("RankGroup: several ranks without MPI");
#endif
}

void RankGroup::abort(const std::string& why) const {
  std::fprintf(stderr, "dse: rank %d: %s\n", rank_, why.c_str());
  std::fflush(stderr);
#ifdef DSE_HAVE_MPI
  if (size_ > 1) MPI_Abort(MPI_COMM_WORLD, 1);
#endif
  std::_Exit(1);
}

}  // namespace dse
