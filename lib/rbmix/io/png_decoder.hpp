#pragma once
// PNG data files decoded into grey pixels (through libpng): the data reader turns each image into a row
// (data_file.hpp).
#include <string>
#include <string_view>

#include "rbmix/core/types.hpp"
#include "rbmix/io/grey_image.hpp"

namespace rbmix {

// The most pixels decode_png accepts in one image (2^24, a 4096 × 4096 picture): every image becomes one data row,
// and the bound keeps a corrupt header from asking for gigabytes before its data is found missing.
inline constexpr Eigen::Index kMaxDecodedPngPixels = Eigen::Index{1} << 24;

// Reads a greyscale PNG without alpha: 8-bit pixels as stored, 1-, 2- and 4-bit ones expanded to 8 bits (libpng
// scales them, so a 1-bit 1 becomes 255). Colour, palette, alpha and 16-bit images are refused rather than
// converted, as are corrupt or truncated data and images over kMaxDecodedPngPixels, each with an InputError naming
// `source`: a colour-to-grey conversion is a choice (weights, gamma) the user should make knowingly.
GreyImage decode_png(std::string_view bytes, const std::string& source);

}  // namespace rbmix
