#include "sim/accel/scalesim_buffers.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "models/base/ceil_div.h"
#include "models/base/errors.h"

namespace dse {

ScaleSimReadBuffer::ScaleSimReadBuffer(std::int64_t sram_words, std::int64_t words_per_cycle,
                                       std::int64_t address_count,
                                       const std::function<void(const std::function<void(std::int64_t)>&)>& order) {
  const std::int64_t active_words = ceil_div(sram_words, 2), prefetch_words = sram_words - active_words;
  const std::int64_t words_per_line = ceil_div(sram_words, 100);
  first_.assign(static_cast<std::size_t>(address_count) + 1, 0);
  std::int64_t elements = 0;
  order([&](std::int64_t address) {
    if (address < 0) return;
    ++elements;
    ++first_[static_cast<std::size_t>(address) + 1];
  });
  if (elements >= std::numeric_limits<std::uint32_t>::max())
    throw UserError("an operand of " + std::to_string(elements) +
                    " elements: past the 2^32 that dse's SCALE-Sim USER mode indexes");
  for (std::size_t a = 1; a < first_.size(); ++a) first_[a] += first_[a - 1];
  line_of_.resize(static_cast<std::size_t>(elements));
  std::vector<std::uint32_t> next(first_.begin(), first_.end() - 1);
  std::int64_t rank = 0;
  order([&](std::int64_t address) {
    if (address < 0) return;
    line_of_[next[static_cast<std::size_t>(address)]++] = static_cast<std::uint32_t>(rank++ / words_per_line);
  });
  // A line closes at every words_per_line-th element, so one more (possibly empty) follows the last.
  lines_ = elements / words_per_line + 1;
  active_lines_ = std::min(lines_, ceil_div(active_words, words_per_line));
  prefetch_lines_ = std::min(lines_ - active_lines_, ceil_div(prefetch_words, words_per_line));
  cycles_per_prefetch_ = ceil_div(prefetch_words, words_per_cycle) + 1;  // one request row a cycle, 1 latency
}

bool ScaleSimReadBuffer::in_window(std::int64_t address) const {
  const auto a = static_cast<std::size_t>(address);
  for (std::uint32_t i = first_[a]; i < first_[a + 1]; ++i) {
    std::int64_t ahead = static_cast<std::int64_t>(line_of_[i]) - window_start_;
    if (ahead < 0) ahead += lines_;
    if (ahead < active_lines_) return true;
  }
  return false;
}

std::int64_t ScaleSimReadBuffer::read(std::int64_t cycle, std::span<const std::int64_t> addresses) {
  if (!started_) {  // the first active buffer is fetched just in time for the first read
    started_ = true;
    last_prefetch_cycle_ = cycle - 1;
  }
  std::int64_t served = 1;  // cycles after `cycle`: the hit latency, or until the last prefetch lands
  for (const std::int64_t address : addresses) {
    while (!in_window(address)) {
      const auto a = static_cast<std::size_t>(address);
      if (first_[a] == first_[a + 1]) throw std::logic_error("SCALE-Sim read buffer: an address it never fetches");
      window_start_ = (window_start_ + prefetch_lines_) % lines_;
      last_prefetch_cycle_ += cycles_per_prefetch_;
      served = std::max(served, last_prefetch_cycle_ - cycle);
    }
  }
  return served - 1;
}

ScaleSimWriteBuffer::ScaleSimWriteBuffer(std::int64_t sram_words, std::int64_t words_per_cycle)
    : active_words_(ceil_div(sram_words, 2)),
      drain_rows_(ceil_div(sram_words - active_words_, words_per_cycle)),
      words_per_row_(words_per_cycle),
      free_words_(sram_words) {}

std::int64_t ScaleSimWriteBuffer::drain(std::int64_t start_cycle) {
  if (open_row_words_ > 0) rows_.push_back(open_row_words_);  // the partly filled row goes too
  open_row_words_ = 0;
  const auto taken =
      static_cast<std::int64_t>(std::min<std::size_t>(static_cast<std::size_t>(drain_rows_), rows_.size()));
  // SCALE-Sim frees whole rows but the last: a short row drained in the middle counts as full.
  free_words_ += (taken - 1) * words_per_row_ + rows_[static_cast<std::size_t>(taken - 1)];
  rows_.erase(rows_.begin(), rows_.begin() + taken);
  return start_cycle + taken - 1;
}

std::int64_t ScaleSimWriteBuffer::write(std::int64_t cycle, std::int64_t words) {
  std::int64_t now = cycle;
  for (std::int64_t word = 0; word < words; ++word) {
    --free_words_;
    if (++open_row_words_ == words_per_row_) {
      rows_.push_back(words_per_row_);
      open_row_words_ = 0;
    }
    if (now < drain_end_cycle_) {
      if (free_words_ <= 0) now = drain_end_cycle_;  // full: wait for the drain in flight
    } else if (free_words_ < active_words_) {
      drain_end_cycle_ = drain(now);
    }
  }
  return now - cycle;
}

}  // namespace dse
