#pragma once
// The pictures the commands write beside their results when the visible layer is an image: how --image-shape is
// read, and the weight filters of a model as a PNG grid (rbmix model show --filters, rbmix train).
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "rbmix/core/types.hpp"
#include "rbmix/report/weight_filters.hpp"

namespace rbmix::cli {

using ImageShape = std::pair<Eigen::Index, Eigen::Index>;  // height, width

// "HxW" (InputError unless H·W = units), or, when `text` is empty, the square root of `units` when it is a perfect
// square; nullopt when the visible layer is not a picture.
std::optional<ImageShape> image_shape(const std::string& text, Eigen::Index units);

// Writes `weights` (n_hidden × H·W) as a grid of filters, `columns` tiles a row, with a Description text chunk
// saying what a tile shows; returns that description.
std::string write_weight_filters(const std::filesystem::path& file, const Matrix<double>& weights,
                                 const ImageShape& shape, FilterContrast contrast, Eigen::Index columns);

}  // namespace rbmix::cli
