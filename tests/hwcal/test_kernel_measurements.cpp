#include <gtest/gtest.h>

#include <unistd.h>
#include <array>
#include <filesystem>
#include <fstream>
#include <set>

#include "hwcal/kernel_measurements.h"
#include "models/base/csv_table.h"
#include "models/base/errors.h"

namespace dse {
namespace fs = std::filesystem;
namespace {

// A folder of its own, removed when the test binary exits.
const fs::path& scratch() {
  static const struct Dir {
    fs::path path = fs::temp_directory_path() / ("dse_csv_test_" + std::to_string(::getpid()));
    Dir() { fs::create_directories(path); }
    ~Dir() { fs::remove_all(path); }
  } dir;
  return dir.path;
}

std::string write_csv(const std::string& name, const std::string& text) {
  const auto path = scratch() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

std::string error_of(const std::string& path) {
  try {
    read_kernel_measurements(path);
  } catch (const UserError& error) {
    return error.what();
  }
  return "(no error)";
}

const std::string kHeader =
    "OPName,Latency,Device,Torch Version,CUDNN Version,Kernel Name,Warps per SM,Blocks per SM,Grid x,Grid y,Grid z,"
    "Block x,Block y,Block z,CUDA Version,Kernels,B,M,N,K\n";

}  // namespace

TEST(KernelMeasurements, ReadsTheNeuSightReferenceFile) {
  const std::string path = std::string(DSE_REFERENCE_DIR) + "/neusight/test_linear.csv";
  const auto rows = read_kernel_measurements(path);
  EXPECT_EQ(rows.size(), 6174u);  // wc -l minus the header
  std::set<std::string> devices;
  for (const auto& row : rows) devices.insert(row.device);
  EXPECT_EQ(devices.size(), 6u);
  EXPECT_TRUE(devices.contains("NVIDIA L4"));
  // First row, checked by eye against the file.
  EXPECT_EQ(rows[0].op, "linear");
  EXPECT_NEAR(rows[0].latency_ms, 1.1338346401850383, 1e-15);
  EXPECT_EQ(rows[0].kernel, "ampere_sgemm_128x64_tn");
  EXPECT_EQ(rows[0].grid, (std::array<std::int64_t, 3>{20, 16, 3}));
  EXPECT_EQ(rows[0].block, (std::array<std::int64_t, 3>{128, 1, 1}));
  EXPECT_EQ(rows[0].m, 1024);
  EXPECT_EQ(rows[0].k, 2560);
  EXPECT_EQ(rows[0].line, 2);
}

// Ops timed inside a model's trace (NeuSight's per-op labels) record no launch: no kernel name,
// grid or block columns at all. A file with only some of them is refused, naming what it lacks.
TEST(KernelMeasurements, ReadsOpsTimedWithoutTheirLaunch) {
  const std::string path = std::string(DSE_REFERENCE_DIR) + "/neusight/model_ops/nvidia_h100_80gb_hbm3_gemm.csv";
  const auto rows = read_kernel_measurements(path);
  ASSERT_EQ(rows.size(), 150u);  // wc -l minus the header
  // bert_large-inf-512-16's query projection: 16 x 512 tokens of 1,024 features onto 1,024.
  EXPECT_EQ(rows[0].op, "linear");
  EXPECT_EQ(rows[0].device, "NVIDIA H100 80GB HBM3");
  EXPECT_NEAR(rows[0].latency_ms, 0.36976, 1e-9);
  EXPECT_EQ((std::array<std::int64_t, 4>{rows[0].b, rows[0].m, rows[0].n, rows[0].k}),
            (std::array<std::int64_t, 4>{1, 8192, 1024, 1024}));
  EXPECT_EQ(rows[0].kernel, "");
  EXPECT_EQ(grid_blocks(rows[0]), 0);
  const std::string partial = write_csv("dse_partial_launch.csv",
                                        "OPName,Latency,Device,Grid x,B,M,N,K\n"
                                        "linear,1.0,NVIDIA L4,4,1,2,3,4\n");
  EXPECT_NE(error_of(partial).find(":1:1: header: expected a column 'Kernel Name'"), std::string::npos)
      << error_of(partial);
}

TEST(KernelMeasurements, BadRowsNameFileLineColumnAndColumnName) {
  // Each bad row (its CSV after the header) and the error it must give after the file's path.
  struct BadRow {
    const char* file;
    const char* row;
    const char* error;
  };
  const BadRow rows[] = {
      {"dse_bad_latency.csv", "linear,fast,NVIDIA L4,p,1,k,1,1,1,1,1,1,1,1,cu,k,1,2,3,4",
       ":2:8: Latency: expected a number, found \"fast\""},
      {"dse_negative.csv", "linear,-1,NVIDIA L4,p,1,k,1,1,1,1,1,1,1,1,cu,k,1,2,3,4",
       ":2:8: Latency: expected a positive number of milliseconds, found -1"},
      {"dse_nan.csv", "linear,nan,NVIDIA L4,p,1,k,1,1,1,1,1,1,1,1,cu,k,1,2,3,4",
       ":2:8: Latency: expected a number, found \"nan\""},
      // Sizes are counts: B = -3 predicted -1.79 ms, N = 0 divided by zero (SIGFPE).
      {"dse_zero_n.csv", "linear,1.0,NVIDIA L4,p,1,k,1,1,1,1,1,1,1,1,cu,k,1,2,0,4",
       ":2:53: N: expected a size of at least 1, found 0"},
      {"dse_negative_b.csv", "linear,1.0,NVIDIA L4,p,1,k,1,1,1,1,1,1,1,1,cu,k,-3,2,3,4",
       ":2:49: B: expected a size of at least 1, found -3"},
      // A launch beyond CUDA's limits (a grid y of 70,000; a 2,048-thread block) is no measurement.
      {"dse_big_grid.csv", "linear,1.0,NVIDIA L4,p,1,k,1,1,1,70000,1,1,1,1,cu,k,1,2,3,4",
       ":2:34: Grid y: expected 1 to 65535 (CUDA's launch limit), found 70000"},
      {"dse_big_block.csv", "linear,1.0,NVIDIA L4,p,1,k,1,1,1,1,1,2048,1,1,cu,k,1,2,3,4",
       ":2:38: Block x: expected 1 to 1024 (CUDA's launch limit), found 2048"},
  };
  for (const BadRow& bad : rows) {
    const std::string path = write_csv(bad.file, kHeader + bad.row + "\n");
    EXPECT_EQ(error_of(path), path + bad.error);
  }
  const std::string header_no_n =
      "OPName,Latency,Device,Torch Version,CUDNN Version,Kernel Name,Warps per SM,Blocks per SM,Grid x,Grid y,Grid z,"
      "Block x,Block y,Block z,CUDA Version,Kernels,B,M,K\n";
  const std::string no_n =
      write_csv("dse_no_n.csv", header_no_n + "linear,1.0,NVIDIA L4,p,1,k,1,1,1,1,1,1,1,1,cu,k,1,2,4\n");
  EXPECT_EQ(error_of(no_n), no_n + ":2: expected N and K columns for a linear row (B, M, N, K), found no N column");
  const std::string short_row = write_csv("dse_short.csv", kHeader + "linear,1.0,NVIDIA L4\n");
  EXPECT_EQ(error_of(short_row), short_row + ":2:1: expected 20 fields as in the header, found 3");
  const std::string no_column = write_csv("dse_no_column.csv", "OPName,Latncy\nlinear,1\n");
  EXPECT_NE(error_of(no_column).find(":1:1: header: expected a column 'Latency', found columns OPName, Latncy; "
                                     "did you mean 'Latncy'?"),
            std::string::npos);
  EXPECT_EQ(error_of(write_csv("dse_empty.csv", "")),
            (scratch() / "dse_empty.csv").string() + ":1:1: expected a CSV header row, found an empty file");
  const std::string open_quote = write_csv("dse_quote.csv", "a,b\n\"x,1\n");
  EXPECT_EQ(error_of(open_quote), open_quote + ":3:1: expected a closing '\"', found the end of the file");
}

// NeuSight's convolution files (train/collect/conv) carry the layer instead of M, N, K: B,
// Input_Channel, Output_Channel, Kernel_Szie [sic], Input_Size, Stride, Padding; their OPName is
// conv, dse's op conv2d.
TEST(KernelMeasurements, ReadsNeuSightsConvolutions) {
  const auto rows = read_kernel_measurements(std::string(DSE_REFERENCE_DIR) + "/neusight/train_conv.csv");
  EXPECT_EQ(rows.size(), 24662u);  // wc -l minus the header
  std::set<std::string> devices;
  for (const auto& row : rows) devices.insert(row.device);
  EXPECT_EQ(devices.size(), 5u);
  // First row, checked by eye against the file: 38 images of 893 x 5 x 5 onto 326 filters of 3 x 3.
  EXPECT_EQ(rows[0].op, "conv2d");
  EXPECT_EQ(rows[0].device, "NVIDIA A100 80GB PCIe");
  EXPECT_EQ(rows[0].b, 38);
  ASSERT_TRUE(rows[0].conv.has_value());
  const ConvShape& c = *rows[0].conv;
  EXPECT_EQ((std::array<std::int64_t, 9>{c.channels, c.height, c.width, c.out, c.r, c.s, c.stride, c.pad, c.groups}),
            (std::array<std::int64_t, 9>{893, 5, 5, 326, 3, 3, 1, 1, 1}));
  EXPECT_EQ(grid_blocks(rows[0]), 30 * 11);

  const std::string header =
      "OPName,Latency,Device,B,Input_Channel,Output_Channel,Kernel_Szie,Input_Size,Stride,Padding\n";
  const std::string big_kernel = write_csv("dse_conv_kernel.csv", header + "conv,1.0,Tesla T4,2,8,8,9,3,1,1\n");
  EXPECT_EQ(error_of(big_kernel),
            big_kernel + ":2:25: Kernel_Szie: expected a kernel no larger than the padded input (5), found 9");
  const std::string negative_pad = write_csv("dse_conv_pad.csv", header + "conv,1.0,Tesla T4,2,8,8,3,5,1,-1\n");
  EXPECT_EQ(error_of(negative_pad), negative_pad + ":2:31: Padding: expected a padding of 0 or more, found -1");
  const std::string not_conv = write_csv("dse_conv_op.csv", header + "linear,1.0,Tesla T4,2,8,8,3,5,1,1\n");
  EXPECT_EQ(error_of(not_conv),
            not_conv +
                ":2:1: OPName: expected conv in a file of convolutions (it has an Input_Channel column), found "
                "'linear'");
}

// Errors quote a cell or a header cut to 80 bytes and "…(N bytes)", and at most 32 column names: a
// 60 MB cell made a 60 MB error line (issue 54).
TEST(KernelMeasurements, ErrorsQuoteLongCellsCut) {
  const std::string cell(1'000'000, '7');
  const std::string long_number = write_csv("dse_long_cell.csv", kHeader + "linear," + cell +
                                                                     "x,NVIDIA L4,p,1,k,1,1,1,"
                                                                     "1,1,1,1,1,cu,k,1,2,3,4\n");
  EXPECT_EQ(error_of(long_number),
            long_number + ":2:8: Latency: expected a number, found \"" + std::string(80, '7') + "…(1000001 bytes)\"");
  const std::string long_op =
      write_csv("dse_long_op.csv",
                "OPName,Latency,Device,B,Input_Channel,Output_Channel,Kernel_Szie,Input_Size,Stride,"
                "Padding\n" +
                    std::string(200, 'x') + ",1.0,Tesla T4,2,8,8,3,5,1,1\n");
  EXPECT_NE(error_of(long_op).find("found '" + std::string(80, 'x') + "…(200 bytes)'"), std::string::npos)
      << error_of(long_op);
  // A header of one long name and of many: each name cut, the list cut after 32.
  const std::string long_name(1'000'000, 'L');
  const std::string long_header = write_csv("dse_long_header.csv", "OPName," + long_name + "\nlinear,1\n");
  EXPECT_EQ(error_of(long_header), long_header + ":1:1: header: expected a column 'Latency', found columns OPName, " +
                                       std::string(80, 'L') + "…(1000000 bytes)");
  std::string wide;
  for (int i = 0; i < 100'000; ++i) wide += "c" + std::to_string(i) + ",";
  const std::string wide_header = write_csv("dse_wide_header.csv", wide + "OPName\n");
  const std::string message = error_of(wide_header);
  EXPECT_LT(message.size(), 600u) << message.substr(0, 600);
  EXPECT_NE(message.find("c30, c31, …(100001 in all)"), std::string::npos) << message.substr(0, 600);
}

TEST(CsvField, QuotesWhatCsvTableWouldSplitAndReadsBack) {
  EXPECT_EQ(csv_field("ampere_sgemm_128x64_tn"), "ampere_sgemm_128x64_tn");
  const std::string name = "void splitkreduce_kernel<32, 16, int, float>(\"p\")";
  EXPECT_EQ(csv_field(name), "\"void splitkreduce_kernel<32, 16, int, float>(\"\"p\"\")\"");
  const CsvTable table = CsvTable::read(write_csv("dse_field.csv", "kernel,blocks\n" + csv_field(name) + ",7\n"));
  ASSERT_EQ(table.rows().size(), 1u);
  EXPECT_EQ(table.text(table.rows()[0], 0), name);
  EXPECT_EQ(table.integer(table.rows()[0], 1), 7);
}

// Cells are kept in one buffer (not a std::string each): trimmed, unquoted and placed as before,
// and reading row by row gives the same rows as reading the whole table.
TEST(CsvTable, RowByRowGivesTheRowsOfTheWholeTable) {
  const std::string path =
      write_csv("dse_rows.csv", "a, b ,c\n\n 1,\"x, \"\"y\"\"\",  \n\r\n\"two\nlines\",2,3\n  ,\t,\n4,5,6");
  const CsvTable table = CsvTable::read(path);
  EXPECT_EQ(table.header(), (std::vector<std::string>{"a", "b", "c"}));
  const auto dump = [](const CsvTable& t, const CsvTable::Row& row) {
    std::string text = std::to_string(row.line);
    for (std::size_t c = 0; c < t.header().size(); ++c)
      text += " " + std::to_string(t.cell_column(row, c)) + "[" + t.text(row, c) + "]";
    return text;
  };
  std::vector<std::string> whole, streamed;
  for (const auto& row : table.rows()) whole.push_back(dump(table, row));
  EXPECT_EQ(whole, (std::vector<std::string>{"3 1[1] 4[x, \"y\"] 15[]", "5 1[two\nlines] 8[2] 10[3]", "7 1[] 4[] 6[]",
                                             "8 1[4] 3[5] 5[6]"}));
  std::size_t column_b = 0;
  CsvTable::for_each_row(
      path, [&](const CsvTable& t) { column_b = t.column("b"); },
      [&](const CsvTable& t, const CsvTable::Row& row) { streamed.push_back(dump(t, row)); });
  EXPECT_EQ(column_b, 1u);
  EXPECT_EQ(streamed, whole);
  const std::string ragged = write_csv("dse_ragged.csv", "a,b\n1,2\n3\n");
  EXPECT_THROW(CsvTable::for_each_row(
                   ragged, [](const CsvTable&) {}, [](const CsvTable&, const CsvTable::Row&) {}),
               UserError);
}

}  // namespace dse
