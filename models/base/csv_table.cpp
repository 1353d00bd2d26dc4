#include "models/base/csv_table.h"

#include "models/base/input_file.h"

#include <charconv>
#include <cmath>

#include "models/base/cut_input.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"

namespace dse {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string read_csv_text(const std::string& path) {
  std::string data = read_input_file(path, kMaxTextInputBytes, "a CSV file");
  if (data.find('\0') != std::string::npos) throw UserError(path + ": expected CSV text, found binary data");
  return data;
}

// Upper bounds of the rows and cells of `data` (a row that is not blank ends a line with something
// on it; each further cell follows a comma), so a whole table is allocated once.
std::pair<std::size_t, std::size_t> count_rows_and_cells(const std::string& data) {
  std::size_t rows = 0, commas = 0;
  bool content = false;
  for (const char c : data) {
    if (c == '\n') {
      rows += content;
      content = false;
    } else {
      content = content || !is_blank(c);
      commas += c == ',';
    }
  }
  rows += content;
  return {rows, rows + commas};
}

}  // namespace

void CsvTable::split(const std::string& data, bool drop_trailing_empty, bool stop_at_blank_line,
                     const std::function<void(const Row&)>& row_done) {
  Row row{1, static_cast<std::uint32_t>(cells_.size()), 0};
  std::size_t cell_start = text_.size();  // this cell's raw text is text_[cell_start, end)
  int cell_column = 1;
  bool quoted = false, any = false, stopped = false;
  int line = 1, column = 1;
  std::size_t rows_done = 0;
  const auto end_cell = [&] {  // trims the cell's text in place
    std::size_t first = cell_start, last = text_.size();
    while (first < last && is_blank(text_[first])) ++first;
    while (last > first && is_blank(text_[last - 1])) --last;
    text_.resize(last);
    text_.erase(cell_start, first - cell_start);
    cells_.push_back({static_cast<std::uint32_t>(cell_start), static_cast<std::uint32_t>(last - first), cell_column});
  };
  const auto end_row = [&] {
    end_cell();
    row.cell_count = static_cast<std::uint32_t>(cells_.size() - row.first_cell);
    if (drop_trailing_empty && row.cell_count > 1 && cells_.back().size == 0) {
      cells_.pop_back();
      --row.cell_count;
    }
    const bool blank = row.cell_count == 1 && cells_.back().size == 0;
    if (blank) {
      text_.resize(cells_.back().offset);
      cells_.pop_back();
      if (stop_at_blank_line && rows_done > 1) stopped = true;
    } else {
      ++rows_done;
      row_done(row);
    }
    row = Row{line, static_cast<std::uint32_t>(cells_.size()), 0};
    cell_start = text_.size();
    cell_column = 1;
  };
  for (std::size_t i = 0; i < data.size() && !stopped; ++i) {
    const char c = data[i];
    any = true;
    if (quoted) {
      if (c == '"' && i + 1 < data.size() && data[i + 1] == '"') {
        text_ += '"';
        ++i;
        ++column;
      } else if (c == '"') {
        quoted = false;
      } else {
        text_ += c;
      }
      if (c == '\n') ++line, column = 0;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      end_cell();
      cell_start = text_.size();
      cell_column = column + 1;
    } else if (c == '\n') {
      ++line;
      column = 0;
      end_row();
    } else {
      text_ += c;
    }
    ++column;
  }
  if (quoted)
    throw UserError(path_ + ":" + std::to_string(line) + ":" + std::to_string(column) +
                    ": expected a closing '\"', found the end of the file");
  if (any && !stopped && (text_.size() > cell_start || cells_.size() > row.first_cell)) end_row();
}

void CsvTable::check_field_count(const Row& row) const {
  if (row.cell_count != header_.size())
    throw UserError(path_ + ":" + std::to_string(row.line) + ":1: expected " + std::to_string(header_.size()) +
                    " fields as in the header, found " + std::to_string(row.cell_count));
}

CsvTable CsvTable::read(const std::string& path, bool drop_trailing_empty, bool stop_at_blank_line) {
  const std::string data = read_csv_text(path);
  CsvTable table;
  table.path_ = path;
  const auto [rows, cells] = count_rows_and_cells(data);
  table.text_.reserve(data.size());
  table.cells_.reserve(cells);
  table.rows_.reserve(rows);
  table.split(data, drop_trailing_empty, stop_at_blank_line, [&table](const Row& row) { table.rows_.push_back(row); });
  if (table.rows_.empty()) throw UserError(path + ":1:1: expected a CSV header row, found an empty file");
  const Row header = table.rows_.front();
  for (std::size_t i = 0; i < header.cell_count; ++i) table.header_.emplace_back(table.view(header, i));
  table.rows_.erase(table.rows_.begin());
  for (const Row& row : table.rows_) table.check_field_count(row);
  return table;
}

void CsvTable::for_each_row(const std::string& path, const HeaderHandler& on_header, const RowHandler& on_row,
                            bool drop_trailing_empty, bool stop_at_blank_line) {
  const std::string data = read_csv_text(path);
  CsvTable table;
  table.path_ = path;
  bool header_read = false;
  table.split(data, drop_trailing_empty, stop_at_blank_line, [&](const Row& row) {
    if (!header_read) {
      for (std::size_t i = 0; i < row.cell_count; ++i) table.header_.emplace_back(table.view(row, i));
      header_read = true;
      on_header(table);
    } else {
      table.check_field_count(row);
      on_row(table, row);
    }
    table.text_.clear();
    table.cells_.clear();
  });
  if (!header_read) throw UserError(path + ":1:1: expected a CSV header row, found an empty file");
}

std::size_t CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return i;
  throw UserError(path_ + ":1:1: header: expected a column '" + name + "', found columns " + join_cut_input(header_) +
                  did_you_mean_suffix(name, header_));
}

void CsvTable::fail(const Row& row, std::size_t column, const std::string& message) const {
  throw UserError(path_ + ":" + std::to_string(row.line) + ":" + std::to_string(cell_column(row, column)) + ": " +
                  cut_input(header_[column]) + ": " + message);
}

double CsvTable::number(const Row& row, std::size_t column) const {
  const std::string_view text = view(row, column);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    fail(row, column, "expected a number, found \"" + cut_input(text) + "\"");
  return value;
}

std::int64_t CsvTable::integer(const Row& row, std::size_t column) const {
  const std::string_view text = view(row, column);
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    fail(row, column, "expected an integer, found \"" + cut_input(text) + "\"");
  return value;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace dse
