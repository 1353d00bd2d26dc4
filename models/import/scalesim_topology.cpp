#include "models/import/scalesim_topology.h"

#include <filesystem>

#include "models/base/csv_table.h"
#include "models/base/cut_input.h"
#include "models/base/errors.h"
#include "models/ops/op_library.h"

namespace dse {
namespace {

std::int64_t positive(const CsvTable& table, const CsvTable::Row& row, std::size_t column) {
  const std::int64_t value = table.integer(row, column);
  if (value < 1) {
    throw UserError(table.path() + ":" + std::to_string(row.line) + ":" +
                    std::to_string(table.cell_column(row, column)) + ": " + cut_input(table.header()[column]) +
                    ": expected a positive integer, found " + std::to_string(value));
  }
  return value;
}

}  // namespace

Graph import_scalesim_topology(const std::string& path, TopologyForm form, DType dtype) {
  CsvTable table = CsvTable::read(path, true);
  const std::size_t columns = table.header().size();
  if (form == TopologyForm::automatic) {
    if (columns == 8)
      form = TopologyForm::conv;
    else if (columns == 4)
      form = TopologyForm::gemm;
    else
      throw UserError(path +
                      ":1:1: header: expected 8 columns (conv: Layer name, IFMAP Height, IFMAP Width, Filter "
                      "Height, Filter Width, Channels, Num Filter, Strides) or 4 (GEMM: Layer, M, N, K), found " +
                      std::to_string(columns));
  }
  const std::size_t expected = form == TopologyForm::conv ? 8 : 4;
  if (columns != expected)
    throw UserError(path + ":1:1: header: expected " + std::to_string(expected) + " columns for the " +
                    (form == TopologyForm::conv ? "conv" : "GEMM") + " form, found " + std::to_string(columns));
  if (table.rows().empty()) throw UserError(path + ":2:1: expected at least one layer, found none");

  Graph graph(std::filesystem::path(path).stem().string());
  for (const auto& row : table.rows()) {
    const std::string name = table.text(row, 0);
    if (form == TopologyForm::conv) {
      const auto h = positive(table, row, 1), w = positive(table, row, 2), fh = positive(table, row, 3),
                 fw = positive(table, row, 4), c = positive(table, row, 5), filters = positive(table, row, 6),
                 stride = positive(table, row, 7);
      if (fh > h || fw > w) {
        throw UserError(path + ":" + std::to_string(row.line) + ":" + std::to_string(table.cell_column(row, 3)) +
                        ": Filter Height: expected a filter no larger than the IFMAP (" + std::to_string(h) + "x" +
                        std::to_string(w) + "), found " + std::to_string(fh) + "x" + std::to_string(fw));
      }
      const auto input = graph.add_input(name + ".ifmap", {1, c, h, w}, dtype);
      Window window{fh, fw, stride, stride, 0, 0, 1, 1};
      window.rounding = Window::Rounding::ceil_unclamped;  // SCALE-Sim: ceil((H - FH + S) / S)
      ops::conv2d(graph, name, input, filters, window);
    } else {
      const auto m = positive(table, row, 1), n = positive(table, row, 2), k = positive(table, row, 3);
      const auto input = graph.add_input(name + ".A", {m, k}, dtype);
      ops::linear(graph, name, input, n, false);
    }
  }
  return graph;
}

}  // namespace dse
