#include "hwcal/kernel_measurements.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "models/base/csv_table.h"
#include "models/base/cut_input.h"
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
  // Shapes: GEMM files carry B, M, N, K; layer-norm and softmax files B and H (a row length);
  // convolution files B and the layer (NeuSight's collect.py: nn.Conv2d(Input_Channel,
  // Output_Channel, Kernel_Szie [sic], stride=Stride, padding=Padding, bias=False) on a B x
  // Input_Channel x Input_Size x Input_Size input).
  const auto b = table.column("B");
  const bool conv_file = optional_column("Input_Channel").has_value();
  std::array<std::size_t, 6> conv{};  // in channels, out channels, kernel size, input size, stride, padding
  if (conv_file) {
    const auto kernel_size =
        optional_column("Kernel_Szie") ? optional_column("Kernel_Szie") : optional_column("Kernel_Size");
    if (!kernel_size) table.column("Kernel_Size");  // the error names the missing column
    conv = {table.column("Input_Channel"), table.column("Output_Channel"), *kernel_size,
            table.column("Input_Size"),    table.column("Stride"),         table.column("Padding")};
  }
  const auto m = optional_column("M") ? optional_column("M") : optional_column("H");
  if (!m && !conv_file) table.column("M");  // the error names the missing column
  const auto n = optional_column("N"), k = optional_column("K");
  std::vector<KernelMeasurement> out;
  out.reserve(table.rows().size());
  for (const auto& row : table.rows()) {
    KernelMeasurement measurement;
    measurement.op = table.text(row, op);
    // An error naming the file, line, column and header: "FILE:LINE:COL: HEADER: expected ..., found CELL".
    const auto bad_cell = [&](std::size_t column, const std::string& expected) {
      return UserError(path + ":" + std::to_string(row.line) + ":" + std::to_string(table.cell_column(row, column)) +
                       ": " + cut_input(table.header()[column]) + ": expected " + expected + ", found " +
                       cut_input(table.text(row, column)));
    };
    measurement.latency_ms = table.number(row, latency);
    if (!(measurement.latency_ms > 0) || !std::isfinite(measurement.latency_ms))
      throw bad_cell(latency, "a positive number of milliseconds");
    measurement.device = table.text(row, device);
    if (has_launch) measurement.kernel = table.text(row, kernel);
    // An integer cell within [low, high].
    const auto integer_in = [&](std::size_t column, std::int64_t low, std::int64_t high, const std::string& expected) {
      const std::int64_t value = table.integer(row, column);
      if (value < low || value > high) throw bad_cell(column, expected);
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
    if (conv_file) {
      // NeuSight names a convolution `conv`; dse's op is conv2d.
      if (measurement.op == "conv") measurement.op = "conv2d";
      if (measurement.op != "conv2d")
        throw UserError(path + ":" + std::to_string(row.line) + ":" + std::to_string(table.cell_column(row, op)) +
                        ": OPName: expected conv in a file of convolutions (it has an Input_Channel column), found '" +
                        cut_input(measurement.op) + "'");
      ConvShape shape;
      shape.channels = size(conv[0]);
      shape.out = size(conv[1]);
      // Spatial sizes within 2^30 (no image is larger), so the padded size cannot overflow.
      const auto spatial = [&](std::size_t column) { return integer_in(column, 1, 1 << 30, "a size of 1 to 2^30"); };
      shape.r = shape.s = spatial(conv[2]);
      shape.height = shape.width = spatial(conv[3]);
      shape.stride = spatial(conv[4]);
      shape.pad = integer_in(conv[5], 0, 1 << 20, "a padding of 0 or more");
      // The layer must have an output: (Input_Size + 2 x Padding - Kernel) / Stride + 1 >= 1.
      if (shape.height + 2 * shape.pad < shape.r)
        throw bad_cell(
            conv[2], "a kernel no larger than the padded input (" + std::to_string(shape.height + 2 * shape.pad) + ")");
      measurement.conv = shape;
    } else {
      measurement.m = size(*m);
      measurement.n = n ? size(*n) : 0;
      measurement.k = k ? size(*k) : 0;
      if ((measurement.op == "linear" || measurement.op == "bmm") && (!n || !k))
        throw UserError(path + ":" + std::to_string(row.line) + ": expected N and K columns for a " + measurement.op +
                        " row (B, M, N, K), found " + (n ? "no K column" : "no N column"));
    }
    measurement.file = path;
    measurement.line = row.line;
    out.push_back(std::move(measurement));
  }
  return out;
}

std::map<std::string, DeviceRows> match_devices(const std::vector<KernelMeasurement>& rows,
                                                const std::vector<GpuSpec>& specs,
                                                std::map<std::string, std::size_t>& unmatched) {
  std::map<std::string, DeviceRows> out;
  for (const auto& row : rows) {
    const GpuSpec* spec = find_spec_by_device_name(specs, row.device);
    if (!spec) {
      ++unmatched[row.device];
      continue;
    }
    auto& device = out[spec->name];
    device.spec = *spec;
    device.rows.push_back(row);
  }
  return out;
}

}  // namespace dse
