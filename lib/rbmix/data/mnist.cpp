#include "rbmix/data/mnist.hpp"

#include <string>

#include "rbmix/core/error.hpp"

namespace rbmix {

std::filesystem::path mnist_file(const std::filesystem::path& directory, MnistPart part, bool labels) {
  const std::string prefix = part == MnistPart::train ? "train" : "t10k";
  const std::string name = prefix + (labels ? "-labels-idx1-ubyte" : "-images-idx3-ubyte");
  for (const std::string& candidate : {name, name + ".gz"}) {
    if (std::filesystem::is_regular_file(directory / candidate)) return directory / candidate;
  }
  throw InputError(directory.string() + ": neither " + name + " nor " + name +
                   ".gz is there (fetch MNIST with `rbmix data fetch mnist`)");
}

LabelledImages load_mnist(const std::filesystem::path& directory, MnistPart part) {
  LabelledImages set{read_idx_images(mnist_file(directory, part, false)),
                     read_idx_labels(mnist_file(directory, part, true))};
  require(static_cast<Eigen::Index>(set.labels.size()) == set.images.pixels.rows(),
          directory.string() + ": " + std::to_string(set.images.pixels.rows()) + " images but " +
              std::to_string(set.labels.size()) + " labels");
  return set;
}

}  // namespace rbmix
