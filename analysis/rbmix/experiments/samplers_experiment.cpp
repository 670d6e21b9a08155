#include "rbmix/experiments/samplers_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/trial_seed.hpp"
#include "rbmix/report/png_image.hpp"
#include "rbmix/sampling/rates.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::experiments {
namespace {

// Samples are drawn in blocks of this many rows: the grey levels of a block are dropped once its binary rows are
// kept, so memory stays at N binary rows whatever N.
constexpr Eigen::Index kSampleBlock = 1024;

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

// Each point: the sample count, the Parzen width β chosen on the validation rows, and two log-likelihoods.
std::vector<IslPoint> curve_from_grid_json(const JournaledValue& json) {
  std::vector<IslPoint> curve;
  for (const JournaledValue& point : json.elements())
    curve.push_back({point.element(0).integer<Eigen::Index>(1), point.element(1).finite(),
                     point.element(2).log_likelihood(), point.element(3).log_likelihood()});
  return curve;
}

// The training set's own ISL, as a phase result.
struct ReferenceCurve {
  std::vector<IslPoint> curve;
};

nlohmann::json to_grid_json(const ReferenceCurve& reference) { return curve_to_grid_json(reference.curve); }
void from_grid_json(const nlohmann::json& json, ReferenceCurve& reference) {
  reference.curve = curve_from_grid_json(JournaledValue(json));
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
  const JournaledValue journaled(json);
  model.data_set = journaled["data_set"].integer<std::size_t>(0);
  model.hidden = journaled["hidden"].integer<Eigen::Index>(1);
  model.learning_rate = journaled["learning_rate"].at_least(0.0);
  model.diverged = journaled["diverged"].flag();
  model.selection_isl = journaled["selection_isl"].log_likelihood();
  model.rbm = journaled["rbm"].read(read_exact_rbm);
  journaled["rbm"].require_that(model.rbm.n_hidden() == model.hidden, "W does not have the model's hidden units");
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
  const JournaledValue journaled(json);
  run.data_set = journaled["data_set"].integer<std::size_t>(0);
  run.sampler = journaled["sampler"].integer<std::size_t>(0);
  run.setting = journaled["setting"].integer<std::size_t>(0);
  run.curve = curve_from_grid_json(journaled["curve"]);
  run.fixed_points = {journaled["fixed_point_searches"].integer<Eigen::Index>(0),
                      journaled["fixed_point_cap_hits"].integer<Eigen::Index>(0),
                      journaled["fixed_point_iterations"].integer<Eigen::Index>(0)};
  journaled["fixed_point_cap_hits"].require_that(run.fixed_points.cap_hits <= run.fixed_points.searches,
                                                 "more searches stopped by the cap than searches");
  // The mean of 0/1 units.
  run.mean_activity = journaled["mean_activity"].within(0.0, 1.0);
  run.picture_levels = journaled["picture_levels"].read(read_hex_bytes);
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
