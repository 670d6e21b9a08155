#pragma once
// The one reader of data files, which every command's --data, --test, --valid, --labels... goes through (by way of
// binary_data_file.hpp). A data file is any of
//  - a .npy array (npy.hpp), as np.save writes it;
//  - a CSV table of numbers (csv_matrix.hpp), read as a 2-D float64 array;
//  - a greyscale PNG image, read as one row of H·W values x/255 ∈ [0, 1] (row-major pixels), or a directory of
//    them, one row per image in the byte order of the file names (name them img-0001.png, img-0002.png, ... so
//    that this is the intended order); every image of a directory must have the same height and width, and files
//    in it that do not end in .png are not read. Colour and alpha images are refused (png_decoder.hpp).
// Which reader: a directory is read as PNGs; a file by its first bytes (the .npy or PNG signature), otherwise as CSV
// when its name ends in .csv or .txt; anything else is refused naming the formats rbmix reads. Errors are
// InputErrors naming the file (and, for CSV, the line and column).
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "rbmix/io/npy.hpp"

namespace rbmix {

enum class DataFileFormat { npy, csv, png };

struct DataFile {
  NpyArray array;
  DataFileFormat format = DataFileFormat::npy;
  // Height and width of each image (PNG input only): the shape a row was read from.
  std::optional<std::pair<Eigen::Index, Eigen::Index>> image_shape;
};

std::string to_string(DataFileFormat format);

DataFile read_data_file(const std::filesystem::path& file);
// A file's bytes already in memory, read as read_data_file reads a file named `source` (the name picks CSV).
DataFile decode_data_file(std::string bytes, const std::string& source);

}  // namespace rbmix
