#include "hwcal/measured_op.h"

#include <map>
#include <regex>
#include <stdexcept>
#include <string>

#include "models/base/ceil_div.h"
#include "models/base/checked_count.h"
#include "models/base/cut_input.h"
#include "models/base/errors.h"
#include "models/ops/op_library.h"

namespace dse {
namespace {

// NeuSight's elementwise OPNames (test/elem.csv) and the op each runs over B x H floats: two such
// tensors (add ... pow), one and a Python scalar (addu ... powu: PyTorch's tensor-scalar kernels,
// two pointers each), or one (relu, gelu, tanh).
enum class SecondOperand { none, tensor, scalar };
struct NeusightElementwise {
  OpKind kind;
  SecondOperand second = SecondOperand::none;
};
const std::map<std::string, NeusightElementwise, std::less<>>& neusight_elementwise_ops() {
  static const std::map<std::string, NeusightElementwise, std::less<>> kOps = {
      {"add", {OpKind::add, SecondOperand::tensor}},
      {"mul", {OpKind::mul, SecondOperand::tensor}},
      {"div", {OpKind::div, SecondOperand::tensor}},
      {"pow", {OpKind::pow, SecondOperand::tensor}},
      {"addu", {OpKind::add, SecondOperand::scalar}},
      {"mulu", {OpKind::mul, SecondOperand::scalar}},
      {"divu", {OpKind::div, SecondOperand::scalar}},
      {"powu", {OpKind::pow, SecondOperand::scalar}},
      {"relu", {OpKind::relu}},
      {"gelu", {OpKind::gelu}},
      {"tanh", {OpKind::tanh}},
  };
  return kOps;
}

Graph build_measured_op_graph(const KernelMeasurement& row) {
  Graph graph(row.op);
  const std::string& op = row.op;
  const DType dtype = row.dtype;
  // NeuSight's shapes reduce over N and produce K columns: linear is [B*M, N] x [N, K] (K output
  // features), bmm is [B, M, N] x [B, N, K]. The recorded grids confirm it (e.g. linear M=32768,
  // N=4096, K=1024 on sgemm_128x128: grid 8 x 256 = K/128 x M/128).
  if (op == "linear") {
    const auto x = graph.add_input("x", {checked_mul(row.b, row.m, "B x M"), row.n}, dtype);
    ops::linear(graph, "linear", x, row.k, true);
  } else if (op == "bmm") {
    const auto a = graph.add_input("a", {row.b, row.m, row.n}, dtype);
    const auto b = graph.add_input("b", {row.b, row.n, row.k}, dtype);
    ops::matmul(graph, "bmm", a, b);
  } else if (op == "conv2d") {
    if (!row.conv)
      throw UserError(row.file + ":" + std::to_string(row.line) +
                      ": OPName: a conv2d row needs its convolution's shape, which the NeuSight CSV format has no "
                      "columns for (calibration files from dse calibrate carry it)");
    const ConvShape& c = *row.conv;
    Window window;
    window.kernel_h = c.r;
    window.kernel_w = c.s;
    window.stride_h = window.stride_w = c.stride;
    window.pad_h = window.pad_w = c.pad;
    ops::conv2d(graph, "conv2d", graph.add_input("x", {row.b, c.channels, c.height, c.width}, dtype), c.out, window,
                c.groups);
  } else if (op == "ln" || op == "layernorm") {
    ops::layernorm(graph, "ln", graph.add_input("x", {row.b, row.m}, dtype));
  } else if (op == "softmax") {
    ops::softmax(graph, "softmax", graph.add_input("x", {row.b, row.m}, dtype), -1);
  } else if (op == "reduce") {
    ops::reduce(graph, "reduce", OpKind::reduce_sum, graph.add_input("x", {row.b, row.m}, dtype), {1}, false);
  } else if (const auto it = neusight_elementwise_ops().find(op); it != neusight_elementwise_ops().end()) {
    const auto& [kind, second] = it->second;
    const auto x = graph.add_input("x", {row.b, row.m}, dtype);
    if (second == SecondOperand::none)
      ops::unary(graph, op, kind, x);
    else
      ops::binary(graph, op, kind, x,
                  graph.add_input("y", second == SecondOperand::scalar ? Shape{1} : Shape{row.b, row.m}, dtype));
  } else {
    std::string names;
    for (const auto& [name, _] : neusight_elementwise_ops()) names += (names.empty() ? "" : ", ") + name;
    throw UserError(row.file + ":" + std::to_string(row.line) +
                    ": OPName: expected linear, bmm, conv2d, ln, softmax, reduce, launch or an elementwise op (" +
                    names + "), found '" + cut_input(op) + "'");
  }
  return graph;
}

}  // namespace

Graph measured_op_graph(const KernelMeasurement& row) {
  const auto in_row = [&row](const std::exception& e) {
    return UserError(row.file + ":" + std::to_string(row.line) + ": " + row.op + " row: " + e.what());
  };
  try {
    return build_measured_op_graph(row);
  } catch (const CountOverflow& e) {
    throw in_row(e);
  } catch (const std::invalid_argument& e) {  // a shape no op of that kind has (ops::linear of K = 0)
    throw in_row(e);
  }
}

std::vector<Kernel> predict_kernels(const KernelMeasurement& row, const KernelTimer& timer) {
  // An empty kernel: what one launch costs back to back (the launch overhead, one tiny block).
  if (row.op == "launch") {
    Kernel empty;
    empty.name = "empty";
    empty.threads_per_block = 32;
    empty.registers_per_thread = 16;
    return {empty};
  }
  const Graph graph = measured_op_graph(row);
  return lower_op(graph, graph.ops().back(), timer);
}

std::optional<GemmTileRequest> measured_gemm_tile(const KernelMeasurement& row) {
  if (row.op != "linear" && row.op != "bmm") return std::nullopt;
  static const std::regex kTile("(sgemm_|tilesize)([0-9]{1,6})x([0-9]{1,6})");
  std::smatch match;
  if (!std::regex_search(row.kernel, match, kTile)) return std::nullopt;
  GemmTileRequest tile;
  // cuBLAS's and CUTLASS's SIMT names give columns first, xmma's rows first: the H200's
  // tilesize128x64 covers a 512 x 1,280 linear output as grid 4 x 20.
  const bool rows_first = match[1].str() == "tilesize";
  tile.rows = std::stoll(match[rows_first ? 2 : 3].str());
  tile.columns = std::stoll(match[rows_first ? 3 : 2].str());
  if (tile.rows <= 0 || tile.columns <= 0) return std::nullopt;
  // A linear row's K split: the blocks over the output tiles when they divide (the grid's z is not
  // always the split: the P4's sgemm_128x128x8_NT_vec lays 160 output tiles out as 4 x 10 x 4).
  if (row.op == "linear") {
    std::int64_t rows = 0, tiles = 0;
    if (__builtin_mul_overflow(row.b, row.m, &rows) ||
        __builtin_mul_overflow(ceil_div(rows, tile.rows), ceil_div(row.k, tile.columns), &tiles))
      return std::nullopt;  // predicting the row says what overflows
    const std::int64_t blocks = grid_blocks(row);
    if (tiles > 0 && blocks > tiles && blocks % tiles == 0) tile.split = blocks / tiles;
  }
  return tile;
}

std::vector<Kernel> predict_kernels_on_measured_tile(const KernelMeasurement& row, const KernelTimer& timer) {
  const auto tile = measured_gemm_tile(row);
  if (!tile) return {};
  const Graph graph = measured_op_graph(row);
  return lower_op(graph, graph.ops().back(), timer, nullptr, &*tile);
}

}  // namespace dse
