#include "hwcal/kernel_measurements.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "models/base/csv_table.h"
#include "models/base/errors.h"

namespace dse {

std::vector<KernelMeasurement> read_kernel_measurements(const std::string& path) {
  const CsvTable table = CsvTable::read(path);
  const auto op = table.column("OPName"), latency = table.column("Latency"), device = table.column("Device");
  const auto optional_column = [&table](const std::string& name) -> std::optional<std::size_t> {
    const auto& header = table.header();
    const auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? std::nullopt
                              : std::optional<std::size_t>(static_cast<std::size_t>(it - header.begin()));
  };
  // The launch (kernel name, grid, block): NeuSight's kernel files record it; ops timed inside a
  // model's trace (its per-op labels, tests/data/neusight/model_ops) do not, and then every launch
  // column is absent. A file with some of them names the first one it lacks.
  const bool has_launch = optional_column("Kernel Name") || optional_column("Grid x") || optional_column("Block x");
  std::size_t kernel = 0;
  std::array<std::size_t, 3> grid{}, block{};
  if (has_launch) {
    kernel = table.column("Kernel Name");
    grid = {table.column("Grid x"), table.column("Grid y"), table.column("Grid z")};
    block = {table.column("Block x"), table.column("Block y"), table.column("Block z")};
  }
  // Shapes: GEMM files carry B, M, N, K; layer-norm and softmax files B and H (a row length).
  const auto b = table.column("B");
  const auto m = optional_column("M") ? optional_column("M") : optional_column("H");
  if (!m) table.column("M");  // the error names the missing column
  const auto n = optional_column("N"), k = optional_column("K");
  std::vector<KernelMeasurement> out;
  out.reserve(table.rows().size());
  for (const auto& row : table.rows()) {
    KernelMeasurement measurement;
    measurement.op = table.text(row, op);
    measurement.latency_ms = table.number(row, latency);
    if (!(measurement.latency_ms > 0) || !std::isfinite(measurement.latency_ms)) {
      throw UserError(path + ":" + std::to_string(row.line) + ":" + std::to_string(row.cells[latency].column) +
                      ": Latency: expected a positive number of milliseconds, found " + table.text(row, latency));
    }
    measurement.device = table.text(row, device);
    if (has_launch) measurement.kernel = table.text(row, kernel);
    // An integer cell within [low, high], or an error naming the file, line, column and header.
    const auto integer_in = [&](std::size_t column, std::int64_t low, std::int64_t high, const std::string& expected) {
      const std::int64_t value = table.integer(row, column);
      if (value < low || value > high)
        throw UserError(path + ":" + std::to_string(row.line) + ":" + std::to_string(row.cells[column].column) + ": " +
                        table.header()[column] + ": expected " + expected + ", found " + table.text(row, column));
      return value;
    };
    // A launch within CUDA's limits (CUDA C++ Programming Guide, "Features and Technical
    // Specifications": grid x up to 2^31 - 1, y and z 65,535; block x and y 1,024, z 64).
    constexpr std::array<std::int64_t, 3> kGridLimit{2147483647, 65535, 65535}, kBlockLimit{1024, 1024, 64};
    const auto launch_dim = [&](std::size_t column, std::int64_t high) {
      return integer_in(column, 1, high, "1 to " + std::to_string(high) + " (CUDA's launch limit)");
    };
    if (has_launch)
      for (std::size_t axis = 0; axis < 3; ++axis) {
        measurement.grid[axis] = launch_dim(grid[axis], kGridLimit[axis]);
        measurement.block[axis] = launch_dim(block[axis], kBlockLimit[axis]);
      }
    // Sizes are counts: a zero or negative one describes no kernel (N = 0 divided by zero later).
    const auto size = [&](std::size_t column) {
      return integer_in(column, 1, std::numeric_limits<std::int64_t>::max(), "a size of at least 1");
    };
    measurement.b = size(b);
    measurement.m = size(*m);
    measurement.n = n ? size(*n) : 0;
    measurement.k = k ? size(*k) : 0;
    if ((measurement.op == "linear" || measurement.op == "bmm") && (!n || !k))
      throw UserError(path + ":" + std::to_string(row.line) + ": expected N and K columns for a " + measurement.op +
                      " row (B, M, N, K), found " + (n ? "no K column" : "no N column"));
    measurement.file = path;
    measurement.line = row.line;
    out.push_back(std::move(measurement));
  }
  return out;
}

}  // namespace dse
