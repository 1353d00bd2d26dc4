#include "sim/accel/scalesim_operands.h"

#include <algorithm>
#include <variant>

#include "models/base/checked_count.h"
#include "models/base/errors.h"

namespace dse {
namespace {

const std::vector<std::int64_t>& int_list(const Op& op, const char* key) {
  const auto it = op.attributes.find(key);
  const auto* value = it == op.attributes.end() ? nullptr : std::get_if<std::vector<std::int64_t>>(&it->second);
  if (value == nullptr || value->size() != 2) throw UserError("layer '" + op.name + "': no " + key + " attribute");
  return *value;
}

// Visits the elements of a rows x cols matrix along its anti-diagonals, each from its bottom row up:
// SCALE-Sim's roll-out of a prefetch matrix whose demand is skewed across the array edge.
template <typename Value>
void diagonal_order(std::int64_t rows, std::int64_t cols, const Value& value,
                    const std::function<void(std::int64_t)>& visit) {
  for (std::int64_t diagonal = 0; diagonal < rows + cols - 1; ++diagonal) {
    const std::int64_t low = std::max<std::int64_t>(0, diagonal - cols + 1);
    for (std::int64_t row = std::min(diagonal, rows - 1); row >= low; --row) visit(value(row, diagonal - row));
  }
}

template <typename Value>
void row_major_order(std::int64_t rows, std::int64_t cols, const Value& value,
                     const std::function<void(std::int64_t)>& visit) {
  for (std::int64_t row = 0; row < rows; ++row)
    for (std::int64_t col = 0; col < cols; ++col) visit(value(row, col));
}

// How many c in [0, used) have low <= line - shift - c < high.
std::int64_t skewed_count(std::int64_t used, std::int64_t line, std::int64_t shift, std::int64_t low,
                          std::int64_t high) {
  const std::int64_t first = std::max<std::int64_t>(0, line - shift - high + 1);
  const std::int64_t last = std::min(used - 1, line - shift - low);
  return std::max<std::int64_t>(0, last - first + 1);
}

}  // namespace

ScaleSimIfmapMatrix::ScaleSimIfmapMatrix(const ScaleSimLayer& layer) : height_(layer.ifmap_h), width_(layer.ifmap_w) {
  const std::int64_t ofmap_cols = layer.ofmap_w(), channels = layer.channels;
  corners_.resize(static_cast<std::size_t>(layer.m()));
  for (std::int64_t pixel = 0; pixel < layer.m(); ++pixel) {  // output pixels row-major
    const std::int64_t y = pixel / ofmap_cols * layer.stride, x = pixel % ofmap_cols * layer.stride;
    corners_[static_cast<std::size_t>(pixel)] = {y, x, (y * width_ + x) * channels};
  }
  taps_.resize(static_cast<std::size_t>(layer.k()));
  for (std::int64_t column = 0; column < layer.k(); ++column) {  // window: rows, then columns, then channels
    const std::int64_t dy = column / (layer.filter_w * channels), dx = column % (layer.filter_w * channels) / channels;
    taps_[static_cast<std::size_t>(column)] = {dy, dx, (dy * width_ + dx) * channels + column % channels};
  }
}

ScaleSimLayer scalesim_layer(const Graph& graph, const Op& op) {
  ScaleSimLayer layer;
  if (op.kind == OpKind::conv2d) {
    const Shape& input = graph.tensor(op.inputs.at(0)).shape;  // {1, C, H, W}
    const auto& kernel = int_list(op, "kernel");
    const auto& stride = int_list(op, "stride");
    if (input.size() != 4 || stride[0] != stride[1] || op.gemms.size() != 1 || op.gemms[0].batch != 1)
      throw UserError("layer '" + op.name + "': not a convolution SCALE-Sim can run (one group, square stride)");
    layer = {input[2], input[3], kernel[0], kernel[1], input[1], op.gemms[0].n, stride[0]};
  } else if (op.kind == OpKind::matmul && op.gemms.size() == 1 && op.gemms[0].batch == 1) {
    const GemmView& gemm = op.gemms[0];  // SCALE-Sim: an M x K ifmap under a 1 x K filter
    layer = {gemm.m, gemm.k, 1, gemm.k, 1, gemm.n, 1};
  } else {
    throw UserError("layer '" + op.name + "': not a SCALE-Sim conv or GEMM layer");
  }
  return layer;
}

std::int64_t prefetch_slots(const ScaleSimLayer& layer, const SystolicArray& array, ScaleSimOperand operand) {
  const std::int64_t rows = array.rows, cols = array.cols, m = layer.m(), n = layer.n(), k = layer.k();
  const bool ifmap = operand == ScaleSimOperand::ifmap;
  const char* what = "the prefetch matrix of a SCALE-Sim layer";
  switch (array.dataflow) {
    case Dataflow::weight_stationary:
      return ifmap ? checked_product(what, ceil_div(k, rows), m, rows)
                   : checked_product(what, ceil_div(n, cols), k, cols);
    case Dataflow::output_stationary:
      return ifmap ? checked_product(what, ceil_div(m, rows), k, rows)
                   : checked_product(what, ceil_div(n, cols), k, cols);
    case Dataflow::input_stationary:
      return ifmap ? checked_product(what, ceil_div(m, cols), k, cols)
                   : checked_product(what, ceil_div(k, rows), n, rows);
  }
  return 0;
}

void for_each_prefetched(const ScaleSimLayer& layer, const SystolicArray& array, ScaleSimOperand operand,
                         const std::function<void(std::int64_t)>& visit) {
  const std::int64_t rows = array.rows, cols = array.cols, m = layer.m(), n = layer.n(), k = layer.k();
  const ScaleSimIfmapMatrix ifmap(layer);
  const auto ifmap_by_window = [&](std::int64_t used) {  // k-major blocks of `used` array lanes of ifmap rows
    return [&, used](std::int64_t row, std::int64_t lane) {
      const std::int64_t pixel = row / k * used + lane;
      return pixel < m ? ifmap.address(pixel, row % k) : -1;
    };
  };
  const auto filter_by_window = [&](std::int64_t row, std::int64_t lane) {  // k-major blocks of C filters
    const std::int64_t filter = row / k * cols + lane;
    return filter < n ? layer.filter_address(row % k, filter) : -1;
  };
  switch (array.dataflow) {
    case Dataflow::weight_stationary:
      if (operand == ScaleSimOperand::ifmap) {  // row fold fr: ifmap columns fr*H.., every pixel
        const auto value = [&](std::int64_t row, std::int64_t lane) {
          const std::int64_t window = row / m * rows + lane;
          return window < k ? ifmap.address(row % m, window) : -1;
        };
        diagonal_order(ceil_div(k, rows) * m, rows, value, visit);
      } else {
        row_major_order(ceil_div(n, cols) * k, cols, filter_by_window, visit);
      }
      break;
    case Dataflow::output_stationary:
      if (operand == ScaleSimOperand::ifmap)
        diagonal_order(ceil_div(m, rows) * k, rows, ifmap_by_window(rows), visit);
      else
        diagonal_order(ceil_div(n, cols) * k, cols, filter_by_window, visit);
      break;
    case Dataflow::input_stationary:
      if (operand == ScaleSimOperand::ifmap) {
        row_major_order(ceil_div(m, cols) * k, cols, ifmap_by_window(cols), visit);
      } else {  // row fold fr: filter rows fr*H.., every filter
        const auto value = [&](std::int64_t row, std::int64_t lane) {
          const std::int64_t window = row / n * rows + lane;
          return window < k ? layer.filter_address(window, row % n) : -1;
        };
        diagonal_order(ceil_div(k, rows) * n, rows, value, visit);
      }
      break;
  }
}

ScaleSimDemand::ScaleSimDemand(const ScaleSimLayer& layer, const SystolicArray& array)
    : layer_(layer), ifmap_(layer), array_(array), m_(layer.m()), n_(layer.n()), k_(layer.k()) {
  const std::int64_t rows = array.rows, cols = array.cols;
  switch (array.dataflow) {
    case Dataflow::weight_stationary:  // Sr = K, Sc = N, T = M
      row_folds_ = ceil_div(k_, rows), col_folds_ = ceil_div(n_, cols), lines_per_fold_ = m_ + 2 * rows + cols - 2;
      break;
    case Dataflow::output_stationary:  // Sr = M, Sc = N, T = K
      row_folds_ = ceil_div(m_, rows), col_folds_ = ceil_div(n_, cols), lines_per_fold_ = k_ + rows + cols - 2;
      break;
    case Dataflow::input_stationary:  // Sr = K, Sc = M, T = N
      row_folds_ = ceil_div(k_, rows), col_folds_ = ceil_div(m_, cols), lines_per_fold_ = n_ + 2 * rows + cols - 2;
      break;
  }
}

void ScaleSimDemand::ifmap_line(std::int64_t fc, std::int64_t fr, std::int64_t line,
                                std::vector<std::int64_t>& out) const {
  out.clear();
  const std::int64_t rows = array_.rows, cols = array_.cols;
  const auto push = [&out](std::int64_t address) {
    if (address >= 0) out.push_back(address);
  };
  switch (array_.dataflow) {
    case Dataflow::weight_stationary: {  // lane c: pixel line - c - H of window column fr*H + c
      const std::int64_t used = std::min(rows, k_ - fr * rows);
      const std::int64_t first = std::max<std::int64_t>(0, line - rows - m_ + 1);
      const std::int64_t last = std::min(used - 1, line - rows);
      for (std::int64_t c = first; c <= last; ++c) push(ifmap_.address(line - c - rows, fr * rows + c));
      break;
    }
    case Dataflow::output_stationary: {  // lane r: window column line - r of pixel fr*H + r
      const std::int64_t used = std::min(rows, m_ - fr * rows);
      const std::int64_t first = std::max<std::int64_t>(0, line - k_ + 1);
      const std::int64_t last = std::min(used - 1, line);
      for (std::int64_t r = first; r <= last; ++r) push(ifmap_.address(fr * rows + r, line - r));
      break;
    }
    case Dataflow::input_stationary: {  // lines 0..H-1 load window column fr*H + H-1-line of C pixels
      const std::int64_t window = rows - 1 - line;
      if (line >= rows || window >= std::min(rows, k_ - fr * rows)) break;
      const std::int64_t used = std::min(cols, m_ - fc * cols);
      for (std::int64_t c = 0; c < used; ++c) push(ifmap_.address(fc * cols + c, fr * rows + window));
      break;
    }
  }
}

void ScaleSimDemand::filter_line(std::int64_t fc, std::int64_t fr, std::int64_t line,
                                 std::vector<std::int64_t>& out) const {
  out.clear();
  const std::int64_t rows = array_.rows, cols = array_.cols;
  switch (array_.dataflow) {
    case Dataflow::weight_stationary: {  // lines 0..H-1 load window row fr*H + H-1-line of C filters
      const std::int64_t window = rows - 1 - line;
      if (line >= rows || window >= std::min(rows, k_ - fr * rows)) break;
      const std::int64_t used = std::min(cols, n_ - fc * cols);
      for (std::int64_t c = 0; c < used; ++c) out.push_back(layer_.filter_address(fr * rows + window, fc * cols + c));
      break;
    }
    case Dataflow::output_stationary: {  // lane c: window row line - c of filter fc*W + c
      const std::int64_t used = std::min(cols, n_ - fc * cols);
      const std::int64_t first = std::max<std::int64_t>(0, line - k_ + 1);
      const std::int64_t last = std::min(used - 1, line);
      for (std::int64_t c = first; c <= last; ++c) out.push_back(layer_.filter_address(line - c, fc * cols + c));
      break;
    }
    case Dataflow::input_stationary: {  // lane r: filter line - r - H of window row fr*H + r
      const std::int64_t used = std::min(rows, k_ - fr * rows);
      const std::int64_t first = std::max<std::int64_t>(0, line - rows - n_ + 1);
      const std::int64_t last = std::min(used - 1, line - rows);
      for (std::int64_t r = first; r <= last; ++r) out.push_back(layer_.filter_address(fr * rows + r, line - r - rows));
      break;
    }
  }
}

std::int64_t ScaleSimDemand::ofmap_words(std::int64_t fc, std::int64_t fr, std::int64_t line) const {
  const std::int64_t rows = array_.rows, cols = array_.cols;
  switch (array_.dataflow) {
    case Dataflow::weight_stationary:  // lane c: pixel line - c - (2H - 1)
      return skewed_count(std::min(cols, n_ - fc * cols), line, 2 * rows - 1, 0, m_);
    case Dataflow::output_stationary: {  // lane c: array row H-1-(line - c - (K-1)), bottom row first
      const std::int64_t used_rows = std::min(rows, m_ - fr * rows);
      return skewed_count(std::min(cols, n_ - fc * cols), line, k_ - 1, rows - used_rows, rows);
    }
    case Dataflow::input_stationary:  // lane c: filter line - c - (2H - 1)
      return skewed_count(std::min(cols, m_ - fc * cols), line, 2 * rows - 1, 0, n_);
  }
  return 0;
}

}  // namespace dse
