#pragma once
// IDX files, the format of MNIST and Fashion-MNIST (LeCun et al.): a magic number 0x00 0x00 <type> <rank>, then
// <rank> big-endian 32-bit dimensions, then the data in C order. Files may be plain or gzip-compressed (zlib reads
// both). Only unsigned-byte data (type 0x08) is supported — the type of every MNIST-style file.
// Promise: a file is read completely or not at all; bad magic, another data type, a wrong rank, dimensions beyond
// max_idx_bytes, truncated data, trailing bytes or a corrupt gzip stream are InputErrors naming the file.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix {

// Pixel intensities 0–255, one image per row (the same storage as BinaryMatrix, different values).
using ByteMatrix = BinaryMatrix;

// Images of height × width pixels, each stored as one row of `pixels` (pixel (r, c) is column r·width + c).
struct Images {
  ByteMatrix pixels;
  Eigen::Index height = 0;
  Eigen::Index width = 0;
};

// A file announcing more data than this is corrupt: MNIST's training images are 47 MB.
inline constexpr std::uint64_t max_idx_bytes = std::uint64_t{1} << 32;

// The magic numbers of MNIST's files: unsigned bytes of rank 3 (images) and rank 1 (labels).
inline constexpr std::uint32_t idx_images_magic = 0x00000803;
inline constexpr std::uint32_t idx_labels_magic = 0x00000801;

struct IdxArray {
  std::vector<std::uint32_t> dimensions;
  std::vector<std::uint8_t> data;
};

// Any unsigned-byte IDX array.
IdxArray read_idx(const std::filesystem::path& file);
// An images file (magic 0x00000803): count × height × width.
Images read_idx_images(const std::filesystem::path& file);
// A labels file (magic 0x00000801).
std::vector<std::uint8_t> read_idx_labels(const std::filesystem::path& file);

}  // namespace rbmix
