// The options of experiment samplers (samplers_experiment.hpp): the samplers and their grids at each scale, the data
// sets, the checks and the configuration run.json records.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/experiments/samplers_experiment.hpp"

namespace rbmix::experiments {
namespace {

// Synthetic stand-in: Artificial Modes (docs/algorithms/data-and-figures.md §7) with this mutation probability.
constexpr double kSyntheticMutationProbability = 0.05;
// 001 §5: MNIST's first 50 000 training images train, the other 10 000 choose hyperparameters.
constexpr Eigen::Index kImageTrainingRows = 50000;
constexpr Eigen::Index kImageValidationRows = 10000;  // the defaults of --validation-rows and --test-rows
constexpr Eigen::Index kImageTestRows = 2000;
constexpr Eigen::Index kSmokeImageTrainingRows = 500;

std::vector<SamplerGridPoint> grid_product(const std::vector<double>& rates, const std::vector<double>& decays,
                                           const std::vector<Eigen::Index>& sweeps) {
  std::vector<SamplerGridPoint> grid;
  for (double rate : rates)
    for (double decay : decays)
      for (Eigen::Index k : sweeps) grid.push_back({rate, decay, k});
  return grid;
}
}  // namespace

SamplerSettings settings_of(const SamplersOptions& options, const SamplerCandidates& sampler,
                            const SamplerGridPoint& point) {
  SamplerSettings settings;
  settings.kind = sampler.kind;
  settings.rule = sampler.rule;
  settings.sweeps_per_sample = point.sweeps;
  settings.fast_learning_rate = point.fast_learning_rate;
  settings.fast_decay = point.fast_decay;
  settings.fixed_point_cap = options.fixed_point_cap;
  return settings;
}

void SamplersOptions::validate() const {
  require(!data_sets.empty(), "samplers: no data sets");
  for (const SamplersDataSet& data : data_sets) {
    require(
        data.train.rows() >= batch_size && data.validation.rows() >= 1 && data.test.rows() >= 1,
        "samplers: data set " + data.name + " needs at least a batch of training rows and one validation and test row");
    require(data.validation.cols() == data.train.cols() && data.test.cols() == data.train.cols(),
            "samplers: the parts of data set " + data.name + " differ in width");
    require(data.image_height * data.image_width == data.train.cols(),
            "samplers: the image shape of data set " + data.name + " does not match its width");
  }
  require(!hidden_sizes.empty() && !learning_rates.empty(), "samplers: no hidden sizes or no learning rates");
  for (Eigen::Index hidden : hidden_sizes) require(hidden >= 1, "--hidden: hidden sizes must be positive");
  for (double rate : learning_rates)
    require(rate > 0.0 && std::isfinite(rate), "--learning-rates: learning rates must be positive");
  require(training_fast_rate_ratio > 0.0 && training_fast_decay >= 0.0 && training_fast_decay < 1.0,
          "samplers: FPCD training needs ε_F > 0 and 0 ≤ α < 1");
  require(batch_size >= 1, "samplers: the batch size must be positive");
  require(updates >= 1, "--updates must be positive");
  require(selection_samples >= 1, "--selection-samples must be positive");
  require(samples >= 1, "--samples must be positive");
  require(!samplers.empty(), "samplers: no samplers");
  for (const SamplerCandidates& sampler : samplers) {
    require(!sampler.grid.empty(), "samplers: sampler " + sampler.label + " has an empty grid");
    for (const SamplerGridPoint& point : sampler.grid) rbmix::validate(settings_of(*this, sampler, point));
  }
  require(fixed_point_cap >= 1, "samplers: the fixed-point cap must be positive");
  require(picture_samples >= 0 && picture_columns >= 1, "samplers: bad picture layout");
}

std::vector<SamplerCandidates> samplers_grid(Scale scale) {
  const bool paper = scale == Scale::paper;
  // ε_F in decades: 001 §5 reports rates-herding's best ε_F 10–100× above rates-FPCD's; both ranges span four
  // decades or more, so that either order can come out.
  const std::vector<double> fpcd_rates =
      paper ? std::vector<double>{1e-4, 1e-3, 1e-2, 1e-1, 1.0} : std::vector<double>{1e-2, 1e-1};
  const std::vector<double> herding_rates =
      paper ? std::vector<double>{1e-3, 1e-2, 1e-1, 1.0} : std::vector<double>{1e-1, 1.0};
  const std::vector<double> decays{1.0, 0.95};  // 001 §5 compares α = 1 with α = 0.95
  const std::vector<double> penalty_decays{0.95, 0.99};
  const std::vector<Eigen::Index> gibbs_sweeps =
      paper ? std::vector<Eigen::Index>{1, 10} : std::vector<Eigen::Index>{1};
  const std::vector<Eigen::Index> fast_sweeps{1};
  return {
      {"gibbs", SamplerKind::gibbs, GibbsRule{}, grid_product({0.0}, {1.0}, gibbs_sweeps)},
      {"flip", SamplerKind::gibbs, FlipTheStateRule{}, grid_product({0.0}, {1.0}, gibbs_sweeps)},
      {"rates-fpcd", SamplerKind::rates_fpcd, GibbsRule{}, grid_product(fpcd_rates, decays, fast_sweeps)},
      {"rates-fpcd-flip", SamplerKind::rates_fpcd, FlipTheStateRule{}, grid_product(fpcd_rates, decays, fast_sweeps)},
      {"rates-herding", SamplerKind::rates_herding, GibbsRule{}, grid_product(herding_rates, decays, {1})},
      {"herding", SamplerKind::herding, GibbsRule{}, grid_product({kHerdingLearningRate}, {kHerdingDecay}, {1})},
      {"sp", SamplerKind::sample_penalization, GibbsRule{}, grid_product(fpcd_rates, penalty_decays, fast_sweeps)},
  };
}

SamplersDataSet synthetic_samplers_data(Eigen::Index train, Eigen::Index validation, Eigen::Index test,
                                        std::uint64_t seed) {
  const Eigen::Index rows = train + validation + test;
  const BinaryMatrix all =
      artificial_modes(kSyntheticMutationProbability, static_cast<int>(rows), purpose_seed(seed, 0, SeedPurpose::data))
          .samples;
  return {"artificial-modes-4x4", all.topRows(train),    all.middleRows(train, validation),
          all.bottomRows(test),   artificial_modes_side, artificial_modes_side};
}

// Image data: paper scale trains on the first 50 000 images and holds out the rest; smoke scale on at most the first
// kSmokeImageTrainingRows (half a small directory), with at most as many validation and test rows, so that it runs
// in seconds on any MNIST-style directory. Given --validation-rows / --test-rows are checked, not shrunk.
SamplersDataSet image_samplers_data(const std::string& name, const std::filesystem::path& directory, Scale scale,
                                    std::optional<Eigen::Index> given_validation_rows,
                                    std::optional<Eigen::Index> given_test_rows) {
  const LabelledImages train = load_mnist(directory, MnistPart::train);
  const LabelledImages test = load_mnist(directory, MnistPart::test);
  const Eigen::Index images = train.images.pixels.rows();
  const Eigen::Index training_rows =
      scale == Scale::paper ? kImageTrainingRows : std::max<Eigen::Index>(1, std::min(kSmokeImageTrainingRows, images / 2));
  const Eigen::Index held_out = images - training_rows;
  require(held_out >= 1, name + " in " + directory.string() + ": needs more than " + std::to_string(training_rows) +
                             " training images, has " + std::to_string(images));
  const bool smoke = scale == Scale::smoke;
  const Eigen::Index validation_rows = given_validation_rows.value_or(
      smoke ? std::min(kSmokeImageTrainingRows, held_out) : kImageValidationRows);
  const Eigen::Index test_rows = given_test_rows.value_or(
      smoke ? std::min(kSmokeImageTrainingRows, test.images.pixels.rows()) : kImageTestRows);
  require(validation_rows >= 1 && validation_rows <= held_out,
          "--validation-rows: " + std::to_string(validation_rows) + " is outside 1 … " + std::to_string(held_out));
  require(test_rows >= 1 && test_rows <= test.images.pixels.rows(),
          "--test-rows: " + std::to_string(test_rows) + " is outside 1 … " + std::to_string(test.images.pixels.rows()));
  const BinaryMatrix all_train = threshold_binarize(train.images.pixels);
  return {name,
          all_train.topRows(training_rows),
          all_train.middleRows(training_rows, validation_rows),
          threshold_binarize(test.images.pixels.topRows(test_rows)),
          train.images.height,
          train.images.width};
}

SamplersOptions samplers_options(Scale scale, std::uint64_t seed, std::vector<SamplersDataSet> data_sets) {
  SamplersOptions options;
  options.seed = seed;
  options.samplers = samplers_grid(scale);
  if (scale == Scale::smoke) {
    options.hidden_sizes = {8, 16};
    options.learning_rates = {0.05, 0.1};
    options.batch_size = 20;
    options.updates = 300;
    options.selection_samples = 300;
    options.samples = 1000;
    options.picture_samples = 40;
  }
  if (data_sets.empty()) {
    data_sets.push_back(scale == Scale::smoke ? synthetic_samplers_data(400, 200, 200, seed)
                                              : synthetic_samplers_data(5000, 1000, 1000, seed));
  }
  // Smoke scale runs on any MNIST-style directory: the batch fits the smallest training set (run.json records it).
  if (scale == Scale::smoke)
    for (const SamplersDataSet& data : data_sets)
      options.batch_size = std::max<Eigen::Index>(1, std::min<Eigen::Index>(options.batch_size, data.train.rows()));
  options.data_sets = std::move(data_sets);
  return options;
}

nlohmann::json to_json(const SamplersOptions& options) {
  nlohmann::json data = nlohmann::json::array();
  for (const SamplersDataSet& set : options.data_sets)
    data.push_back({{"name", set.name},
                    {"train_rows", set.train.rows()},
                    {"validation_rows", set.validation.rows()},
                    {"test_rows", set.test.rows()},
                    {"image_shape", {set.image_height, set.image_width}}});
  nlohmann::json samplers = nlohmann::json::array();
  for (const SamplerCandidates& sampler : options.samplers) {
    nlohmann::json grid = nlohmann::json::array();
    for (const SamplerGridPoint& point : sampler.grid)
      grid.push_back({{"fast_lr", point.fast_learning_rate}, {"fast_decay", point.fast_decay}, {"k", point.sweeps}});
    samplers.push_back({{"label", sampler.label},
                        {"sampler", to_string(sampler.kind)},
                        {"operator", to_string(sampler.rule)},
                        {"grid", grid}});
  }
  return {{"source", "001 §5"},
          {"data_sets", data},
          {"training", "FPCD, k = 1 (Gibbs), W ~ N(0, 0.01^2), base-rate visible bias, float chains"},
          {"hidden_sizes", options.hidden_sizes},
          {"learning_rates", options.learning_rates},
          {"training_fast_lr", "ratio x learning rate"},
          {"training_fast_rate_ratio", options.training_fast_rate_ratio},
          {"training_fast_decay", options.training_fast_decay},
          {"batch_size", options.batch_size},
          {"updates", options.updates},
          {"model_choice", "highest validation ISL of selection_samples Gibbs samples (k = 1, one chain)"},
          {"selection_samples", options.selection_samples},
          {"samplers", samplers},
          {"samples", options.samples},
          {"chains", 1},
          {"chain_start", "visible units uniform at random"},
          {"setting_choice", "highest validation ISL at N = samples; ties: the first in grid order"},
          {"fixed_point_cap", options.fixed_point_cap},
          {"model_seed", "trial_seed(seed, model job index)"},
          {"sampling_seed", "purpose_seed(seed, data set index, sampling), shared by every setting of the data set"}};
}

}  // namespace rbmix::experiments
