#include "rbmix/io/data_file.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#include "rbmix/core/error.hpp"
#include "rbmix/core/memory_limit.hpp"
#include "rbmix/io/csv_matrix.hpp"
#include "rbmix/io/file_bytes.hpp"
#include "rbmix/io/png_decoder.hpp"

namespace rbmix {
namespace {

constexpr std::string_view npy_signature = "\x93NUMPY";
constexpr std::string_view png_signature = "\x89PNG\r\n\x1a\n";

std::string lower_extension(const std::filesystem::path& file) {
  std::string extension = file.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

bool starts_with(const std::string& bytes, std::string_view prefix) {
  return bytes.compare(0, prefix.size(), prefix) == 0;
}

// Rows of images, each x/255 (the grey level load_grey_levels reads from |u1 intensities).
DataFile images_as_rows(const std::vector<GreyImage>& images) {
  const Eigen::Index pixels = images.front().height * images.front().width;
  DataFile data{{NpyDtype::float64, {static_cast<std::int64_t>(images.size()), pixels}, {}},
                DataFileFormat::png,
                std::pair{images.front().height, images.front().width}};
  data.array.bytes.resize(images.size() * static_cast<std::size_t>(pixels) * sizeof(double));
  constexpr double max_intensity = 255.0;
  char* out = data.array.bytes.data();
  for (const GreyImage& image : images)
    for (const std::uint8_t pixel : image.pixels) {
      const double value = pixel / max_intensity;
      std::memcpy(out, &value, sizeof(double));
      out += sizeof(double);
    }
  return data;
}

// The pixels of a PNG by its IHDR chunk, which the PNG specification (§11.2.2) puts first, read without decoding:
// width and height are the big-endian words at bytes 16 and 20. 0 where the file is no such PNG (decode_png then
// refuses it with the reason).
std::uint64_t png_header_pixels(const std::filesystem::path& file) {
  constexpr std::size_t header_bytes = 24;
  std::string header(header_bytes, '\0');
  std::ifstream in(file, std::ios::binary);
  if (!in.read(header.data(), header_bytes) || !starts_with(header, png_signature) ||
      header.compare(12, 4, "IHDR") != 0)
    return 0;
  const auto word = [&](std::size_t at) {
    std::uint64_t value = 0;
    for (std::size_t k = 0; k < 4; ++k) value = value << 8 | static_cast<unsigned char>(header[at + k]);
    return value;
  };
  return word(16) * word(20);
}

// Every image becomes a row of doubles beside its 8-bit pixels: a directory whose headers add up to more than the
// memory this process may use (the machine's, or its container's limit: memory_limit.hpp) is refused before any
// image is decoded, instead of failing for memory part way through or being killed by the kernel.
void require_png_directory_fits(const std::filesystem::path& directory,
                                const std::vector<std::filesystem::path>& files) {
  std::uint64_t pixels = 0;
  for (const auto& file : files) pixels += std::min<std::uint64_t>(png_header_pixels(file), kMaxDecodedPngPixels);
  char text[96];
  std::snprintf(text, sizeof text, ": its %zu images of %.3g pixels in all, as rows,", files.size(),
                static_cast<double>(pixels));
  require_fits_in_memory(pixels * (sizeof(double) + 1), directory.string() + text);
}

DataFile read_png_directory(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error))
    if (lower_extension(entry.path()) == ".png" && !entry.is_directory()) files.push_back(entry.path());
  require(!error, [&] { return directory.string() + ": cannot list the directory (" + error.message() + ")"; });
  require(!files.empty(), directory.string() + ": the directory holds no .png images");
  std::sort(files.begin(), files.end());
  require_png_directory_fits(directory, files);
  std::vector<GreyImage> images;
  images.reserve(files.size());
  for (const auto& file : files) {
    images.push_back(decode_png(read_file_bytes(file), file.string()));
    const GreyImage& first = images.front();
    const GreyImage& image = images.back();
    require(image.height == first.height && image.width == first.width, [&] {
      return file.string() + ": the image is " + std::to_string(image.height) + " × " + std::to_string(image.width) +
             " pixels (height × width) but " + files.front().string() + " is " + std::to_string(first.height) + " × " +
             std::to_string(first.width) + "; every image of a data directory must have the same shape";
    });
  }
  return images_as_rows(images);
}

}  // namespace

std::string to_string(DataFileFormat format) {
  switch (format) {
    case DataFileFormat::npy:
      return "npy";
    case DataFileFormat::csv:
      return "csv";
    case DataFileFormat::png:
      return "png";
  }
  return "unknown";
}

DataFile read_data_file(const std::filesystem::path& file) {
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) return read_png_directory(file);
  return decode_data_file(read_file_bytes(file), file.string());
}

DataFile decode_data_file(std::string bytes, const std::string& source) {
  if (starts_with(bytes, npy_signature)) return {decode_npy(bytes, source), DataFileFormat::npy, std::nullopt};
  if (starts_with(bytes, png_signature)) return images_as_rows({decode_png(bytes, source)});
  const std::string extension = lower_extension(source);
  if (extension == ".csv" || extension == ".txt") return {decode_csv_matrix(bytes, source), DataFileFormat::csv, {}};
  require(extension != ".npy", source + ": not a .npy file (the NumPy signature is missing)");
  require(extension != ".png", source + ": not a PNG file (the PNG signature is missing)");
  throw InputError(source +
                   ": not a data file rbmix reads (.npy, .csv or .txt of comma-separated numbers, a greyscale .png "
                   "or a directory of them)");
}

}  // namespace rbmix
