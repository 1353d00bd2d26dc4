// Reading CSV files (RFC 4180: commas, double-quoted fields with "" escapes) with positions, so that
// every error can say FILE:LINE:COL and the column's name.
//
// Memory: a table keeps every cell's text once, in one buffer, with 12 bytes per cell and per row
// (a 64 MiB file of one-character rows needs ~13x its size, not a std::string per cell);
// for_each_row keeps only the row at hand, for readers that turn rows into their own records.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dse {

class CsvTable {
 public:
  // One row of the file: its line and where its cells are in the table.
  struct Row {
    int line = 0;
    std::uint32_t first_cell = 0;
    std::uint32_t cell_count = 0;
  };

  // Reads the whole file; the first row is the header. UserError if unreadable or malformed.
  // `drop_trailing_empty`: a row ending in "," has no extra empty field (SCALE-Sim's files).
  // `stop_at_blank_line`: the table ends at the first blank line after a data row (logs that append
  // a summary block after one, as the BatchDVFS paper's do); otherwise blank lines are skipped.
  static CsvTable read(const std::string& path, bool drop_trailing_empty = false, bool stop_at_blank_line = false);
  // Reads the file row by row, keeping only the row at hand: `on_header(table)` once the header is
  // read (look columns up there), then `on_row(table, row)` for each data row, in which `table`
  // holds the header and that row only. The same errors as read(), each when its row is reached.
  using HeaderHandler = std::function<void(const CsvTable&)>;
  using RowHandler = std::function<void(const CsvTable&, const Row&)>;
  static void for_each_row(const std::string& path, const HeaderHandler& on_header, const RowHandler& on_row,
                           bool drop_trailing_empty = false, bool stop_at_blank_line = false);

  const std::string& path() const { return path_; }
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<Row>& rows() const { return rows_; }
  // Index of a header name; UserError naming the file and the columns present if absent.
  std::size_t column(const std::string& name) const;
  // The 1-based character column where a row's field starts (for messages).
  int cell_column(const Row& row, std::size_t column) const { return cell(row, column).column; }

  // Typed cell reads with "FILE:LINE:COL: NAME: expected ..., found ..." errors.
  std::string text(const Row& row, std::size_t column) const { return std::string(view(row, column)); }
  double number(const Row& row, std::size_t column) const;
  std::int64_t integer(const Row& row, std::size_t column) const;

 private:
  struct Cell {
    std::uint32_t offset = 0;  // into text_
    std::uint32_t size = 0;
    std::int32_t column = 1;  // 1-based character column where the field starts
  };
  const Cell& cell(const Row& row, std::size_t column) const { return cells_[row.first_cell + column]; }
  std::string_view view(const Row& row, std::size_t column) const {
    const Cell& c = cell(row, column);
    return std::string_view(text_).substr(c.offset, c.size);
  }
  // Splits `data` into rows of trimmed, unquoted cells, appending each row's cells to text_ and
  // cells_ and calling `row_done(row)` for each row that is not blank (which may clear them).
  void split(const std::string& data, bool drop_trailing_empty, bool stop_at_blank_line,
             const std::function<void(const Row&)>& row_done);
  void check_field_count(const Row& row) const;
  [[noreturn]] void fail(const Row& row, std::size_t column, const std::string& message) const;

  std::string path_;
  std::vector<std::string> header_;
  std::string text_;  // every cell's text, one after another
  std::vector<Cell> cells_;
  std::vector<Row> rows_;
};

// One field for writing CSV: quoted (with "" for each quote) when it holds a comma, a quote or a
// line break, as CsvTable reads it back.
std::string csv_field(const std::string& text);

}  // namespace dse
