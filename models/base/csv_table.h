// Reading CSV files (RFC 4180: commas, double-quoted fields with "" escapes) with positions, so that
// every error can say FILE:LINE:COL and the column's name.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dse {

class CsvTable {
 public:
  struct Cell {
    std::string text;
    int column = 1;  // 1-based character column where the field starts
  };
  struct Row {
    int line = 0;
    std::vector<Cell> cells;
  };

  // Reads the whole file; the first row is the header. UserError if unreadable or malformed.
  // `drop_trailing_empty`: a row ending in "," has no extra empty field (SCALE-Sim's files).
  // `stop_at_blank_line`: the table ends at the first blank line after a data row (logs that append
  // a summary block after one, as the BatchDVFS paper's do); otherwise blank lines are skipped.
  static CsvTable read(const std::string& path, bool drop_trailing_empty = false, bool stop_at_blank_line = false);

  const std::string& path() const { return path_; }
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<Row>& rows() const { return rows_; }
  // Index of a header name; UserError naming the file and the columns present if absent.
  std::size_t column(const std::string& name) const;

  // Typed cell reads with "FILE:LINE:COL: NAME: expected ..., found ..." errors.
  const std::string& text(const Row& row, std::size_t column) const;
  double number(const Row& row, std::size_t column) const;
  std::int64_t integer(const Row& row, std::size_t column) const;

 private:
  [[noreturn]] void fail(const Row& row, std::size_t column, const std::string& message) const;
  std::string path_;
  std::vector<std::string> header_;
  std::vector<Row> rows_;
};

// One field for writing CSV: quoted (with "" for each quote) when it holds a comma, a quote or a
// line break, as CsvTable reads it back.
std::string csv_field(const std::string& text);

}  // namespace dse
