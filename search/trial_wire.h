// Trial results as the ranks of an MPI search send them to each other: a compact binary record
// (little work to write and read: the coordinator reads one per trial of every other rank, on one
// thread) carrying the result and its journal line, already written as JSON by the rank that ran
// the trial, so rank 0 journals it without formatting it again.
//
// Layout (host byte order: the ranks of one job run one binary): u64 batch index, f64 wall seconds,
// the journal line, then the TrialResult: i64 id, u8 status, values, metrics (name, f64), message,
// u8 has-objective + f64, scores; strings and lists as a u32 length and their items.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "search/strategy.h"

namespace dse {

struct WireTrial {
  std::size_t index = 0;  // in the batch
  double wall_s = 0;
  std::string journal_line;  // the trial's journal line (search/journal.h), newline included
  TrialResult result;
};

// Appends one trial's record to `out`; the journal line only `with_journal_line` (results sent to
// rank 0, which journals them; results rank 0 sends to every rank carry an empty one).
void write_wire_trial(std::string& out, std::size_t index, const TrialResult& result, double wall_s,
                      bool with_journal_line);

// Reads records from `in` starting at `offset` (advanced past the record); std::runtime_error on a
// record cut short.
class WireReader {
 public:
  explicit WireReader(std::string_view in) : in_(in) {}
  bool done() const { return offset_ >= in_.size(); }
  WireTrial trial();
  std::uint64_t u64();
  std::uint8_t u8();

 private:
  // The next `bytes` of the record (a record cut short throws).
  std::string_view take(std::size_t bytes);
  template <class T>
  T scalar();  // a trivially copyable value, as written
  double f64();
  std::string text();
  std::string_view in_;
  std::size_t offset_ = 0;
};

void write_u64(std::string& out, std::uint64_t value);
void write_u8(std::string& out, std::uint8_t value);

}  // namespace dse
