#include "rbmix/data/idx.hpp"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <optional>
#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

constexpr std::uint8_t idx_unsigned_byte = 0x08;

// An open file read through zlib, which passes plain files through unchanged and decompresses gzip ones.
class CompressedReader {
 public:
  explicit CompressedReader(const std::filesystem::path& file) : name_(file.string()) {
    require(std::filesystem::is_regular_file(file), name_ + ": no such file");
    handle_.reset(gzopen(name_.c_str(), "rb"));
    require(handle_ != nullptr, name_ + ": cannot open for reading");
  }
  // Reads up to `length` bytes; fewer only at the end of the data.
  std::size_t read(std::uint8_t* out, std::size_t length) {
    std::size_t total = 0;
    while (total < length) {
      const auto piece = static_cast<unsigned>(std::min<std::size_t>(length - total, INT_MAX));
      const int got = gzread(handle_.get(), out + total, piece);
      if (got < 0) {
        int code = 0;
        const char* message = gzerror(handle_.get(), &code);
        throw InputError(name_ + ": corrupt or truncated compressed data (" + message + ")");
      }
      if (got == 0) {
        // gzread ends a stream cut before its trailer (CRC-32 and length) like a complete one and only records
        // Z_BUF_ERROR, "unexpected end of file": without this check a cut trailer would go unnoticed.
        int code = Z_OK;
        const char* message = gzerror(handle_.get(), &code);
        if (code != Z_OK) throw InputError(name_ + ": corrupt or truncated compressed data (" + message + ")");
        break;
      }
      total += static_cast<std::size_t>(got);
    }
    return total;
  }
  const std::string& name() const { return name_; }

 private:
  struct Close {
    void operator()(gzFile file) const { gzclose(file); }
  };
  std::string name_;
  std::unique_ptr<gzFile_s, Close> handle_;
};

std::uint32_t big_endian(const std::uint8_t* bytes) {
  return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) | (std::uint32_t{bytes[2]} << 8) | bytes[3];
}

std::string hex(std::uint32_t value) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) text += digits[(value >> shift) & 0xF];
  return text;
}

IdxArray read_idx_expecting(const std::filesystem::path& file, std::optional<std::uint32_t> expected_magic) {
  CompressedReader reader(file);
  std::uint8_t magic_bytes[4];
  require(reader.read(magic_bytes, 4) == 4, reader.name() + ": truncated IDX file (no magic number)");
  const std::uint32_t magic = big_endian(magic_bytes);
  require(magic_bytes[0] == 0 && magic_bytes[1] == 0 && magic_bytes[3] > 0,
          reader.name() + ": not an IDX file (magic number " + hex(magic) + ")");
  require(magic_bytes[2] == idx_unsigned_byte,
          reader.name() + ": IDX data type " + hex(magic_bytes[2]) + " is not supported (only unsigned bytes, 0x08)");
  if (expected_magic) {
    require(magic == *expected_magic, reader.name() + ": IDX magic number " + hex(magic) + " where " +
                                          hex(*expected_magic) + " was expected (wrong kind of file?)");
  }

  IdxArray array;
  std::uint64_t size = 1;
  for (int k = 0; k < magic_bytes[3]; ++k) {
    std::uint8_t dimension_bytes[4];
    require(reader.read(dimension_bytes, 4) == 4, reader.name() + ": truncated IDX header");
    array.dimensions.push_back(big_endian(dimension_bytes));
    size *= array.dimensions.back();  // at most 2^32 · 2^32 before the check below stops the loop
    require(size <= max_idx_bytes, reader.name() + ": IDX dimensions announce more than " +
                                       std::to_string(max_idx_bytes) + " bytes (corrupt header?)");
  }
  // The data are read in pieces as they arrive, so a header announcing gigabytes in a file of a few bytes (found
  // by fuzzing) costs no more memory than the file holds.
  constexpr std::uint64_t piece = std::uint64_t{1} << 24;
  while (array.data.size() < size) {
    const std::size_t start = array.data.size();
    const auto wanted = static_cast<std::size_t>(std::min(piece, size - start));
    array.data.resize(start + wanted);
    const std::size_t arrived = reader.read(array.data.data() + start, wanted);
    array.data.resize(start + arrived);
    if (arrived < wanted) break;
  }
  const std::size_t got = array.data.size();
  require(got == size, reader.name() + ": truncated IDX data (" + std::to_string(size) + " bytes announced, " +
                           std::to_string(got) + " present)");
  std::uint8_t extra;
  require(reader.read(&extra, 1) == 0, reader.name() + ": unexpected bytes after the IDX data (size mismatch)");
  return array;
}

}  // namespace

IdxArray read_idx(const std::filesystem::path& file) { return read_idx_expecting(file, std::nullopt); }

Images read_idx_images(const std::filesystem::path& file) {
  IdxArray array = read_idx_expecting(file, idx_images_magic);
  Images images;
  images.height = array.dimensions[1];
  images.width = array.dimensions[2];
  images.pixels.resize(array.dimensions[0], images.height * images.width);
  std::copy(array.data.begin(), array.data.end(), images.pixels.data());
  return images;
}

std::vector<std::uint8_t> read_idx_labels(const std::filesystem::path& file) {
  return read_idx_expecting(file, idx_labels_magic).data;
}

}  // namespace rbmix
