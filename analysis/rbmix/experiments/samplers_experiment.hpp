#pragma once
// Experiment samplers: 001 §5 (docs/algorithms/estimation.md §4 and §8, R1). On each data set one RBM is trained by
// FPCD and chosen on validation ISL among a small grid of hidden sizes and learning rates (001 §5 picks "the best
// (according to ISL) among all training methods and hyperparameters"; here the ISL of N Gibbs samples, k = 1, from the
// model itself, so that the choice does not favour any of the samplers compared). Then every sampler — Gibbs,
// flip-the-state, rates-FPCD, rates-herding, herding, sample penalization, and rates-FPCD with flip-the-state sweeps (a
// combination no paper has run) — draws N samples from one chain for every setting of its grid of ε_F, α and k; each
// sampler's setting with the highest validation ISL at N is kept (001 §5 tunes "to compare each sampling method in its
// best light"), and its test ISL is reported against log-spaced N, with the training set's own ISL as the reference.
//
// Two phases of jobs (job_grid.hpp): phase 0 trains the candidate models (one job per data set × hidden size ×
// learning rate), phase 1 runs every sampler setting and the reference curves (one job per data set × sampler ×
// setting, and one per data set for the training set). Every setting of a data set samples with the same seed
// (common random numbers: the settings are compared on the same random draws), so the results depend only on the
// options and the seed, not on the thread count or on how the grid is split.
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/estimation/isl.hpp"
#include "rbmix/experiments/experiment.hpp"
#include "rbmix/jobs/experiment_scale.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/result_directory.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/sampling_process.hpp"

namespace rbmix::experiments {

struct SamplersDataSet {
  std::string name;
  BinaryMatrix train;
  BinaryMatrix validation;  // chooses the model, every sampler's setting, and the Parzen β at every N
  BinaryMatrix test;        // the ISL reported
  Eigen::Index image_height = 0;
  Eigen::Index image_width = 0;
};

// One point of a sampler's grid: ε_F, α and k (k unused by the herding samplers; ε_F, α unused by Gibbs).
struct SamplerGridPoint {
  double fast_learning_rate = 0.0;
  double fast_decay = 1.0;
  Eigen::Index sweeps = 1;
};

struct SamplerCandidates {
  std::string label;  // as in the tables and plots: "gibbs", "rates-fpcd", "rates-fpcd-flip", …
  SamplerKind kind = SamplerKind::gibbs;
  UnitRule rule = GibbsRule{};
  std::vector<SamplerGridPoint> grid;
};

struct SamplersOptions {
  std::vector<SamplersDataSet> data_sets;
  std::filesystem::path fashion_mnist_directory;  // where the fashion-mnist data set was read, if any (run.json)
  // The model grid: FPCD (k = 1, Gibbs) with every hidden size × learning rate; ε_F of training is
  // `training_fast_rate_ratio` × ε, α = `training_fast_decay`.
  std::vector<Eigen::Index> hidden_sizes{200, 500};
  std::vector<double> learning_rates{0.01, 0.05};
  double training_fast_rate_ratio = 2.0;
  double training_fast_decay = 0.95;
  int batch_size = 100;
  std::int64_t updates = 25000;
  Eigen::Index selection_samples = 10000;  // Gibbs samples whose validation ISL chooses the model
  std::vector<SamplerCandidates> samplers;
  Eigen::Index samples = 100000;  // N: samples drawn by every sampler setting (one chain)
  Eigen::Index fixed_point_cap = 1000;
  Eigen::Index picture_samples = 100;  // the first samples of every chosen sampler, drawn in a PNG grid
  Eigen::Index picture_columns = 10;
  std::uint64_t seed = 1;
  // Throws InputError naming what is out of range.
  void validate() const;
};

// The samplers and grids of `scale` (see samplers_experiment.cpp): every sampler of 001 §5 plus flip-the-state and
// rates-FPCD with flip-the-state sweeps.
std::vector<SamplerCandidates> samplers_grid(Scale scale);
// Paper: the grids above on `data_sets`; smoke: tiny grids, 2 × 2 small models, 1000 samples. Without data sets, a
// synthetic image set (4×4 Artificial Modes, p_mut 0.05, drawn from the seed) stands in for MNIST.
SamplersOptions samplers_options(Scale scale, std::uint64_t seed, std::vector<SamplersDataSet> data_sets);
// The synthetic image set: `train`, `validation` and `test` rows of 4×4 Artificial Modes with p_mut 0.05.
SamplersDataSet synthetic_samplers_data(Eigen::Index train, Eigen::Index validation, Eigen::Index test,
                                        std::uint64_t seed);
// An MNIST-style directory of IDX files (MNIST, Fashion-MNIST) as 001 §5 splits MNIST: the first 50 000 training
// images for training, the last 10 000 for validation (the first `validation_rows` of them are used), and the first
// `test_rows` test images (001 draws its curves on 2000); smoke scale takes at most 500 of each, and rows not given
// take the scale's. Threshold binarisation (pixel > ½; 001 does not say how it binarised). Errors name the directory
// and what is missing.
SamplersDataSet image_samplers_data(const std::string& name, const std::filesystem::path& directory, Scale scale,
                                    std::optional<Eigen::Index> validation_rows,
                                    std::optional<Eigen::Index> test_rows);
nlohmann::json to_json(const SamplersOptions& options);
// The settings a sampler of the grid runs with at `point` (SamplersOptions::validate checks every one).
SamplerSettings settings_of(const SamplersOptions& options, const SamplerCandidates& sampler,
                            const SamplerGridPoint& point);

struct SamplersModel {
  std::size_t data_set = 0;
  Eigen::Index hidden = 0;
  double learning_rate = 0.0;
  bool diverged = false;
  double selection_isl = 0.0;  // validation ISL of selection_samples Gibbs samples (−∞ when diverged)
  Rbm rbm;
};

struct SamplerRun {
  std::size_t data_set = 0;
  std::size_t sampler = 0;  // index into options.samplers
  std::size_t setting = 0;  // index into its grid
  std::vector<IslPoint> curve;
  FixedPointStatistics fixed_points;
  double mean_activity = 0.0;  // mean of all sampled units
  // The first picture_samples grey samples as the 8-bit levels samples_*.png draws (grey_level), row after row:
  // kept from the run itself, so the picture needs no second sampling run.
  std::vector<std::uint8_t> picture_levels;
};

// The grey samples `run` kept for its picture, one row of `units` levels / 255 per sample.
MatrixF picture_samples(const SamplerRun& run, Eigen::Index units);

// The validation ISL at the run's largest N: what chooses a sampler's setting.
inline double final_validation(const SamplerRun& run) { return run.curve.back().validation; }

struct SamplersDataSetResult {
  std::size_t chosen_model = 0;          // index into SamplersResult::models
  std::vector<IslPoint> reference;       // the training set's own ISL
  std::vector<std::size_t> chosen_runs;  // per sampler, the index into SamplersResult::runs of its best setting
};

struct SamplersResult {
  std::vector<SamplersModel> models;
  std::vector<SamplerRun> runs;  // every sampler setting on every data set
  std::vector<SamplersDataSetResult> data_sets;
};

// The job results as the job grid journals them (job_runner.hpp: GridSerializable), every double exactly.
nlohmann::json to_grid_json(const SamplersModel& model);
void from_grid_json(const nlohmann::json& json, SamplersModel& model);
nlohmann::json to_grid_json(const SamplerRun& run);
void from_grid_json(const nlohmann::json& json, SamplerRun& run);

OrPartDone<SamplersResult> run_samplers(const SamplersOptions& options, const JobRunner& runner = JobRunner());

// Index of the run with the highest validation ISL at the largest N among `runs` (ties: the first): how each
// sampler's setting is chosen.
std::size_t best_run(const std::vector<SamplerRun>& runs, const std::vector<std::size_t>& candidates);

// Per data set and sampler (and the training set): the chosen ε_F, α, k, the test ISL at N = 10, 100, 1000, …
// up to N, and the fixed-point cap hits.
Table samplers_table(const SamplersOptions& options, const SamplersResult& result);
// 001 §5's claims, each with what this run measured and whether it holds here.
Table samplers_claims_table(const SamplersOptions& options, const SamplersResult& result);
// samplers.csv (the table), samplers_claims.csv, samplers_tuning.csv (every grid point), samplers_models.csv (the
// model grid), samplers_curves.csv (every chosen curve), isl_<data>.svg per data set, and per data set
// samples_<data>_<sampler>.png and training_<data>.png for image data.
void write_samplers(const SamplersOptions& options, const SamplersResult& result, ResultDirectory& out);

// `rbmix experiment samplers` (experiment.hpp).
struct Samplers {
  static constexpr std::string_view name = "samplers";
  static constexpr std::string_view description =
      "001 §5: ISL against N of Gibbs, rates-FPCD, rates-herding, herding and SP samples";
  static constexpr std::string_view mnist_help = "MNIST directory (IDX files); else a synthetic image set";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = SamplersOptions;
  using Result = SamplersResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
