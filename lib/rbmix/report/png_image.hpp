#pragma once
// Greyscale pictures of binary or grey-level samples, or of weights, as PNG files (through libpng), e.g. a
// sampler's sequence of digits laid out in a grid.
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/io/grey_image.hpp"

namespace rbmix {

// A tile should be at least this many pixels across to be read on a screen: a 4×4 bars-and-stripes tile drawn one
// pixel per value is a speck.
inline constexpr Eigen::Index kMinimumTileSide = 32;

// Each value drawn as a square of `scale` × `scale` pixels (nearest-neighbour upscaling: a binary picture stays
// binary); 0 picks the smallest scale that makes the tile's shorter side at least kMinimumTileSide pixels.
struct ImageGrid {
  Eigen::Index columns = 10;
  Eigen::Index scale = 0;
};

// The pixels of mid-grey between tiles and around the grid: 1 at scale 1, otherwise a quarter of a value's square
// (at least 2), so that the gaps stay visible next to the enlarged tiles.
Eigen::Index grid_gap(Eigen::Index scale);
// The scale ImageGrid{…, 0} chooses for tiles of height × width values.
Eigen::Index automatic_tile_scale(Eigen::Index height, Eigen::Index width);

// Rows of `images` (each one picture of height × width values in [0, 1], row-major; values outside are clamped)
// tiled left to right, top to bottom, `grid.columns` tiles per grid row, each value a square of grid.scale pixels,
// with grid_gap(scale) pixels of mid-grey around every tile. A value v becomes the grey level round(255·v).
// The 8-bit level of a grey value in [0, 1] (clamped), as tile_images draws it: round(255 · value).
std::uint8_t grey_level(float value);

GreyImage tile_images(const MatrixF& images, Eigen::Index height, Eigen::Index width, const ImageGrid& grid);

// Keyword and text of a PNG tEXt chunk, e.g. {"Description", "binary samples, one per tile"}. Keywords are 1–79
// printable Latin-1 characters (PNG spec. §11.3.4.3); both are written as given.
using PngText = std::vector<std::pair<std::string, std::string>>;

// Writes the image as an 8-bit greyscale PNG with the given text chunks, through a temporary file and a rename;
// failures are InputErrors naming the file.
void write_png(const std::filesystem::path& file, const GreyImage& image, const PngText& text = {});

}  // namespace rbmix
