#include "rbmix/io/npy.hpp"

#include <bit>
#include <cctype>
#include <cstring>
#include <optional>

#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/output_file.hpp"

namespace rbmix {

static_assert(std::endian::native == std::endian::little,
              "npy and zip files are little-endian and rbmix copies their bytes directly");

namespace {

constexpr std::string_view npy_magic = "\x93NUMPY";
constexpr std::size_t npy_preamble_v1 = 10;  // magic (6) + version (2) + header length (2)
// np.save pads the preamble and header to a multiple of 64 bytes so that the data is aligned for memory mapping.
constexpr std::size_t npy_header_alignment = 64;
// Far beyond any data set or model rbmix handles; a header announcing more is corrupt, not big.
constexpr std::int64_t max_npy_bytes = std::int64_t{1} << 40;

std::uint32_t read_little_endian(std::string_view bytes, std::size_t offset, std::size_t width) {
  std::uint32_t value = 0;
  for (std::size_t k = 0; k < width; ++k)
    value |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[offset + k])) << (8 * k);
  return value;
}

// A parser for the header dictionary, a Python literal such as
//   {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
struct HeaderParser {
  std::string_view text;
  const std::string& source;
  std::size_t position = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(source + ": malformed npy header (" + what + "): " + std::string(text));
  }
  void skip_space() {
    while (position < text.size() && std::isspace(static_cast<unsigned char>(text[position]))) ++position;
  }
  bool consume(char c) {
    skip_space();
    if (position < text.size() && text[position] == c) {
      ++position;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(c)) fail(std::string("expected '") + c + "'");
  }
  std::string string_literal() {
    skip_space();
    if (position >= text.size() || (text[position] != '\'' && text[position] != '"')) fail("expected a string");
    const char quote = text[position++];
    const auto end = text.find(quote, position);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string value(text.substr(position, end - position));
    position = end + 1;
    return value;
  }
  bool boolean_literal() {
    skip_space();
    for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, {std::string_view("False"), false}}) {
      if (text.substr(position, word.size()) == word) {
        position += word.size();
        return value;
      }
    }
    fail("expected True or False");
  }
  std::vector<std::int64_t> shape_tuple() {
    expect('(');
    std::vector<std::int64_t> shape;
    while (!consume(')')) {
      skip_space();
      std::int64_t dimension = 0;
      bool digits = false;
      while (position < text.size() && std::isdigit(static_cast<unsigned char>(text[position]))) {
        dimension = dimension * 10 + (text[position++] - '0');
        digits = true;
        if (dimension > max_npy_bytes) fail("dimension too large");
      }
      if (!digits) fail("expected a non-negative integer dimension");
      consume('L');  // written by Python 2
      shape.push_back(dimension);
      if (!consume(',')) {
        expect(')');
        break;
      }
    }
    return shape;
  }
};

struct Header {
  NpyDtype dtype;
  bool fortran_order;
  std::vector<std::int64_t> shape;
};

NpyDtype parse_descr(const std::string& descr, const std::string& source) {
  if (descr == "<f8") return NpyDtype::float64;
  if (descr == "<f4") return NpyDtype::float32;
  if (descr == "|u1" || descr == "<u1" || descr == ">u1") return NpyDtype::uint8;
  if (descr == "|b1") return NpyDtype::boolean;
  if (descr == "<i8") return NpyDtype::int64;
  if (descr == "<i4") return NpyDtype::int32;
  if (!descr.empty() && descr[0] == '>')
    throw InputError(source + ": big-endian dtype '" + descr + "' is not supported (save it as little-endian)");
  throw InputError(source + ": dtype '" + descr + "' is not supported (expected <f8, <f4, |u1, |b1, <i8 or <i4)");
}

Header parse_header(std::string_view text, const std::string& source) {
  HeaderParser parser{text, source};
  std::optional<NpyDtype> dtype;
  std::optional<bool> fortran_order;
  std::optional<std::vector<std::int64_t>> shape;
  parser.expect('{');
  while (!parser.consume('}')) {
    const std::string key = parser.string_literal();
    parser.expect(':');
    if (key == "descr" && !dtype)
      dtype = parse_descr(parser.string_literal(), source);
    else if (key == "fortran_order" && !fortran_order)
      fortran_order = parser.boolean_literal();
    else if (key == "shape" && !shape)
      shape = parser.shape_tuple();
    else
      parser.fail("unexpected or repeated key '" + key + "'");
    if (!parser.consume(',')) {
      parser.expect('}');
      break;
    }
  }
  parser.skip_space();
  if (parser.position != text.size()) parser.fail("text after the dictionary");
  if (!dtype || !fortran_order || !shape) parser.fail("descr, fortran_order and shape are all required");
  return {*dtype, *fortran_order, std::move(*shape)};
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k > 0) text += ", ";
    text += std::to_string(shape[k]);
  }
  if (shape.size() == 1) text += ",";
  return text + ")";
}

// Element count, refusing negative dimensions and products beyond max_npy_bytes (which would also overflow).
std::int64_t checked_element_count(const std::vector<std::int64_t>& shape, std::size_t item_size,
                                   const std::string& source) {
  std::int64_t count = 1;
  for (const auto dimension : shape) {
    require(dimension >= 0, source + ": negative dimension in shape " + shape_text(shape));
    if (dimension == 0) return 0;
    require(count <= max_npy_bytes / static_cast<std::int64_t>(item_size) / dimension,
            source + ": shape " + shape_text(shape) + " is too large");
    count *= dimension;
  }
  return count;
}

}  // namespace

std::size_t npy_item_size(NpyDtype dtype) {
  switch (dtype) {
    case NpyDtype::float64:
    case NpyDtype::int64:
      return 8;
    case NpyDtype::float32:
    case NpyDtype::int32:
      return 4;
    case NpyDtype::uint8:
    case NpyDtype::boolean:
      return 1;
  }
  return 0;
}

std::string npy_descr(NpyDtype dtype) {
  switch (dtype) {
    case NpyDtype::float64:
      return "<f8";
    case NpyDtype::float32:
      return "<f4";
    case NpyDtype::uint8:
      return "|u1";
    case NpyDtype::boolean:
      return "|b1";
    case NpyDtype::int64:
      return "<i8";
    case NpyDtype::int32:
      return "<i4";
  }
  return "";
}

std::int64_t NpyArray::element_count() const { return checked_element_count(shape, npy_item_size(dtype), "npy array"); }

std::string encode_npy(const NpyArray& array) {
  require(static_cast<std::int64_t>(array.bytes.size()) ==
              array.element_count() * static_cast<std::int64_t>(npy_item_size(array.dtype)),
          "npy array of shape " + shape_text(array.shape) + " holds " + std::to_string(array.bytes.size()) +
              " bytes, which does not match its shape and dtype " + npy_descr(array.dtype));
  std::string header =
      "{'descr': '" + npy_descr(array.dtype) + "', 'fortran_order': False, 'shape': " + shape_text(array.shape) + ", }";
  const std::size_t unpadded = npy_preamble_v1 + header.size() + 1;  // + the closing newline
  header.append((npy_header_alignment - unpadded % npy_header_alignment) % npy_header_alignment, ' ');
  header += '\n';
  require(header.size() <= 0xFFFF, "npy header too long for format version 1.0");

  std::string out(npy_magic);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out += array.bytes;
  return out;
}

NpyArray decode_npy(std::string_view bytes, const std::string& source) {
  require(bytes.size() >= npy_magic.size() && bytes.substr(0, npy_magic.size()) == npy_magic,
          source + ": not an npy file (the magic string \\x93NUMPY is missing)");
  require(bytes.size() >= npy_preamble_v1, source + ": truncated npy preamble");
  const int major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  require((major == 1 || major == 2 || major == 3) && minor == 0,
          source + ": npy format version " + std::to_string(major) + "." + std::to_string(minor) +
              " is not supported (1.0, 2.0 and 3.0 are)");
  // Version 1.0 stores the header length in 2 bytes; 2.0 and 3.0 (UTF-8 header) in 4.
  const std::size_t length_width = major == 1 ? 2 : 4;
  const std::size_t preamble = 8 + length_width;
  require(bytes.size() >= preamble, source + ": truncated npy preamble");
  const std::size_t header_length = read_little_endian(bytes, 8, length_width);
  require(bytes.size() >= preamble + header_length, source + ": truncated npy header (" +
                                                        std::to_string(header_length) + " bytes announced, " +
                                                        std::to_string(bytes.size() - preamble) + " present)");
  const Header header = parse_header(bytes.substr(preamble, header_length), source);
  require(!header.fortran_order || header.shape.size() <= 1,
          source + ": Fortran-order arrays are not supported (save a C-order array, e.g. np.ascontiguousarray)");

  NpyArray array{header.dtype, header.shape, {}};
  const std::size_t item_size = npy_item_size(header.dtype);
  const auto data_size = static_cast<std::size_t>(checked_element_count(header.shape, item_size, source)) * item_size;
  const std::size_t present = bytes.size() - preamble - header_length;
  require(present >= data_size, source + ": truncated npy data (shape " + shape_text(header.shape) + " of " +
                                    npy_descr(header.dtype) + " needs " + std::to_string(data_size) + " bytes, only " +
                                    std::to_string(present) + " present)");
  require(present == data_size, source + ": " + std::to_string(present - data_size) +
                                    " unexpected bytes after the npy data of shape " + shape_text(header.shape));
  array.bytes.assign(bytes.substr(preamble + header_length));
  if (array.dtype == NpyDtype::boolean) {
    for (std::size_t k = 0; k < array.bytes.size(); ++k)
      require(array.bytes[k] == 0 || array.bytes[k] == 1,
              source + ": boolean element " + std::to_string(k) + " is neither 0 nor 1");
  }
  return array;
}

void write_npy(const std::filesystem::path& file, const NpyArray& array) { write_output_file(file, encode_npy(array)); }

NpyArray read_npy(const std::filesystem::path& file) { return decode_npy(read_file_bytes(file), file.string()); }

namespace npy_detail {
void require_dtype_and_rank(const NpyArray& array, NpyDtype dtype, std::size_t rank, const std::string& source) {
  require(array.dtype == dtype,
          source + ": dtype is " + npy_descr(array.dtype) + " but " + npy_descr(dtype) + " is required");
  require(array.shape.size() == rank,
          source + ": a " + std::to_string(rank) + "-D array is required, found shape " + shape_text(array.shape));
}
}  // namespace npy_detail

}  // namespace rbmix
