// SCALE-Sim v2's double-buffered scratchpads in USER-bandwidth mode, as its memory system
// (scalesim/memory/) times them; the algorithm and where it is not physical: docs/accelerator.md
// ("SCALE-Sim's bandwidth mode"). Words are one byte; half of each SRAM is the active buffer.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <vector>

namespace dse {

// An ifmap or filter read buffer. The operand's prefetch order is cut into 100 "lines" of
// ceil(SRAM words / 100) elements; the active buffer is a window of lines, a read of an address in
// none of its lines moves the window on by a prefetch buffer's worth and costs ceil(P / Bandwidth)
// + 1 cycles after the previous prefetch, however long ago that was.
// Contract: `read` takes the demand lines in order, at non-decreasing cycles; every address read
// is one the prefetch order visited.
class ScaleSimReadBuffer {
 public:
  // `order` visits the prefetch order (addresses in [0, address_count), -1 for padding); it is
  // called twice. UserError past 2^31 elements.
  ScaleSimReadBuffer(std::int64_t sram_words, std::int64_t words_per_cycle, std::int64_t address_count,
                     const std::function<void(const std::function<void(std::int64_t)>&)>& order);

  // Stall cycles of one demand line read at `cycle` (SCALE-Sim: served cycle - cycle - 1).
  std::int64_t read(std::int64_t cycle, std::span<const std::int64_t> addresses);

 private:
  bool in_window(std::int64_t address) const;

  std::int64_t lines_ = 1, active_lines_ = 1, prefetch_lines_ = 0, window_start_ = 0;
  std::int64_t cycles_per_prefetch_ = 1;
  std::int64_t last_prefetch_cycle_ = 0;
  bool started_ = false;
  std::vector<std::uint32_t> first_;    // per address: its first entry in line_of_
  std::vector<std::uint32_t> line_of_;  // the lines holding each address, address by address
};

// The ofmap write buffer: words fill rows of Bandwidth words; once more than half the SRAM is
// occupied, a drain of ceil(D / Bandwidth) rows starts (a row a cycle) and frees its rows at once,
// counting every row but the last as full; a write finding the SRAM full waits for the drain.
class ScaleSimWriteBuffer {
 public:
  ScaleSimWriteBuffer(std::int64_t sram_words, std::int64_t words_per_cycle);

  // Stall cycles of writing `words` words at `cycle`.
  std::int64_t write(std::int64_t cycle, std::int64_t words);

 private:
  std::int64_t drain(std::int64_t start_cycle);

  std::int64_t active_words_ = 0, drain_rows_ = 0, words_per_row_ = 1;
  std::int64_t free_words_ = 0, drain_end_cycle_ = 0, open_row_words_ = 0;
  std::deque<std::int64_t> rows_;  // words in each row not yet drained
};

}  // namespace dse
