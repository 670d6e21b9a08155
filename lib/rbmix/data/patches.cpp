#include "rbmix/data/patches.hpp"

#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix {
namespace {

void require_patchable(const Images& images, Eigen::Index patch_size) {
  require(images.pixels.cols() == images.height * images.width,
          "patches: images of " + std::to_string(images.height) + "×" + std::to_string(images.width) +
              " pixels stored in rows of " + std::to_string(images.pixels.cols()));
  require(patch_size >= 1 && patch_size <= images.height && patch_size <= images.width,
          "patches: a patch of size " + std::to_string(patch_size) + " does not fit in images of " +
              std::to_string(images.height) + "×" + std::to_string(images.width) + " pixels");
}

void copy_patch(const Images& images, Eigen::Index image, Eigen::Index top, Eigen::Index left, Eigen::Index size,
                ByteMatrix& out, Eigen::Index out_row) {
  for (Eigen::Index r = 0; r < size; ++r)
    for (Eigen::Index c = 0; c < size; ++c)
      out(out_row, r * size + c) = images.pixels(image, (top + r) * images.width + left + c);
}

}  // namespace

ByteMatrix all_patches(const Images& images, Eigen::Index patch_size) {
  require_patchable(images, patch_size);
  const Eigen::Index rows = images.height - patch_size + 1;
  const Eigen::Index columns = images.width - patch_size + 1;
  const Eigen::Index per_image = rows * columns;
  ByteMatrix out(images.pixels.rows() * per_image, patch_size * patch_size);
#pragma omp parallel for schedule(static)
  for (Eigen::Index image = 0; image < images.pixels.rows(); ++image)
    for (Eigen::Index top = 0; top < rows; ++top)
      for (Eigen::Index left = 0; left < columns; ++left)
        copy_patch(images, image, top, left, patch_size, out, image * per_image + top * columns + left);
  return out;
}

ByteMatrix random_patches(const Images& images, Eigen::Index patch_size, Eigen::Index count, std::uint64_t seed) {
  require_patchable(images, patch_size);
  require(images.pixels.rows() > 0, "patches: no images to cut patches from");
  require(count >= 0, "patches: negative patch count");
  ByteMatrix out(count, patch_size * patch_size);
#pragma omp parallel for schedule(static)
  for (Eigen::Index k = 0; k < count; ++k) {
    RandomStream stream(seed, static_cast<std::uint64_t>(k), StreamDomain::patch_sampling);
    const auto image = static_cast<Eigen::Index>(stream.below(static_cast<std::uint64_t>(images.pixels.rows())));
    const auto top =
        static_cast<Eigen::Index>(stream.below(static_cast<std::uint64_t>(images.height - patch_size + 1)));
    const auto left =
        static_cast<Eigen::Index>(stream.below(static_cast<std::uint64_t>(images.width - patch_size + 1)));
    copy_patch(images, image, top, left, patch_size, out, k);
  }
  return out;
}

}  // namespace rbmix
