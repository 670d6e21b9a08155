#pragma once
// A greyscale picture of 8-bit pixels: what rbmix reads from PNG data files (png_decoder.hpp) and draws samples and
// weights into (report/png_image.hpp).
#include <cstdint>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix {

// 8-bit grey pixels, row-major: 0 black, 255 white.
struct GreyImage {
  Eigen::Index height = 0;
  Eigen::Index width = 0;
  std::vector<std::uint8_t> pixels;
};

}  // namespace rbmix
