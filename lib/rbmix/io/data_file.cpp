#include "rbmix/io/data_file.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

#include "rbmix/core/error.hpp"
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

DataFile read_png_directory(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error))
    if (lower_extension(entry.path()) == ".png" && !entry.is_directory()) files.push_back(entry.path());
  require(!error, [&] { return directory.string() + ": cannot list the directory (" + error.message() + ")"; });
  require(!files.empty(), directory.string() + ": the directory holds no .png images");
  std::sort(files.begin(), files.end());
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
