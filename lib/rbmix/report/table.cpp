#include "rbmix/report/table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "rbmix/core/error.hpp"
#include "rbmix/io/output_file.hpp"

namespace rbmix {
namespace {

// `digits` significant digits for the terminal; 0: the shortest text that reads back exactly, for files.
std::string format_cell(const Table::Cell& cell, int digits, const char* missing) {
  if (std::holds_alternative<std::monostate>(cell)) return missing;
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  if (const auto* integer = std::get_if<long long>(&cell)) return std::to_string(*integer);
  if (const auto* truth = std::get_if<bool>(&cell)) return *truth ? "true" : "false";
  const double value = std::get<double>(cell);
  if (std::isnan(value)) return missing;
  char buffer[64];
  if (digits > 0) {
    std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
    return buffer;
  }
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string csv_escape(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

Table::Table(std::vector<std::string> columns) : columns_(std::move(columns)) {
  require(!columns_.empty(), "a table needs at least one column");
}

void Table::add_row(std::vector<Cell> cells) {
  require(cells.size() == columns_.size(), "table row has " + std::to_string(cells.size()) + " cells but " +
                                               std::to_string(columns_.size()) + " columns");
  rows_.push_back(std::move(cells));
}

std::string Table::to_csv() const {
  std::ostringstream out;
  for (std::size_t c = 0; c < columns_.size(); ++c) out << (c ? "," : "") << csv_escape(columns_[c]);
  out << '\n';
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < row.size(); ++c) out << (c ? "," : "") << csv_escape(format_cell(row[c], 0, ""));
    out << '\n';
  }
  return out.str();
}

void Table::write_csv(const std::filesystem::path& path) const { write_output_file(path, to_csv()); }

void Table::print(std::ostream& out, int digits) const {
  std::vector<std::size_t> widths(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) widths[c] = columns_[c].size();
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], format_cell(row[c], digits, "-").size());
  const auto line = [&](auto cell_text) {
    for (std::size_t c = 0; c < columns_.size(); ++c)
      out << (c ? "  " : "") << std::setw(static_cast<int>(widths[c])) << cell_text(c);
    out << '\n';
  };
  line([&](std::size_t c) { return columns_[c]; });
  for (const auto& row : rows_) line([&](std::size_t c) { return format_cell(row[c], digits, "-"); });
}

}  // namespace rbmix
