#include "rbmix/experiments/samplers_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/job_progress.hpp"
#include "rbmix/experiments/job_runner.hpp"
#include "rbmix/experiments/trial_seed.hpp"
#include "rbmix/report/png_image.hpp"
#include "rbmix/sampling/rates.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::experiments {

namespace {

// Samples are drawn in blocks of this many rows: the grey levels of a block are dropped once its binary rows are
// kept, so memory stays at N binary rows whatever N.
constexpr Eigen::Index kSampleBlock = 1024;
// Synthetic stand-in: Artificial Modes (docs/algorithms.md §7) with this mutation probability.
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

// Every sampler setting of data set d samples with the same seed, the sampling seed of "job" d (trial_seed.hpp), so
// settings are compared on the same random numbers; the model jobs train with trial_seed(seed, job).
std::uint64_t sampling_seed(const SamplersOptions& options, std::size_t data_set) {
  return purpose_seed(options.seed, data_set, SeedPurpose::sampling);
}

// `count` emissions of a one-chain process: the binary samples, drawn in blocks, and the grey levels of the first
// `picture_rows` of them.
struct DrawnSamples {
  BinaryMatrix binary;
  std::vector<std::uint8_t> picture_levels;
};

DrawnSamples draw_samples(SamplingProcess& process, Eigen::Index count, Eigen::Index units,
                          Eigen::Index picture_rows = 0) {
  DrawnSamples drawn{BinaryMatrix(count, units), {}};
  picture_rows = std::min(picture_rows, count);
  drawn.picture_levels.reserve(static_cast<std::size_t>(picture_rows * units));
  EmittedSamples block{BinaryMatrix(kSampleBlock, units), MatrixF(kSampleBlock, units)};
  for (Eigen::Index first = 0; first < count; first += kSampleBlock) {
    const Eigen::Index rows = std::min(kSampleBlock, count - first);
    for (Eigen::Index row = 0; row < rows; ++row) process.emit_into(block, row);
    drawn.binary.middleRows(first, rows) = block.binary.topRows(rows);
    for (Eigen::Index row = 0; row < rows && first + row < picture_rows; ++row)
      for (Eigen::Index unit = 0; unit < units; ++unit) drawn.picture_levels.push_back(grey_level(block.grey(row, unit)));
  }
  return drawn;
}

SamplersModel train_candidate(const SamplersOptions& options, std::size_t data_set, Eigen::Index hidden,
                              double learning_rate, std::size_t job, const JobProgress& progress) {
  const std::uint64_t seed = trial_seed(options.seed, job);
  const SamplersDataSet& data = options.data_sets[data_set];
  TrainingOptions training;
  apply_algorithm(training, Algorithm::fpcd);
  training.sampling_steps = 1;
  training.learning_rate = learning_rate;
  training.fast_learning_rate = options.training_fast_rate_ratio * learning_rate;
  training.fast_weight_decay = options.training_fast_decay;
  training.batch_size = options.batch_size;
  training.updates = options.updates;
  training.evaluation_interval = 0;
  training.sample_in_float = true;
  training.seed = seed;
  Trainer trainer(training, to_real(data.train), MatrixD(0, data.train.cols()), hidden);
  TrainingHooks hooks;
  hooks.on_update = progress.training(training.updates);
  const TrainingSummary summary = trainer.run(hooks);
  SamplersModel model{data_set,
                      hidden,
                      learning_rate,
                      summary.termination == Termination::diverged,
                      -std::numeric_limits<double>::infinity(),
                      trainer.model()};
  if (model.diverged) return model;
  SamplingProcess gibbs(model.rbm, SamplerSettings{}, std::nullopt, 1,
                        purpose_seed(options.seed, job, SeedPurpose::selection));
  const BinaryMatrix samples = draw_samples(gibbs, options.selection_samples, data.train.cols()).binary;
  model.selection_isl = isl_curve(samples, data.validation, data.test, {options.selection_samples}).back().validation;
  return model;
}

SamplerRun run_sampler(const SamplersOptions& options, const Rbm& rbm, const std::optional<SufficientStatistics>& rates,
                       std::size_t data_set, std::size_t sampler, std::size_t setting) {
  const SamplersDataSet& data = options.data_sets[data_set];
  const SamplerCandidates& candidates = options.samplers[sampler];
  SamplingProcess process(rbm, settings_of(options, candidates, candidates.grid[setting]),
                          needs_rates(candidates.kind) ? rates : std::nullopt, 1, sampling_seed(options, data_set));
  DrawnSamples drawn = draw_samples(process, options.samples, data.train.cols(), options.picture_samples);
  const BinaryMatrix& samples = drawn.binary;
  SamplerRun run;
  run.picture_levels = std::move(drawn.picture_levels);
  run.data_set = data_set;
  run.sampler = sampler;
  run.setting = setting;
  run.curve = isl_curve(samples, data.validation, data.test, log_spaced_counts(options.samples));
  run.fixed_points = process.fixed_points();
  run.mean_activity = samples.cast<double>().mean();
  return run;
}

nlohmann::json curve_to_grid_json(const std::vector<IslPoint>& curve) {
  nlohmann::json points = nlohmann::json::array();
  for (const IslPoint& point : curve)
    points.push_back(
        {point.samples, exact_number(point.beta), exact_number(point.validation), exact_number(point.test)});
  return points;
}

std::vector<IslPoint> curve_from_grid_json(const nlohmann::json& json) {
  std::vector<IslPoint> curve;
  for (const nlohmann::json& point : json)
    curve.push_back({point.at(0).get<Eigen::Index>(), read_exact_number(point.at(1)), read_exact_number(point.at(2)),
                     read_exact_number(point.at(3))});
  return curve;
}

// The training set's own ISL, as a phase result.
struct ReferenceCurve {
  std::vector<IslPoint> curve;
};

nlohmann::json to_grid_json(const ReferenceCurve& reference) { return curve_to_grid_json(reference.curve); }
void from_grid_json(const nlohmann::json& json, ReferenceCurve& reference) {
  reference.curve = curve_from_grid_json(json);
}

}  // namespace

nlohmann::json to_grid_json(const SamplersModel& model) {
  return {{"data_set", model.data_set},
          {"hidden", model.hidden},
          {"learning_rate", exact_number(model.learning_rate)},
          {"diverged", model.diverged},
          {"selection_isl", exact_number(model.selection_isl)},
          {"rbm", exact_rbm(model.rbm)}};
}

void from_grid_json(const nlohmann::json& json, SamplersModel& model) {
  model.data_set = json.at("data_set").get<std::size_t>();
  model.hidden = json.at("hidden").get<Eigen::Index>();
  model.learning_rate = read_exact_number(json.at("learning_rate"));
  model.diverged = json.at("diverged").get<bool>();
  model.selection_isl = read_exact_number(json.at("selection_isl"));
  model.rbm = read_exact_rbm(json.at("rbm"));
  require(model.rbm.n_hidden() == model.hidden, "a journaled model's W does not have its hidden units");
}

nlohmann::json to_grid_json(const SamplerRun& run) {
  return {{"data_set", run.data_set},
          {"sampler", run.sampler},
          {"setting", run.setting},
          {"curve", curve_to_grid_json(run.curve)},
          {"fixed_point_searches", run.fixed_points.searches},
          {"fixed_point_cap_hits", run.fixed_points.cap_hits},
          {"fixed_point_iterations", run.fixed_points.iterations},
          {"mean_activity", exact_number(run.mean_activity)},
          {"picture_levels", hex_bytes(run.picture_levels)}};
}

void from_grid_json(const nlohmann::json& json, SamplerRun& run) {
  run.data_set = json.at("data_set").get<std::size_t>();
  run.sampler = json.at("sampler").get<std::size_t>();
  run.setting = json.at("setting").get<std::size_t>();
  run.curve = curve_from_grid_json(json.at("curve"));
  run.fixed_points = {json.at("fixed_point_searches").get<Eigen::Index>(),
                      json.at("fixed_point_cap_hits").get<Eigen::Index>(),
                      json.at("fixed_point_iterations").get<Eigen::Index>()};
  run.mean_activity = read_exact_number(json.at("mean_activity"));
  run.picture_levels = read_hex_bytes(json.at("picture_levels"));
}

MatrixF picture_samples(const SamplerRun& run, Eigen::Index units) {
  const auto levels = static_cast<Eigen::Index>(run.picture_levels.size());
  require(units >= 1 && levels % units == 0, "a sampler run's picture levels do not make whole rows of " +
                                                 std::to_string(units) + " units");
  MatrixF grey(levels / units, units);
  for (Eigen::Index k = 0; k < levels; ++k)
    grey(k / units, k % units) = static_cast<float>(run.picture_levels[static_cast<std::size_t>(k)]) / 255.0f;
  return grey;
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

std::size_t best_run(const std::vector<SamplerRun>& runs, const std::vector<std::size_t>& candidates) {
  require(!candidates.empty(), "samplers: no runs to choose from");
  std::size_t best = candidates.front();
  for (std::size_t index : candidates)
    if (final_validation(runs[index]) > final_validation(runs[best])) best = index;
  return best;
}

OrPartDone<SamplersResult> run_samplers(const SamplersOptions& options, const JobRunner& runner) {
  options.validate();
  SamplersResult result;

  struct ModelJob {
    std::size_t data_set;
    Eigen::Index hidden;
    double learning_rate;
  };
  std::vector<ModelJob> model_jobs;
  for (std::size_t set = 0; set < options.data_sets.size(); ++set)
    for (Eigen::Index hidden : options.hidden_sizes)
      for (double rate : options.learning_rates) model_jobs.push_back({set, hidden, rate});
  auto models = run_jobs(runner, JobPhase{0}, model_jobs.size(), [&](std::size_t job, const JobProgress& progress) {
    const ModelJob& model = model_jobs[job];
    return train_candidate(options, model.data_set, model.hidden, model.learning_rate, job, progress);
  });
  if (!models) return models.part_done();
  result.models = std::move(models).value();

  result.data_sets.resize(options.data_sets.size());
  std::vector<std::optional<SufficientStatistics>> rates(options.data_sets.size());
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    std::size_t& chosen = result.data_sets[set].chosen_model;
    chosen = std::numeric_limits<std::size_t>::max();
    for (std::size_t index = 0; index < result.models.size(); ++index) {
      const SamplersModel& model = result.models[index];
      if (model.data_set != set || model.diverged) continue;
      if (chosen == std::numeric_limits<std::size_t>::max() ||
          model.selection_isl > result.models[chosen].selection_isl)
        chosen = index;
    }
    require(chosen != std::numeric_limits<std::size_t>::max(),
            "samplers: every model trained on " + options.data_sets[set].name + " diverged");
    rates[set] = compute_rates(result.models[chosen].rbm, options.data_sets[set].train, options.data_sets[set].name);
  }

  struct RunJob {
    std::size_t data_set;
    std::size_t sampler;
    std::size_t setting;
  };
  std::vector<RunJob> run_jobs_list;
  for (std::size_t set = 0; set < options.data_sets.size(); ++set)
    for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler)
      for (std::size_t setting = 0; setting < options.samplers[sampler].grid.size(); ++setting)
        run_jobs_list.push_back({set, sampler, setting});
  auto runs = run_jobs(runner, JobPhase{1}, run_jobs_list.size(), [&](std::size_t job) {
    const RunJob& run = run_jobs_list[job];
    return run_sampler(options, result.models[result.data_sets[run.data_set].chosen_model].rbm, rates[run.data_set],
                       run.data_set, run.sampler, run.setting);
  });
  if (!runs) return runs.part_done();
  result.runs = std::move(runs).value();

  const auto references = run_jobs(runner, JobPhase{2}, options.data_sets.size(), [&](std::size_t set) {
    const SamplersDataSet& data = options.data_sets[set];
    return ReferenceCurve{isl_curve(data.train, data.validation, data.test, log_spaced_counts(data.train.rows()))};
  });
  if (!references) return references.part_done();
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    result.data_sets[set].reference = references.value()[set].curve;
    for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler) {
      std::vector<std::size_t> candidates;
      for (std::size_t index = 0; index < result.runs.size(); ++index)
        if (result.runs[index].data_set == set && result.runs[index].sampler == sampler) candidates.push_back(index);
      result.data_sets[set].chosen_runs.push_back(best_run(result.runs, candidates));
    }
  }
  return result;
}

std::vector<ExperimentOption> Samplers::own_options() {
  return {{"--fashion-mnist", "Fashion-MNIST directory (IDX files, e.g. from `rbmix data fetch fashion-mnist`)"},
          {"--hidden", "override the hidden sizes of the model grid"},
          {"--learning-rates", "override the learning rates of the model grid"},
          {"--updates", "override the FPCD updates per model"},
          {"--samples", "override N, the samples per sampler setting"},
          {"--selection-samples", "override the Gibbs samples that choose the model"},
          {"--validation-rows", "validation images used (image data; default 10000, smoke scale 500)"},
          {"--test-rows", "test images the ISL is reported on (image data; default 2000, smoke scale 500; smoke "
                          "trains on at most the first 500 images)"}};
}

SamplersOptions Samplers::make_options(const ExperimentInputs& inputs) {
  const std::optional<Eigen::Index> validation_rows = inputs.integer("--validation-rows", 1);
  const std::optional<Eigen::Index> test_rows = inputs.integer("--test-rows", 1);
  std::vector<SamplersDataSet> data_sets;
  if (!inputs.mnist.empty())
    data_sets.push_back(image_samplers_data("mnist", inputs.mnist, inputs.scale, validation_rows, test_rows));
  if (const auto fashion = inputs.directory("--fashion-mnist"))
    data_sets.push_back(image_samplers_data("fashion-mnist", *fashion, inputs.scale, validation_rows, test_rows));
  require(!data_sets.empty() || (!inputs.has("--validation-rows") && !inputs.has("--test-rows")),
          "--validation-rows and --test-rows apply to image data only (--mnist or --fashion-mnist)");
  SamplersOptions options = samplers_options(inputs.scale, inputs.seed, std::move(data_sets));
  if (const auto hidden = inputs.integers("--hidden", 1)) options.hidden_sizes.assign(hidden->begin(), hidden->end());
  if (const auto rates = inputs.positive_numbers("--learning-rates")) options.learning_rates = *rates;
  if (const auto updates = inputs.integer("--updates", 1)) options.updates = *updates;
  if (const auto samples = inputs.integer("--samples", 1)) options.samples = *samples;
  if (const auto samples = inputs.integer("--selection-samples", 1)) options.selection_samples = *samples;
  if (const auto fashion = inputs.text("--fashion-mnist")) options.fashion_mnist_directory = *fashion;
  options.validate();
  return options;
}

nlohmann::json Samplers::configuration(const SamplersOptions& options) {
  nlohmann::json configuration = to_json(options);
  if (!options.fashion_mnist_directory.empty())
    configuration["fashion_mnist_directory"] = options.fashion_mnist_directory.string();
  return configuration;
}

OrPartDone<SamplersResult> Samplers::run(const SamplersOptions& options, const JobRunner& runner, std::ostream& log) {
  log << "samplers (001 §5): " << options.data_sets.size() << " data set(s), "
      << options.hidden_sizes.size() * options.learning_rates.size() << " FPCD models each (" << options.updates
      << " updates), " << options.samplers.size() << " samplers, N = " << options.samples << "\n";
  return run_samplers(options, runner);
}

}  // namespace rbmix::experiments
