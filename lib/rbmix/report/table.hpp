#pragma once
// Table: a small column-named table of results that is written as CSV and printed aligned for the terminal.
// The CSV is tidy, for pandas, R or a spreadsheet to read without cleaning: a missing value (an empty cell, or a
// NaN) is an empty field, never a placeholder text in a numeric column; booleans are true/false; doubles are the
// shortest text that reads back exactly (std::to_chars).
#include <filesystem>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

namespace rbmix {

class Table {
 public:
  // std::monostate: missing (Table::missing()).
  using Cell = std::variant<std::monostate, std::string, double, long long, bool>;
  static Cell missing() { return std::monostate{}; }

  explicit Table(std::vector<std::string> columns);

  // Appends a row; throws InputError if the cell count differs from the column count.
  void add_row(std::vector<Cell> cells);

  std::size_t rows() const { return rows_.size(); }
  const std::vector<std::string>& columns() const { return columns_; }
  const Cell& at(std::size_t row, std::size_t column) const { return rows_.at(row).at(column); }

  // CSV with a header line; doubles as the shortest text that reads back exactly, missing values and NaN empty.
  std::string to_csv() const;
  void write_csv(const std::filesystem::path& path) const;
  // Aligned columns, doubles with `digits` significant digits, missing values and NaN as "-".
  void print(std::ostream& out, int digits = 5) const;

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<Cell>> rows_;
};

}  // namespace rbmix
