// rbmix data convert-mnist: binarises MNIST-style IDX files (MNIST or Fashion-MNIST) into .npy data sets.
#include <cstdint>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "data_output.hpp"
#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/io/npy.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::cli::convert_mnist_command {
namespace {

enum class Binarisation { threshold, stochastic };

BinaryMatrix binarise(const ByteMatrix& intensities, Binarisation binarisation, std::uint64_t seed) {
  return binarisation == Binarisation::threshold ? threshold_binarize(intensities)
                                                 : stochastic_binarize(intensities, seed);
}

void attach_convert_mnist(CLI::App& data) {
  struct Convert {
    std::string directory = "data/mnist";
    std::string out;
    std::string binarisation = "stochastic";
    std::uint64_t seed = 1;
    Eigen::Index validation = 10000;
    bool grey = false;
  };
  auto convert = std::make_shared<Convert>();
  CLI::App* command = data.add_subcommand("convert-mnist", "Binarise MNIST-style IDX files into .npy data sets");
  command->footer(
      "Writes train.npy, validation.npy, test.npy, their *-labels.npy and conversion.json. The validation set is\n"
      "the last --validation training images (Tieleman 2008: 50 000 / 10 000). Stochastic binarisation draws each\n"
      "pixel once ~ Bernoulli(intensity/255) from --seed; threshold keeps the pixels above 1/2. Fashion-MNIST works\n"
      "too: --dir /usr/share/datasets/fashion-mnist (Debian package dataset-fashion-mnist).\n"
      "--grey also writes the intensities 0-255 of the same splits as train-grey.npy, validation-grey.npy and\n"
      "test-grey.npy (|u1), for rbmix train --resample-binarisation (a fresh binarisation at every use, 000 §4.1).");
  command->add_option("--dir", convert->directory, "directory with the IDX files (plain or .gz)")
      ->capture_default_str();
  command->add_option("--out-dir", convert->out, "output directory")->required();
  command->add_option("--binarize", convert->binarisation, "stochastic|threshold")
      ->check(CLI::IsMember({"stochastic", "threshold"}))
      ->capture_default_str();
  command->add_option("--seed", convert->seed, "seed of the stochastic binarisation")->capture_default_str();
  command->add_option("--validation", convert->validation, "training images kept for validation (taken from the end)")
      ->check(non_negative_count)
      ->capture_default_str();
  command->add_flag("--grey", convert->grey, "also write the grey levels (*-grey.npy, intensities 0-255)");
  command->callback([convert] {
    const auto out = prepare_output_directory(convert->out);
    const Binarisation binarisation =
        convert->binarisation == "threshold" ? Binarisation::threshold : Binarisation::stochastic;
    const LabelledImages train = load_mnist(convert->directory, MnistPart::train);
    const LabelledImages test = load_mnist(convert->directory, MnistPart::test);
    const Eigen::Index training_rows = train.images.pixels.rows() - convert->validation;
    require(training_rows >= 0, "convert-mnist: --validation " + std::to_string(convert->validation) + " exceeds the " +
                                    std::to_string(train.images.pixels.rows()) + " training images");
    // One binarisation of all 70 000 images (training first, then test): row r draws from its own stream, so an
    // image's binary version depends on the seed alone, not on the split.
    ByteMatrix intensities(train.images.pixels.rows() + test.images.pixels.rows(), train.images.pixels.cols());
    require(test.images.pixels.cols() == intensities.cols(), "convert-mnist: training and test images differ in size");
    intensities << train.images.pixels, test.images.pixels;
    const BinaryMatrix binary = binarise(intensities, binarisation, convert->seed);
    save_and_report((out / "train.npy").string(), binary.topRows(training_rows));
    save_and_report((out / "validation.npy").string(), binary.middleRows(training_rows, convert->validation));
    save_and_report((out / "test.npy").string(), binary.bottomRows(test.images.pixels.rows()));
    if (convert->grey) {
      const auto save_grey = [&](const std::string& name, const ByteMatrix& rows) {
        write_npy(out / name, matrix_to_npy(Matrix<std::uint8_t>(rows)));
        std::cout << "wrote " << (out / name).string() << " (" << rows.rows() << " × " << rows.cols() << ")\n";
      };
      save_grey("train-grey.npy", intensities.topRows(training_rows));
      save_grey("validation-grey.npy", intensities.middleRows(training_rows, convert->validation));
      save_grey("test-grey.npy", intensities.bottomRows(test.images.pixels.rows()));
    }
    save_labels(out / "train-labels.npy", {train.labels.begin(), train.labels.begin() + training_rows});
    save_labels(out / "validation-labels.npy", {train.labels.begin() + training_rows, train.labels.end()});
    save_labels(out / "test-labels.npy", test.labels);
    nlohmann::json configuration = {{"source", convert->directory},
                                    {"binarisation", convert->binarisation},
                                    {"validation", convert->validation},
                                    {"train_rows", training_rows},
                                    {"test_rows", test.images.pixels.rows()}};
    if (convert->grey) configuration["grey"] = true;  // only when set: earlier records stay as they were
    write_json_file(out / "conversion.json", make_run_record("data convert-mnist", configuration, convert->seed));
  });
}

}  // namespace
}  // namespace rbmix::cli::convert_mnist_command

RBMIX_REGISTER_COMMAND("data", rbmix::cli::convert_mnist_command::attach_convert_mnist)
