#include "rbmix/picture_output.hpp"

#include <cmath>

#include "rbmix/core/error.hpp"
#include "rbmix/report/png_image.hpp"

namespace rbmix::cli {

std::optional<ImageShape> image_shape(const std::string& text, Eigen::Index units) {
  if (text.empty()) {
    const auto side = static_cast<Eigen::Index>(std::llround(std::sqrt(static_cast<double>(units))));
    if (side * side == units) return std::make_pair(side, side);
    return std::nullopt;
  }
  const std::size_t cross = text.find('x');
  std::size_t used_height = 0, used_width = 0;
  long long height = 0, width = 0;
  try {
    require(cross != std::string::npos, "");
    height = std::stoll(text.substr(0, cross), &used_height);
    width = std::stoll(text.substr(cross + 1), &used_width);
  } catch (const std::exception&) {
    throw InputError("--image-shape '" + text + "': expected HxW, e.g. 28x28");
  }
  require(used_height == cross && used_width == text.size() - cross - 1 && height >= 1 && width >= 1,
          "--image-shape '" + text + "': expected HxW with positive integers, e.g. 28x28");
  require(height * width == units, "--image-shape " + text + " has " + std::to_string(height * width) +
                                       " pixels but the model has " + std::to_string(units) + " visible units");
  return std::make_pair(static_cast<Eigen::Index>(height), static_cast<Eigen::Index>(width));
}

std::string write_weight_filters(const std::filesystem::path& file, const Matrix<double>& weights,
                                 const ImageShape& shape, FilterContrast contrast, Eigen::Index columns) {
  const std::string caption = weight_filter_caption(weights, contrast);
  write_png(file, tile_images(weight_filter_images(weights, contrast), shape.first, shape.second, {columns}),
            {{"Description", caption}});
  return caption;
}

}  // namespace rbmix::cli
