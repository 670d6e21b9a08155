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
#include "rbmix/experiments/job_runner.hpp"
#include "rbmix/experiments/trial_seed.hpp"
#include "rbmix/report/png_image.hpp"
#include "rbmix/sampling/rates.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::experiments {

namespace {

// Every sampler setting of data set d samples with trial_seed(seed, kSamplingSeedIndex + d): far above the model
// jobs' indices, which use trial_seed(seed, job).
constexpr std::uint64_t kSamplingSeedIndex = std::uint64_t{1} << 32;
// The synthetic data set draws from trial_seed(seed, kSyntheticDataSeedIndex), apart from every job's index.
constexpr std::uint64_t kSyntheticDataSeedIndex = kSamplingSeedIndex - 1;
// Samples are drawn in blocks of this many rows: the grey levels of a block are dropped once its binary rows are
// kept, so memory stays at N binary rows whatever N.
constexpr Eigen::Index kSampleBlock = 1024;
// Synthetic stand-in: Artificial Modes (docs/algorithms.md §7) with this mutation probability.
constexpr double kSyntheticMutationProbability = 0.05;
// 001 §5: MNIST's first 50 000 training images train, the other 10 000 choose hyperparameters.
constexpr Eigen::Index kImageTrainingRows = 50000;

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

std::uint64_t sampling_seed(const SamplersOptions& options, std::size_t data_set) {
  return trial_seed(options.seed, kSamplingSeedIndex + data_set);
}

// The binary samples of `count` emissions of a one-chain process, kept in blocks.
BinaryMatrix draw_binary_samples(SamplingProcess& process, Eigen::Index count, Eigen::Index units) {
  BinaryMatrix samples(count, units);
  EmittedSamples block{BinaryMatrix(kSampleBlock, units), MatrixF(kSampleBlock, units)};
  for (Eigen::Index first = 0; first < count; first += kSampleBlock) {
    const Eigen::Index rows = std::min(kSampleBlock, count - first);
    for (Eigen::Index row = 0; row < rows; ++row) process.emit_into(block, row);
    samples.middleRows(first, rows) = block.binary.topRows(rows);
  }
  return samples;
}

SamplersModel train_candidate(const SamplersOptions& options, std::size_t data_set, Eigen::Index hidden,
                              double learning_rate, std::uint64_t seed) {
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
  const TrainingSummary summary = trainer.run();
  SamplersModel model{data_set,
                      hidden,
                      learning_rate,
                      summary.termination == Termination::diverged,
                      -std::numeric_limits<double>::infinity(),
                      trainer.model()};
  if (model.diverged) return model;
  SamplingProcess gibbs(model.rbm, SamplerSettings{}, std::nullopt, 1, seed);
  const BinaryMatrix samples = draw_binary_samples(gibbs, options.selection_samples, data.train.cols());
  model.selection_isl = isl_curve(samples, data.validation, data.test, {options.selection_samples}).back().validation;
  return model;
}

SamplerRun run_sampler(const SamplersOptions& options, const Rbm& rbm, const std::optional<SufficientStatistics>& rates,
                       std::size_t data_set, std::size_t sampler, std::size_t setting) {
  const SamplersDataSet& data = options.data_sets[data_set];
  const SamplerCandidates& candidates = options.samplers[sampler];
  SamplingProcess process(rbm, settings_of(options, candidates, candidates.grid[setting]),
                          needs_rates(candidates.kind) ? rates : std::nullopt, 1, sampling_seed(options, data_set));
  const BinaryMatrix samples = draw_binary_samples(process, options.samples, data.train.cols());
  SamplerRun run;
  run.data_set = data_set;
  run.sampler = sampler;
  run.setting = setting;
  run.curve = isl_curve(samples, data.validation, data.test, log_spaced_counts(options.samples));
  run.fixed_points = process.fixed_points();
  run.mean_activity = samples.cast<double>().mean();
  return run;
}

nlohmann::json exact_numbers(const double* values, Eigen::Index count) {
  nlohmann::json out = nlohmann::json::array();
  for (Eigen::Index k = 0; k < count; ++k) out.push_back(exact_number(values[k]));
  return out;
}

void read_exact_numbers(const nlohmann::json& json, double* values, Eigen::Index count) {
  require(json.is_array() && json.size() == static_cast<std::size_t>(count),
          "expected " + std::to_string(count) + " numbers");
  for (Eigen::Index k = 0; k < count; ++k) values[k] = read_exact_number(json.at(static_cast<std::size_t>(k)));
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

double final_validation(const SamplerRun& run) { return run.curve.back().validation; }

// The test ISL of `curve` at exactly N samples; NaN when N is not one of its points.
double isl_at(const std::vector<IslPoint>& curve, Eigen::Index samples) {
  for (const IslPoint& point : curve)
    if (point.samples == samples) return point.test;
  return std::nan("");
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// The powers of ten up to N: the table's columns.
std::vector<Eigen::Index> table_counts(Eigen::Index samples) {
  std::vector<Eigen::Index> counts;
  for (Eigen::Index count = 10; count <= samples; count *= 10) counts.push_back(count);
  return counts;
}

}  // namespace

nlohmann::json to_grid_json(const SamplersModel& model) {
  const Rbm& rbm = model.rbm;
  return {{"data_set", model.data_set},
          {"hidden", model.hidden},
          {"learning_rate", exact_number(model.learning_rate)},
          {"diverged", model.diverged},
          {"selection_isl", exact_number(model.selection_isl)},
          {"visible", rbm.n_visible()},
          {"weights", exact_numbers(rbm.weights.data(), rbm.weights.size())},
          {"visible_bias", exact_numbers(rbm.visible_bias.data(), rbm.visible_bias.size())},
          {"hidden_bias", exact_numbers(rbm.hidden_bias.data(), rbm.hidden_bias.size())}};
}

void from_grid_json(const nlohmann::json& json, SamplersModel& model) {
  model.data_set = json.at("data_set").get<std::size_t>();
  model.hidden = json.at("hidden").get<Eigen::Index>();
  model.learning_rate = read_exact_number(json.at("learning_rate"));
  model.diverged = json.at("diverged").get<bool>();
  model.selection_isl = read_exact_number(json.at("selection_isl"));
  model.rbm = Rbm(json.at("visible").get<Eigen::Index>(), model.hidden);
  read_exact_numbers(json.at("weights"), model.rbm.weights.data(), model.rbm.weights.size());
  read_exact_numbers(json.at("visible_bias"), model.rbm.visible_bias.data(), model.rbm.visible_bias.size());
  read_exact_numbers(json.at("hidden_bias"), model.rbm.hidden_bias.data(), model.rbm.hidden_bias.size());
}

nlohmann::json to_grid_json(const SamplerRun& run) {
  return {{"data_set", run.data_set},
          {"sampler", run.sampler},
          {"setting", run.setting},
          {"curve", curve_to_grid_json(run.curve)},
          {"fixed_point_searches", run.fixed_points.searches},
          {"fixed_point_cap_hits", run.fixed_points.cap_hits},
          {"fixed_point_iterations", run.fixed_points.iterations},
          {"mean_activity", exact_number(run.mean_activity)}};
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
      artificial_modes(kSyntheticMutationProbability, static_cast<int>(rows), trial_seed(seed, kSyntheticDataSeedIndex))
          .samples;
  return {"artificial-modes-4x4", all.topRows(train),    all.middleRows(train, validation),
          all.bottomRows(test),   artificial_modes_side, artificial_modes_side};
}

SamplersDataSet image_samplers_data(const std::string& name, const std::filesystem::path& directory,
                                    Eigen::Index validation_rows, Eigen::Index test_rows) {
  const LabelledImages train = load_mnist(directory, MnistPart::train);
  const LabelledImages test = load_mnist(directory, MnistPart::test);
  const Eigen::Index held_out = train.images.pixels.rows() - kImageTrainingRows;
  require(held_out >= 1, name + " in " + directory.string() + ": needs more than " +
                             std::to_string(kImageTrainingRows) + " training images, has " +
                             std::to_string(train.images.pixels.rows()));
  require(validation_rows >= 1 && validation_rows <= held_out,
          "--validation-rows: " + std::to_string(validation_rows) + " is outside 1 … " + std::to_string(held_out));
  require(test_rows >= 1 && test_rows <= test.images.pixels.rows(),
          "--test-rows: " + std::to_string(test_rows) + " is outside 1 … " + std::to_string(test.images.pixels.rows()));
  const BinaryMatrix all_train = threshold_binarize(train.images.pixels);
  return {name,
          all_train.topRows(kImageTrainingRows),
          all_train.middleRows(kImageTrainingRows, validation_rows),
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
          {"sampling_seed", "trial_seed(seed, 2^32 + data set index), shared by every setting of the data set"}};
}

std::size_t best_run(const std::vector<SamplerRun>& runs, const std::vector<std::size_t>& candidates) {
  require(!candidates.empty(), "samplers: no runs to choose from");
  std::size_t best = candidates.front();
  for (std::size_t index : candidates)
    if (final_validation(runs[index]) > final_validation(runs[best])) best = index;
  return best;
}

SamplersResult run_samplers(const SamplersOptions& options) {
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
  result.models = run_jobs(JobRunner(options.threads), model_jobs.size(), [&](std::size_t job) {
    const ModelJob& model = model_jobs[job];
    return train_candidate(options, model.data_set, model.hidden, model.learning_rate, trial_seed(options.seed, job));
  });

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
  result.runs = run_jobs(JobRunner(options.threads), run_jobs_list.size(), [&](std::size_t job) {
    const RunJob& run = run_jobs_list[job];
    return run_sampler(options, result.models[result.data_sets[run.data_set].chosen_model].rbm, rates[run.data_set],
                       run.data_set, run.sampler, run.setting);
  });

  const std::vector<ReferenceCurve> references =
      run_jobs(JobRunner(options.threads), options.data_sets.size(), [&](std::size_t set) {
        const SamplersDataSet& data = options.data_sets[set];
        return ReferenceCurve{isl_curve(data.train, data.validation, data.test, log_spaced_counts(data.train.rows()))};
      });
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    result.data_sets[set].reference = references[set].curve;
    for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler) {
      std::vector<std::size_t> candidates;
      for (std::size_t index = 0; index < result.runs.size(); ++index)
        if (result.runs[index].data_set == set && result.runs[index].sampler == sampler) candidates.push_back(index);
      result.data_sets[set].chosen_runs.push_back(best_run(result.runs, candidates));
    }
  }
  return result;
}

MatrixF replay_grey_samples(const SamplersOptions& options, const SamplersResult& result, std::size_t run_index,
                            Eigen::Index count) {
  const SamplerRun& run = result.runs.at(run_index);
  const SamplersDataSet& data = options.data_sets[run.data_set];
  const SamplerCandidates& candidates = options.samplers[run.sampler];
  const Rbm& rbm = result.models[result.data_sets[run.data_set].chosen_model].rbm;
  std::optional<SufficientStatistics> rates;
  if (needs_rates(candidates.kind)) rates = compute_rates(rbm, data.train, data.name);
  SamplingProcess process(rbm, settings_of(options, candidates, candidates.grid[run.setting]), std::move(rates), 1,
                          sampling_seed(options, run.data_set));
  return process.run(count).grey;
}

Table samplers_table(const SamplersOptions& options, const SamplersResult& result) {
  const std::vector<Eigen::Index> counts = table_counts(options.samples);
  std::vector<std::string> columns{"data", "sampler", "operator", "fast_lr", "fast_decay", "k"};
  for (Eigen::Index count : counts) columns.push_back("isl_at_" + std::to_string(count));
  for (const std::string column : {"isl_final", "samples_final", "fixed_point_cap_hits"}) columns.push_back(column);
  Table table(columns);
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    const SamplersDataSetResult& data = result.data_sets[set];
    for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler) {
      const SamplerRun& run = result.runs[data.chosen_runs[sampler]];
      const SamplerCandidates& candidates = options.samplers[sampler];
      const SamplerGridPoint& point = candidates.grid[run.setting];
      const bool zero_temperature = is_zero_temperature(candidates.kind);
      std::vector<Table::Cell> row{
          options.data_sets[set].name,
          candidates.label,
          zero_temperature ? std::string("fixed point") : to_string(candidates.rule),
          point.fast_learning_rate,
          point.fast_decay,
          zero_temperature ? Table::missing() : Table::Cell(static_cast<long long>(point.sweeps))};
      for (Eigen::Index count : counts) row.emplace_back(isl_at(run.curve, count));
      row.emplace_back(run.curve.back().test);
      row.emplace_back(static_cast<long long>(run.curve.back().samples));
      row.emplace_back(static_cast<long long>(run.fixed_points.cap_hits));
      table.add_row(row);
    }
    std::vector<Table::Cell> row{options.data_sets[set].name,
                                 std::string("training set"),
                                 Table::missing(),
                                 Table::missing(),
                                 Table::missing(),
                                 Table::missing()};
    for (Eigen::Index count : counts) row.emplace_back(isl_at(data.reference, count));
    row.emplace_back(data.reference.back().test);
    row.emplace_back(static_cast<long long>(data.reference.back().samples));
    row.emplace_back(0LL);
    table.add_row(row);
  }
  return table;
}

Table samplers_claims_table(const SamplersOptions& options, const SamplersResult& result) {
  Table table({"data", "claim_001", "measured", "holds"});
  const auto sampler_index = [&](const std::string& label) -> std::optional<std::size_t> {
    for (std::size_t k = 0; k < options.samplers.size(); ++k)
      if (options.samplers[k].label == label) return k;
    return std::nullopt;
  };
  const auto gibbs = sampler_index("gibbs"), fpcd = sampler_index("rates-fpcd"),
             herding = sampler_index("rates-herding"), penalization = sampler_index("sp");
  const Eigen::Index early = std::min<Eigen::Index>(100, options.samples);
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    const std::string& name = options.data_sets[set].name;
    const SamplersDataSetResult& data = result.data_sets[set];
    const auto chosen = [&](std::size_t sampler) -> const SamplerRun& {
      return result.runs[data.chosen_runs[sampler]];
    };
    const auto final_isl = [&](std::size_t sampler) { return chosen(sampler).curve.back().test; };
    const auto add = [&](const std::string& claim, const std::string& measured, bool holds) {
      table.add_row({name, claim, measured, holds});
    };
    if (gibbs && fpcd && herding) {
      add("rates-FPCD and rates-herding far ahead of Gibbs at equal N",
          "at N=" + std::to_string(options.samples) + ": rates-fpcd " + number_text(final_isl(*fpcd)) +
              ", rates-herding " + number_text(final_isl(*herding)) + ", gibbs " + number_text(final_isl(*gibbs)),
          final_isl(*fpcd) > final_isl(*gibbs) && final_isl(*herding) > final_isl(*gibbs));
      const double fpcd_early = isl_at(chosen(*fpcd).curve, early);
      add("100 rates-FPCD samples beat Gibbs's longest run (MNIST: 200 000 Gibbs samples)",
          "rates-fpcd at N=" + std::to_string(early) + " " + number_text(fpcd_early) +
              ", gibbs at N=" + std::to_string(options.samples) + " " + number_text(final_isl(*gibbs)),
          fpcd_early > final_isl(*gibbs));
      const double herding_early = isl_at(chosen(*herding).curve, early);
      add("rates-herding rises fastest at first; rates-FPCD better in the long run",
          "at N=" + std::to_string(early) + ": rates-herding " + number_text(herding_early) + ", rates-fpcd " +
              number_text(fpcd_early) + "; at N=" + std::to_string(options.samples) + ": rates-herding " +
              number_text(final_isl(*herding)) + ", rates-fpcd " + number_text(final_isl(*fpcd)),
          herding_early >= fpcd_early && final_isl(*fpcd) >= final_isl(*herding));
      const double fpcd_rate = options.samplers[*fpcd].grid[chosen(*fpcd).setting].fast_learning_rate;
      const double herding_rate = options.samplers[*herding].grid[chosen(*herding).setting].fast_learning_rate;
      add("best eps_F of rates-FPCD 10-100x smaller than rates-herding's",
          "rates-fpcd " + number_text(fpcd_rate) + ", rates-herding " + number_text(herding_rate) + " (ratio " +
              number_text(herding_rate / fpcd_rate) + ")",
          herding_rate >= 10.0 * fpcd_rate && herding_rate <= 100.0 * fpcd_rate);
    }
    if (fpcd) {
      // The best setting with α = 1 against the best with α = 0.95, by the tuning criterion (validation ISL at N).
      std::optional<std::size_t> free_run, decayed_run;
      for (std::size_t index = 0; index < result.runs.size(); ++index) {
        const SamplerRun& run = result.runs[index];
        if (run.data_set != set || run.sampler != *fpcd) continue;
        const double decay = options.samplers[*fpcd].grid[run.setting].fast_decay;
        if (decay != 1.0 && decay != 0.95) continue;
        std::optional<std::size_t>& best = decay == 1.0 ? free_run : decayed_run;
        if (!best || final_validation(run) > final_validation(result.runs[*best])) best = index;
      }
      if (free_run && decayed_run)
        add("rates-FPCD: alpha = 1 beats alpha = 0.95",
            "best test ISL at N=" + std::to_string(options.samples) + ": alpha=1 " +
                number_text(result.runs[*free_run].curve.back().test) + ", alpha=0.95 " +
                number_text(result.runs[*decayed_run].curve.back().test),
            final_validation(result.runs[*free_run]) > final_validation(result.runs[*decayed_run]));
      add("rates-FPCD's ISL exceeds the training set's (USPS: -78.5 vs -80.0)",
          "rates-fpcd " + number_text(final_isl(*fpcd)) + " (N=" + std::to_string(options.samples) +
              "), training set " + number_text(data.reference.back().test) +
              " (N=" + std::to_string(data.reference.back().samples) + ")",
          final_isl(*fpcd) > data.reference.back().test);
    }
    if (gibbs && fpcd && herding && penalization)
      add("SP beats Gibbs but trails the rates samplers",
          "at N=" + std::to_string(options.samples) + ": sp " + number_text(final_isl(*penalization)) + ", gibbs " +
              number_text(final_isl(*gibbs)) + ", rates samplers " + number_text(final_isl(*fpcd)) + " / " +
              number_text(final_isl(*herding)),
          final_isl(*penalization) > final_isl(*gibbs) &&
              final_isl(*penalization) < std::min(final_isl(*fpcd), final_isl(*herding)));
  }
  return table;
}

void write_samplers(const SamplersOptions& options, const SamplersResult& result, ResultDirectory& out) {
  out.write_csv("samplers.csv", samplers_table(options, result));
  out.write_csv("samplers_claims.csv", samplers_claims_table(options, result));

  Table models({"data", "hidden", "learning_rate", "diverged", "selection_validation_isl", "chosen"});
  for (std::size_t index = 0; index < result.models.size(); ++index) {
    const SamplersModel& model = result.models[index];
    models.add_row({options.data_sets[model.data_set].name, static_cast<long long>(model.hidden), model.learning_rate,
                    model.diverged, model.selection_isl,
                    result.data_sets[model.data_set].chosen_model == index});
  }
  out.write_csv("samplers_models.csv", models);

  Table tuning({"data", "sampler", "fast_lr", "fast_decay", "k", "validation_isl", "test_isl", "samples",
                "fixed_point_searches", "fixed_point_cap_hits", "mean_activity", "chosen"});
  for (std::size_t index = 0; index < result.runs.size(); ++index) {
    const SamplerRun& run = result.runs[index];
    const SamplerGridPoint& point = options.samplers[run.sampler].grid[run.setting];
    const auto& chosen = result.data_sets[run.data_set].chosen_runs;
    tuning.add_row({options.data_sets[run.data_set].name, options.samplers[run.sampler].label, point.fast_learning_rate,
                    point.fast_decay, static_cast<long long>(point.sweeps), run.curve.back().validation,
                    run.curve.back().test, static_cast<long long>(run.curve.back().samples),
                    static_cast<long long>(run.fixed_points.searches),
                    static_cast<long long>(run.fixed_points.cap_hits), run.mean_activity,
                    std::find(chosen.begin(), chosen.end(), index) != chosen.end()});
  }
  out.write_csv("samplers_tuning.csv", tuning);

  Table curves({"data", "sampler", "samples", "beta", "validation_isl", "test_isl"});
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    const SamplersDataSetResult& data = result.data_sets[set];
    const std::string& name = options.data_sets[set].name;
    std::vector<PlotSeries> series;
    const auto add_curve = [&](const std::string& label, const std::vector<IslPoint>& curve, bool dashed) {
      PlotSeries line;
      line.label = label;
      line.dashed = dashed;
      for (const IslPoint& point : curve) {
        curves.add_row({name, label, static_cast<long long>(point.samples), point.beta, point.validation, point.test});
        line.x.push_back(static_cast<double>(point.samples));
        line.y.push_back(point.test);
      }
      series.push_back(line);
    };
    for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler)
      add_curve(options.samplers[sampler].label, result.runs[data.chosen_runs[sampler]].curve, false);
    add_curve("training set", data.reference, true);
    PlotOptions plot;
    plot.title = "ISL on " + name + " (" + std::to_string(options.data_sets[set].test.rows()) + " test rows)";
    plot.x_label = "number of samples N";
    plot.y_label = "ISL (mean test log-density)";
    plot.log_x = true;
    plot.reference_lines.push_back({"whole training set", data.reference.back().test});
    out.write_svg("isl_" + name + ".svg", series, plot);
  }
  out.write_csv("samplers_curves.csv", curves);

  if (options.picture_samples == 0) return;
  for (std::size_t set = 0; set < options.data_sets.size(); ++set) {
    const SamplersDataSet& data = options.data_sets[set];
    const Eigen::Index training_rows = std::min(options.picture_samples, data.train.rows());
    out.write_png("training_" + data.name + ".png",
                  tile_images(data.train.topRows(training_rows).cast<float>(), data.image_height, data.image_width,
                              {options.picture_columns}),
                  {{"Description", "the first " + std::to_string(training_rows) + " training rows of " + data.name +
                                       " (binary), one per tile"}});
    for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler) {
      const MatrixF grey =
          replay_grey_samples(options, result, result.data_sets[set].chosen_runs[sampler], options.picture_samples);
      out.write_png("samples_" + data.name + "_" + options.samplers[sampler].label + ".png",
                    tile_images(grey, data.image_height, data.image_width, {options.picture_columns}),
                    {{"Description", options.samplers[sampler].label + " samples in emission order, one per tile: " +
                                         grey_sample_meaning(options.samplers[sampler].kind)}});
    }
  }
}

}  // namespace rbmix::experiments
