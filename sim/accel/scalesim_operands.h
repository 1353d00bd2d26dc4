// SCALE-Sim v2's operands of one layer, and the orders in which a dataflow prefetches them into its
// read buffers and demands them from the array, line by line (one line per compute cycle without
// stalls). A layer is SCALE-Sim's conv row (a GEMM row M, N, K is an M x K "ifmap" under a 1 x K
// filter): ifmap matrix M x K (output pixels x window, an address per element, or none where a
// window reaches past the ifmap edge), filter matrix K x N, ofmap matrix M x N. Addresses are
// word offsets within the operand, as SCALE-Sim numbers them less its operand offsets; the ifmap's
// repeat where windows overlap. docs/accelerator.md ("SCALE-Sim's bandwidth mode").
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "models/base/ceil_div.h"
#include "models/graph.h"
#include "sim/accel/systolic_array.h"

namespace dse {

struct ScaleSimLayer {
  std::int64_t ifmap_h = 1, ifmap_w = 1, filter_h = 1, filter_w = 1, channels = 1, filters = 1, stride = 1;

  // SCALE-Sim's ceil((H - FH + S) / S), no padding.
  std::int64_t ofmap_h() const { return 1 + ceil_div(ifmap_h - filter_h, stride); }
  std::int64_t ofmap_w() const { return 1 + ceil_div(ifmap_w - filter_w, stride); }
  std::int64_t m() const { return ofmap_h() * ofmap_w(); }           // ifmap matrix rows
  std::int64_t k() const { return filter_h * filter_w * channels; }  // window: the reduction
  std::int64_t n() const { return filters; }
  std::int64_t filter_address(std::int64_t row, std::int64_t col) const { return col * k() + row; }
};

// The ifmap matrix: element (pixel, window column) reads ifmap word ((y + dy) W + x + dx) C + channel
// for the pixel's window corner (y, x) and the column's tap (dy, dx, channel), or nothing (-1)
// where the window leaves the ifmap. Tables per pixel and per column, so no division per element.
class ScaleSimIfmapMatrix {
 public:
  explicit ScaleSimIfmapMatrix(const ScaleSimLayer& layer);
  std::int64_t address(std::int64_t pixel, std::int64_t column) const {
    const Corner& corner = corners_[static_cast<std::size_t>(pixel)];
    const Tap& tap = taps_[static_cast<std::size_t>(column)];
    return corner.y + tap.dy < height_ && corner.x + tap.dx < width_ ? corner.word + tap.words : -1;
  }

 private:
  struct Corner {
    std::int64_t y = 0, x = 0, word = 0;
  };
  struct Tap {
    std::int64_t dy = 0, dx = 0, words = 0;
  };
  std::int64_t height_ = 0, width_ = 0;
  std::vector<Corner> corners_;
  std::vector<Tap> taps_;
};

// The layer SCALE-Sim reads from the topology row that `op` was imported from
// (models/import/scalesim_topology.h: a conv2d, or a GEMM as a linear). UserError for other ops.
ScaleSimLayer scalesim_layer(const Graph& graph, const Op& op);

enum class ScaleSimOperand { ifmap, filter };

// The slots of `operand`'s prefetch matrix (its elements and padding); CountOverflow past 64 bits.
std::int64_t prefetch_slots(const ScaleSimLayer& layer, const SystolicArray& array, ScaleSimOperand operand);

// Calls `visit` with each element of `operand`'s prefetch matrix in the order SCALE-Sim fetches it
// from DRAM: an address, or -1 for a padding slot (a fold's unused array rows or columns, a window
// past the ifmap edge).
void for_each_prefetched(const ScaleSimLayer& layer, const SystolicArray& array, ScaleSimOperand operand,
                         const std::function<void(std::int64_t)>& visit);

// The demand side: folds (fc outer, fr inner, as SCALE-Sim loops), lines per fold, and per line the
// ifmap and filter addresses the array reads (in array-edge order) and the ofmap words it writes.
class ScaleSimDemand {
 public:
  ScaleSimDemand(const ScaleSimLayer& layer, const SystolicArray& array);

  std::int64_t row_folds() const { return row_folds_; }
  std::int64_t col_folds() const { return col_folds_; }
  std::int64_t lines_per_fold() const { return lines_per_fold_; }
  // Replace `out` with the addresses read in `line` of fold (fc, fr); skips null requests.
  void ifmap_line(std::int64_t fc, std::int64_t fr, std::int64_t line, std::vector<std::int64_t>& out) const;
  void filter_line(std::int64_t fc, std::int64_t fr, std::int64_t line, std::vector<std::int64_t>& out) const;
  std::int64_t ofmap_words(std::int64_t fc, std::int64_t fr, std::int64_t line) const;

 private:
  ScaleSimLayer layer_;
  ScaleSimIfmapMatrix ifmap_;
  SystolicArray array_;
  std::int64_t m_ = 0, n_ = 0, k_ = 0;
  std::int64_t row_folds_ = 0, col_folds_ = 0, lines_per_fold_ = 0;
};

}  // namespace dse
