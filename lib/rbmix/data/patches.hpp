#pragma once
// Square patches cut from images, one patch per row (pixel (r, c) of a patch is column r·size + c).
// 000 §4.1 cut 5×5 patches at every position of all 70 000 MNIST images — (28 − 5 + 1)² = 576 per image — and
// thresholded them at 1/2 (threshold_binarize, before or after cutting: it acts pixel by pixel), then split them
// 60 % / 20 % / 20 % into training, validation and test sets. (The paper prints the total as 4,032,000, which is
// 7 000 · 576; all positions of 70 000 images give 40,320,000.) all_patches reproduces that; random_patches draws
// a smaller sample: patch k takes its image and position from RandomStream(seed, k, StreamDomain::patch_sampling).
#include <cstdint>

#include "rbmix/data/idx.hpp"

namespace rbmix {

// Every position of every image, image by image, positions in row-major order.
ByteMatrix all_patches(const Images& images, Eigen::Index patch_size);
// `count` patches, each at a uniformly drawn image and position.
ByteMatrix random_patches(const Images& images, Eigen::Index patch_size, Eigen::Index count, std::uint64_t seed);

}  // namespace rbmix
