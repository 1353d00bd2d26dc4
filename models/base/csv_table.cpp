#include "models/base/csv_table.h"

#include "models/base/input_file.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "models/base/cut_input.h"
#include "models/base/did_you_mean.h"
#include "models/base/errors.h"

namespace dse {
namespace {

std::string trim(std::string text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

}  // namespace

CsvTable CsvTable::read(const std::string& path, bool drop_trailing_empty, bool stop_at_blank_line) {
  const std::string data = read_input_file(path, kMaxTextInputBytes, "a CSV file");
  if (data.find('\0') != std::string::npos) throw UserError(path + ": expected CSV text, found binary data");

  CsvTable table;
  table.path_ = path;
  std::vector<Row> rows;
  Row row{1, {}};
  Cell cell{"", 1};
  bool quoted = false, any = false, stopped = false;
  int line = 1, column = 1;
  const auto end_row = [&] {
    row.cells.push_back({trim(cell.text), cell.column});
    if (drop_trailing_empty && row.cells.size() > 1 && row.cells.back().text.empty()) row.cells.pop_back();
    const bool blank = row.cells.size() == 1 && row.cells[0].text.empty();
    if (!blank) rows.push_back(std::move(row));
    if (blank && stop_at_blank_line && rows.size() > 1) stopped = true;
    row = Row{line, {}};
    cell = Cell{"", 1};
  };
  for (std::size_t i = 0; i < data.size() && !stopped; ++i) {
    const char c = data[i];
    any = true;
    if (quoted) {
      if (c == '"' && i + 1 < data.size() && data[i + 1] == '"') {
        cell.text += '"';
        ++i;
        ++column;
      } else if (c == '"') {
        quoted = false;
      } else {
        cell.text += c;
      }
      if (c == '\n') ++line, column = 0;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.cells.push_back({trim(cell.text), cell.column});
      cell = Cell{"", column + 1};
    } else if (c == '\n') {
      ++line;
      column = 0;
      end_row();
    } else {
      cell.text += c;
    }
    ++column;
  }
  if (quoted)
    throw UserError(path + ":" + std::to_string(line) + ":" + std::to_string(column) +
                    ": expected a closing '\"', found the end of the file");
  if (any && !stopped && (!cell.text.empty() || !row.cells.empty())) end_row();
  if (rows.empty()) throw UserError(path + ":1:1: expected a CSV header row, found an empty file");
  for (const auto& header_cell : rows.front().cells) table.header_.push_back(header_cell.text);
  table.rows_.assign(std::make_move_iterator(rows.begin() + 1), std::make_move_iterator(rows.end()));
  for (const auto& r : table.rows_) {
    if (r.cells.size() != table.header_.size()) {
      throw UserError(path + ":" + std::to_string(r.line) + ":1: expected " + std::to_string(table.header_.size()) +
                      " fields as in the header, found " + std::to_string(r.cells.size()));
    }
  }
  return table;
}

std::size_t CsvTable::column(const std::string& name) const {
  for (std::size_t i = 0; i < header_.size(); ++i)
    if (header_[i] == name) return i;
  throw UserError(path_ + ":1:1: header: expected a column '" + name + "', found columns " + join_cut_input(header_) +
                  did_you_mean_suffix(name, header_));
}

void CsvTable::fail(const Row& row, std::size_t column, const std::string& message) const {
  throw UserError(path_ + ":" + std::to_string(row.line) + ":" + std::to_string(row.cells[column].column) + ": " +
                  cut_input(header_[column]) + ": " + message);
}

const std::string& CsvTable::text(const Row& row, std::size_t column) const { return row.cells[column].text; }

double CsvTable::number(const Row& row, std::size_t column) const {
  const std::string& text = row.cells[column].text;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    fail(row, column, "expected a number, found \"" + cut_input(text) + "\"");
  return value;
}

std::int64_t CsvTable::integer(const Row& row, std::size_t column) const {
  const std::string& text = row.cells[column].text;
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
