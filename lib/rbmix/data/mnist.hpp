#pragma once
// MNIST-style data sets in a directory of IDX files named as LeCun distributes them:
//   train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte,
// each plain or gzip-compressed (with a .gz suffix). tools/scripts/fetch-mnist.sh installs MNIST so; Debian's
// dataset-fashion-mnist package installs Fashion-MNIST so (gzip) in /usr/share/datasets/fashion-mnist.
// Promise: images and labels come back together, with equal counts, or an InputError names what is missing or wrong.
#include <filesystem>
#include <vector>

#include "rbmix/data/idx.hpp"

namespace rbmix {

enum class MnistPart { train, test };

struct LabelledImages {
  Images images;
  std::vector<std::uint8_t> labels;
};

// The file of `part` in `directory` holding images (or labels), preferring the uncompressed one.
std::filesystem::path mnist_file(const std::filesystem::path& directory, MnistPart part, bool labels);
LabelledImages load_mnist(const std::filesystem::path& directory, MnistPart part);

}  // namespace rbmix
