#include "rbmix/io/data_file.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/core/memory_limit.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/report/png_image.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::ThrowsMessage;

void write_text(const std::filesystem::path& file, const std::string& text) { std::ofstream(file) << text; }

// The same data set saved as .npy and as CSV loads as the same matrix through every loader.
TEST(DataFile, CsvLoadsAsTheSameMatrixAsNpy) {
  const testing::TemporaryDirectory directory;
  BinaryMatrix binary(3, 4);
  binary << 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1;
  save_binary_matrix(directory / "d.npy", binary);
  write_text(directory / "d.csv", "v1,v2,v3,v4\n0,1,1,0\n1,1,1,1\n0,0,0,1\n");
  EXPECT_EQ(load_binary_matrix(directory / "d.csv"), load_binary_matrix(directory / "d.npy"));
  EXPECT_EQ(read_data_file(directory / "d.csv").format, DataFileFormat::csv);
  EXPECT_EQ(read_data_file(directory / "d.npy").format, DataFileFormat::npy);

  MatrixD grey(2, 2);
  grey << 0.25, 1, 0, 0.125;
  write_npy(directory / "g.npy", matrix_to_npy(grey));
  write_text(directory / "g.txt", "0.25,1\n0,0.125\n");
  EXPECT_EQ(load_grey_levels(directory / "g.txt"), load_grey_levels(directory / "g.npy"));
  // A grey-level CSV is no binary data set, and the message names the value as the .npy reader does.
  EXPECT_THAT([&] { load_binary_matrix(directory / "g.txt"); },
              ThrowsMessage<InputError>(HasSubstr("g.txt: value at row 0, column 0 is 0.25")));
}

// One PNG is one row of x/255 values, as a |u1 .npy array of the same pixels reads with load_grey_levels; a
// directory gives one row per image in file-name order, with the image shape recorded.
TEST(DataFile, PngImagesAreRowsOfGreyLevels) {
  const testing::TemporaryDirectory directory;
  std::filesystem::create_directory(directory / "images");
  BinaryMatrix pixels(3, 6);
  pixels << 0, 255, 128, 3, 0, 255, 255, 255, 0, 0, 17, 1, 0, 0, 0, 0, 0, 0;
  for (Eigen::Index row = 0; row < pixels.rows(); ++row) {
    GreyImage image{2, 3, {}};
    for (Eigen::Index k = 0; k < 6; ++k) image.pixels.push_back(pixels(row, k));
    write_png(directory / "images" / ("img-" + std::to_string(row) + ".png"), image);
  }
  write_text(directory / "images" / "README", "not an image");
  write_npy(directory / "pixels.npy", matrix_to_npy(pixels));

  const DataFile images = read_data_file(directory / "images");
  EXPECT_EQ(images.format, DataFileFormat::png);
  EXPECT_EQ(images.image_shape, (std::pair<Eigen::Index, Eigen::Index>{2, 3}));
  EXPECT_EQ(load_grey_levels(directory / "images"), load_grey_levels(directory / "pixels.npy"));
  const MatrixD one = load_grey_levels(directory / "images" / "img-1.png");
  EXPECT_EQ(one, load_grey_levels(directory / "pixels.npy").row(1));

  // Black and white pictures are binary data.
  write_png(directory / "bw.png", GreyImage{1, 3, {0, 255, 0}});
  EXPECT_EQ(load_binary_matrix(directory / "bw.png"), (BinaryMatrix(1, 3) << 0, 1, 0).finished());

  write_png(directory / "images" / "img-9.png", GreyImage{3, 2, std::vector<std::uint8_t>(6, 0)});
  EXPECT_THAT([&] { read_data_file(directory / "images"); },
              ThrowsMessage<InputError>(HasSubstr("img-9.png: the image is 3 × 2 pixels (height × width) but")));
  std::filesystem::create_directory(directory / "empty");
  EXPECT_THAT([&] { read_data_file(directory / "empty"); },
              ThrowsMessage<InputError>(HasSubstr("empty: the directory holds no .png images")));
}

TEST(DataFile, RefusesFilesOfNoKnownFormatNamingTheFormats) {
  EXPECT_THAT([&] { decode_data_file("1,0\n", "data.dat"); },
              ThrowsMessage<InputError>(HasSubstr("data.dat: not a data file rbmix reads (.npy, .csv")));
  EXPECT_THAT([&] { decode_data_file("1,0\n", "data.npy"); },
              ThrowsMessage<InputError>(HasSubstr("data.npy: not a .npy file")));
  EXPECT_THAT([&] { decode_data_file("1,0\n", "data.png"); },
              ThrowsMessage<InputError>(HasSubstr("data.png: not a PNG file")));
  EXPECT_THAT([&] { decode_data_file("1,0\n1\n", "data.csv"); },
              ThrowsMessage<InputError>(HasSubstr("data.csv: line 2, column 2")));
}

// Labels: |u1 or whole numbers in floats or CSV, one per line; anything else refused with the label's index.
TEST(DataFile, LabelsFromCsvAndFloatsMustBeIntegers) {
  const testing::TemporaryDirectory directory;
  write_text(directory / "labels.csv", "label\n3\n0\n9\n1\n");
  EXPECT_EQ(load_labels(directory / "labels.csv"), (std::vector<int>{3, 0, 9, 1}));
  write_npy(directory / "labels.npy", vector_to_npy(VectorD((VectorD(3) << 2, 0, 7).finished())));
  EXPECT_EQ(load_labels(directory / "labels.npy"), (std::vector<int>{2, 0, 7}));
  write_text(directory / "half.csv", "1\n2.5\n");
  EXPECT_THAT([&] { load_labels(directory / "half.csv"); },
              ThrowsMessage<InputError>(HasSubstr("half.csv: label 1 (counted from 0) is 2.5; a class label is an "
                                                  "integer from 0 to 65535")));
  write_text(directory / "negative.csv", "-1\n");
  EXPECT_THAT([&] { load_labels(directory / "negative.csv"); }, ThrowsMessage<InputError>(HasSubstr("is -1")));
  write_text(directory / "wide.csv", "1,2\n");
  EXPECT_THAT([&] { load_labels(directory / "wide.csv"); },
              ThrowsMessage<InputError>(HasSubstr("one column (one label per line of a CSV file), found 2 columns")));
}

// A directory of images that cannot all be held is refused from their headers, before any is decoded: files that
// hold only the PNG signature and an IHDR chunk of 4096 × 4096 pixels (1.5e8 bytes each as doubles and 8-bit levels),
// one more than the memory this process may use holds (the machine's, or its cgroup's limit: memory_limit.hpp).
TEST(DataFile, APngDirectoryLargerThanMemoryIsRefusedFromItsHeaders) {
  const testing::TemporaryDirectory directory;
  std::filesystem::create_directory(directory / "large");
  const std::string header("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x10\0\0\0\x10\0\x08\0\0\0\0", 29);
  const MemoryLimit limit = memory_limit();
  const std::uint64_t memory = limit.bytes;
  const std::uint64_t image_bytes = (std::uint64_t{1} << 24) * (sizeof(double) + 1);
  for (std::uint64_t k = 0; k <= memory / image_bytes; ++k)
    std::ofstream(directory / "large" / ("img-" + std::to_string(k) + ".png"), std::ios::binary) << header;
  EXPECT_THAT([&] { read_data_file(directory / "large"); },
              ThrowsMessage<InputError>(HasSubstr((directory / "large").string() + ": its " +
                                                  std::to_string(memory / image_bytes + 1) + " images of")));
  EXPECT_THAT([&] { read_data_file(directory / "large"); },
              ThrowsMessage<InputError>(HasSubstr("GB, more than the ")));
  EXPECT_THAT([&] { read_data_file(directory / "large"); }, ThrowsMessage<InputError>(HasSubstr(limit.source)));
  // One image fewer fits.
  std::filesystem::remove(directory / "large" / "img-0.png");
  EXPECT_THAT([&] { read_data_file(directory / "large"); },
              ThrowsMessage<InputError>(Not(HasSubstr(limit.source))));
}

}  // namespace
}  // namespace rbmix
