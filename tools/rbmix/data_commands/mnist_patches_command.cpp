// rbmix data mnist-patches: square MNIST patches thresholded at 1/2, as .npy data sets.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "data_output.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/data/patches.hpp"
#include "rbmix/data/split.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::cli::mnist_patches_command {
namespace {

void attach_patches(CLI::App& data) {
  struct Patches {
    std::string directory = "data/mnist";
    std::string out;
    Eigen::Index size = 5;
    Eigen::Index count = 0;
    std::uint64_t seed = 1;
  };
  auto patches = std::make_shared<Patches>();
  CLI::App* command =
      data.add_subcommand("mnist-patches", "Square MNIST patches thresholded at 1/2, as .npy data sets");
  command->footer(
      "Cuts patches from all 70 000 MNIST images, thresholds them at 1/2 (Tieleman 2008, section 4.1), shuffles\n"
      "them with --seed and splits them 60 % / 20 % / 20 % into train.npy, validation.npy and test.npy. Without\n"
      "--count every position is taken, as that paper did (5×5: 40 320 000 patches, 1 GB); with --count N,\n"
      "N patches at random images and positions.");
  command->add_option("--dir", patches->directory, "directory with the MNIST IDX files")->capture_default_str();
  command->add_option("--out-dir", patches->out, "output directory")->required();
  command->add_option("--size", patches->size, "patch side")->check(positive_count)->capture_default_str();
  command->add_option("--count", patches->count, "number of random patches (0: every position)")
      ->check(non_negative_count)
      ->capture_default_str();
  command->add_option("--seed", patches->seed, "seed of the patch positions and the shuffle")->capture_default_str();
  command->callback([patches] {
    const auto out = prepare_output_directory(patches->out);
    const LabelledImages train = load_mnist(patches->directory, MnistPart::train);
    const LabelledImages test = load_mnist(patches->directory, MnistPart::test);
    require(train.images.height == test.images.height && train.images.width == test.images.width,
            "mnist-patches: training and test images differ in size");
    Images all{ByteMatrix(train.images.pixels.rows() + test.images.pixels.rows(), train.images.pixels.cols()),
               train.images.height, train.images.width};
    all.pixels << train.images.pixels, test.images.pixels;
    const BinaryMatrix binary =
        threshold_binarize(patches->count > 0 ? random_patches(all, patches->size, patches->count, patches->seed)
                                              : all_patches(all, patches->size));
    const auto order = shuffled_row_order(binary.rows(), patches->seed);
    const auto part = [&](std::size_t begin, std::size_t end) {
      return select_rows(binary, {order.begin() + static_cast<std::ptrdiff_t>(begin),
                                  order.begin() + static_cast<std::ptrdiff_t>(end)});
    };
    const std::size_t rows = order.size();
    const std::size_t train_end = rows * 3 / 5;
    const std::size_t validation_end = rows * 4 / 5;
    save_and_report((out / "train.npy").string(), part(0, train_end));
    save_and_report((out / "validation.npy").string(), part(train_end, validation_end));
    save_and_report((out / "test.npy").string(), part(validation_end, rows));
    const nlohmann::json configuration = {
        {"source", patches->directory},
        {"patch_size", patches->size},
        {"count", patches->count == 0 ? nlohmann::json("every position") : nlohmann::json(patches->count)},
        {"binarisation", "threshold 1/2"},
        {"split", "60/20/20 after a seeded shuffle"}};
    write_json_file(out / "patches.json", make_run_record("data mnist-patches", configuration, patches->seed));
  });
}

}  // namespace
}  // namespace rbmix::cli::mnist_patches_command

RBMIX_REGISTER_COMMAND("data", rbmix::cli::mnist_patches_command::attach_patches)
