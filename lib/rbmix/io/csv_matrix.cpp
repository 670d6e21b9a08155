#include "rbmix/io/csv_matrix.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

std::string_view trim(std::string_view field) {
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!field.empty() && blank(field.front())) field.remove_prefix(1);
  while (!field.empty() && blank(field.back())) field.remove_suffix(1);
  return field;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(
        trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

enum class FieldKind { number, out_of_range, other };

// Whether the whole field is one number (finite or not; *value holds it), one beyond a double's range, or not a
// number.
FieldKind parse_number(std::string_view field, double* value) {
  if (!field.empty() && field.front() == '+') field.remove_prefix(1);
  if (field.empty()) return FieldKind::other;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), *value);
  if (end != field.data() + field.size()) return FieldKind::other;
  if (error == std::errc::result_out_of_range) return FieldKind::out_of_range;
  return error == std::errc() ? FieldKind::number : FieldKind::other;
}

// What is wrong with a field that is not a finite number, for the message.
std::string describe_bad_field(std::string_view field, double value, FieldKind kind) {
  constexpr std::size_t shown_characters = 40;
  std::string shown(1, '\'');  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "'" + string
  shown.append(field.substr(0, shown_characters));
  shown.push_back('\'');
  if (field.empty()) return "is empty";
  if (kind == FieldKind::out_of_range) return "is " + shown + ", outside the range of a double";
  if (kind == FieldKind::other) return "is " + shown + ", not a number";
  return std::isnan(value) ? "is NaN" : "is an infinity";
}

}  // namespace

NpyArray decode_csv_matrix(std::string_view text, const std::string& source) {
  constexpr std::string_view byte_order_mark = "\xEF\xBB\xBF";
  if (text.substr(0, byte_order_mark.size()) == byte_order_mark) text.remove_prefix(byte_order_mark.size());
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  while (!lines.empty() && trim(lines.back()).empty()) lines.pop_back();
  require(!lines.empty(), source + ": the CSV file holds no rows (it is empty)");

  const auto where = [&](std::size_t line, std::size_t column) {
    return source + ": line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1);
  };
  std::size_t first_row = 0;
  const std::vector<std::string_view> first_fields = split_fields(lines.front());
  bool header = true;
  for (const std::string_view field : first_fields) {
    double value = 0.0;
    header = header && !field.empty() && parse_number(field, &value) == FieldKind::other;
  }
  if (header) first_row = 1;
  require(first_row < lines.size(), source + ": the CSV file holds a header line but no rows");

  const std::size_t columns = first_fields.size();
  NpyArray array{
      NpyDtype::float64, {static_cast<std::int64_t>(lines.size() - first_row), static_cast<std::int64_t>(columns)}, {}};
  array.bytes.resize((lines.size() - first_row) * columns * sizeof(double));
  char* out = array.bytes.data();
  for (std::size_t line = first_row; line < lines.size(); ++line) {
    require(!trim(lines[line]).empty(), [&] { return where(line, 0) + ": the line is empty, between rows"; });
    const std::vector<std::string_view> fields = split_fields(lines[line]);
    require(fields.size() == columns, [&] {
      return where(line, std::min(fields.size(), columns)) + ": the row has " + std::to_string(fields.size()) +
             " fields but line 1 has " + std::to_string(columns) + " (ragged rows)";
    });
    for (std::size_t column = 0; column < columns; ++column) {
      double value = 0.0;
      const FieldKind kind = parse_number(fields[column], &value);
      require(kind == FieldKind::number && std::isfinite(value),
              [&] { return where(line, column) + ": the field " + describe_bad_field(fields[column], value, kind); });
      std::memcpy(out, &value, sizeof(double));
      out += sizeof(double);
    }
  }
  return array;
}

}  // namespace rbmix
