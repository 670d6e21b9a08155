#pragma once
// Greyscale pictures of binary or grey-level samples as PNG files (through libpng), e.g. a sampler's sequence of
// digits laid out in a grid.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix {

// 8-bit grey pixels, row-major: 0 black, 255 white.
struct GreyImage {
  Eigen::Index height = 0;
  Eigen::Index width = 0;
  std::vector<std::uint8_t> pixels;
};

// Rows of `images` (each one picture of height × width values in [0, 1], row-major; values outside are clamped)
// tiled left to right, top to bottom, `columns` tiles per grid row, with a one-pixel mid-grey border around every
// tile. A value v becomes the grey level round(255·v).
GreyImage tile_images(const MatrixF& images, Eigen::Index height, Eigen::Index width, Eigen::Index columns);

// Writes the image as an 8-bit greyscale PNG, through a temporary file and a rename; failures are InputErrors
// naming the file.
void write_png(const std::filesystem::path& file, const GreyImage& image);

}  // namespace rbmix
