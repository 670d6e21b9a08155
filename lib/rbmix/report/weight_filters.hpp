#pragma once
// Weight filters: each hidden unit's weights W_j· drawn as a picture of the visible layer, the first thing one looks
// at in a trained RBM (Hinton 2010, "A practical guide", §15 — docs/bibliography.md).
//
// Grey level 0.5 + W_jk / (2 s): zero weights are mid-grey, +s white, −s black, so that the sign of a weight reads
// the same in every tile. s is max_k |W_jk| (per tile: each unit's pattern at full contrast, magnitudes not
// comparable between tiles) or max_jk |W_jk| (global: tiles comparable, weak units faint).
#include <string>

#include "rbmix/core/types.hpp"

namespace rbmix {

enum class FilterContrast { per_tile, global };

// "per-tile" or "global"; throws InputError naming the accepted values otherwise.
FilterContrast parse_filter_contrast(const std::string& text);
std::string to_string(FilterContrast contrast);

// Row j holds hidden unit j's weights (row j of the n_hidden × n_visible `weights`) as grey levels in [0, 1], for
// tile_images. A unit whose weights are all zero (or the whole matrix, globally) is uniformly mid-grey.
MatrixF weight_filter_images(const Matrix<double>& weights, FilterContrast contrast);

// What the picture shows, for its caption: the contrast and the largest |w| that white stands for.
std::string weight_filter_caption(const Matrix<double>& weights, FilterContrast contrast);

}  // namespace rbmix
