#include "rbmix/experiments/samplers_experiment.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>

#include "rbmix/core/error.hpp"
#include "rbmix/jobs/trial_seed.hpp"
#include "rbmix/report/png_image.hpp"
#include "rbmix/sampling/rates.hpp"
#include "support/temporary_directory.hpp"

namespace rbmix::experiments {
namespace {

// A tiny version of the experiment: one synthetic data set, a 2-model grid, every sampler with a grid of at most
// two settings, 200 samples each (well under a second).
SamplersOptions tiny_options() {
  SamplersOptions options = samplers_options(Scale::smoke, 5, {synthetic_samplers_data(100, 60, 60, 5)});
  options.hidden_sizes = {4};
  options.learning_rates = {0.05, 0.1};
  options.batch_size = 10;
  options.updates = 60;
  options.selection_samples = 100;
  options.samples = 200;
  options.picture_samples = 12;
  options.picture_columns = 4;
  for (SamplerCandidates& sampler : options.samplers)
    if (sampler.grid.size() > 2) sampler.grid.resize(2);
  return options;
}

void expect_same_curves(const std::vector<IslPoint>& one, const std::vector<IslPoint>& two) {
  ASSERT_EQ(one.size(), two.size());
  for (std::size_t k = 0; k < one.size(); ++k) {
    EXPECT_EQ(one[k].samples, two[k].samples);
    EXPECT_EQ(one[k].beta, two[k].beta);
    EXPECT_EQ(one[k].validation, two[k].validation);
    EXPECT_EQ(one[k].test, two[k].test);
  }
}

// Every job draws from (seed, job) or (seed, data set) alone: one thread or two give the same bits.
TEST(SamplersExperiment, ResultsDoNotDependOnTheThreadCount) {
  const SamplersResult one = run_samplers(tiny_options(), JobRunner(1)).value();
  const SamplersResult two = run_samplers(tiny_options(), JobRunner(2)).value();
  ASSERT_EQ(one.models.size(), two.models.size());
  for (std::size_t k = 0; k < one.models.size(); ++k) {
    EXPECT_EQ(one.models[k].selection_isl, two.models[k].selection_isl);
    EXPECT_TRUE(one.models[k].rbm.weights == two.models[k].rbm.weights);
  }
  ASSERT_EQ(one.runs.size(), two.runs.size());
  for (std::size_t k = 0; k < one.runs.size(); ++k) {
    expect_same_curves(one.runs[k].curve, two.runs[k].curve);
    EXPECT_EQ(one.runs[k].mean_activity, two.runs[k].mean_activity);
  }
  ASSERT_EQ(one.data_sets.size(), 1u);
  EXPECT_EQ(one.data_sets[0].chosen_runs, two.data_sets[0].chosen_runs);
  expect_same_curves(one.data_sets[0].reference, two.data_sets[0].reference);
}

// The model is the grid's maximum of validation ISL, and every sampler's setting the maximum of its grid's
// validation ISL at N; every setting of every sampler ran, each to N samples.
TEST(SamplersExperiment, TuningPicksTheGridMaximumOfValidationIsl) {
  const SamplersOptions options = tiny_options();
  const SamplersResult result = run_samplers(options).value();
  const SamplersDataSetResult& data = result.data_sets.at(0);
  ASSERT_EQ(result.models.size(), 2u);
  for (const SamplersModel& model : result.models)
    EXPECT_LE(model.selection_isl, result.models[data.chosen_model].selection_isl);
  std::size_t settings = 0;
  for (const SamplerCandidates& sampler : options.samplers) settings += sampler.grid.size();
  ASSERT_EQ(result.runs.size(), settings);
  ASSERT_EQ(data.chosen_runs.size(), options.samplers.size());
  for (std::size_t sampler = 0; sampler < options.samplers.size(); ++sampler) {
    const SamplerRun& chosen = result.runs[data.chosen_runs[sampler]];
    EXPECT_EQ(chosen.sampler, sampler);
    std::set<std::size_t> seen;
    for (const SamplerRun& run : result.runs) {
      if (run.sampler != sampler) continue;
      seen.insert(run.setting);
      EXPECT_EQ(run.curve.back().samples, options.samples);
      EXPECT_LE(run.curve.back().validation, chosen.curve.back().validation) << options.samplers[sampler].label;
    }
    EXPECT_EQ(seen.size(), options.samplers[sampler].grid.size());
  }
  EXPECT_EQ(data.reference.back().samples, options.data_sets[0].train.rows());
}

// Ties go to the first setting in grid order; NaN-free validation values are compared as they are.
TEST(SamplersExperiment, BestRunTakesTheFirstOfEqualMaxima) {
  std::vector<SamplerRun> runs(4);
  const double validations[] = {-5.0, -3.0, -3.0, -4.0};
  for (std::size_t k = 0; k < runs.size(); ++k) runs[k].curve = {{10, 0.9, validations[k], -6.0}};
  EXPECT_EQ(best_run(runs, {0, 1, 2, 3}), 1u);
  EXPECT_EQ(best_run(runs, {3, 2, 1}), 2u);
  EXPECT_EQ(best_run(runs, {0, 3}), 3u);
  EXPECT_THROW(best_run(runs, {}), InputError);
}

// The job results survive the journal bit for bit.
TEST(SamplersExperiment, JobResultsRoundTripThroughTheirGridJson) {
  SamplersModel model{0, 2, 0.1, false, -3.25, Rbm(3, 2)};
  model.rbm.weights << 0.1, -1.0 / 3.0, 2.0, 1e-300, -0.0, 7.5;
  model.rbm.visible_bias << 1.0, 2.0, 3.0;
  model.rbm.hidden_bias << -1.0, std::nextafter(1.0, 2.0);
  SamplersModel restored_model;
  from_grid_json(nlohmann::json::parse(to_grid_json(model).dump()), restored_model);
  EXPECT_TRUE(restored_model.rbm.weights == model.rbm.weights);
  EXPECT_TRUE(restored_model.rbm.visible_bias == model.rbm.visible_bias);
  EXPECT_TRUE(restored_model.rbm.hidden_bias == model.rbm.hidden_bias);
  EXPECT_EQ(restored_model.selection_isl, model.selection_isl);
  EXPECT_EQ(restored_model.learning_rate, model.learning_rate);

  SamplerRun run{1, 2, 3, {{1, 0.75, -10.0 / 3.0, -4.0}, {7, 0.875, -2.0, -3.0}}, {5, 1, 40}, 0.3, {0, 17, 128, 255}};
  SamplerRun restored_run;
  from_grid_json(nlohmann::json::parse(to_grid_json(run).dump()), restored_run);
  EXPECT_EQ(restored_run.sampler, 2u);
  EXPECT_EQ(restored_run.setting, 3u);
  expect_same_curves(restored_run.curve, run.curve);
  EXPECT_EQ(restored_run.fixed_points.cap_hits, 1);
  EXPECT_EQ(restored_run.fixed_points.iterations, 40);
  EXPECT_EQ(restored_run.mean_activity, 0.3);
  EXPECT_EQ(restored_run.picture_levels, run.picture_levels);
}

// run.json lists every file written (tables, the ISL plot, one picture per sampler and of the training set), each
// of which exists.
TEST(SamplersExperiment, RunRecordListsEveryOutput) {
  const SamplersOptions options = tiny_options();
  const SamplersResult result = run_samplers(options).value();
  const testing::TemporaryDirectory temporary;
  ResultDirectory out(temporary.path() / "samplers");
  write_samplers(options, result, out);
  out.write_run_record({{"command", "experiment samplers"}});
  std::ifstream file(out.path() / "run.json");
  const auto listed = nlohmann::json::parse(file).at("files").get<std::vector<std::string>>();
  const std::string name = options.data_sets[0].name;
  std::set<std::string> expected{
      "samplers.csv",        "samplers_claims.csv",  "samplers_models.csv",       "samplers_tuning.csv",
      "samplers_curves.csv", "isl_" + name + ".svg", "training_" + name + ".png", "run.json"};
  for (const SamplerCandidates& sampler : options.samplers)
    expected.insert("samples_" + name + "_" + sampler.label + ".png");
  EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()), expected);
  EXPECT_EQ(listed.size(), expected.size());
  for (const std::string& listed_file : listed)
    EXPECT_TRUE(std::filesystem::is_regular_file(out.path() / listed_file)) << listed_file;
}

// The pictures are the chosen run's own first grey samples: the same 8-bit levels as a second run of its sampler
// (same model, setting, rates and sampling seed) gives, one row of the model's width each.
TEST(SamplersExperiment, PicturesAreTheChosenRunsOwnFirstGreySamples) {
  const SamplersOptions options = tiny_options();
  const SamplersResult result = run_samplers(options).value();
  const SamplerRun& run = result.runs.at(result.data_sets[0].chosen_runs[0]);
  const SamplersDataSet& data = options.data_sets[0];
  const MatrixF kept = picture_samples(run, data.train.cols());
  ASSERT_EQ(kept.rows(), options.picture_samples);
  ASSERT_EQ(kept.cols(), data.train.cols());

  const SamplerCandidates& sampler = options.samplers[run.sampler];
  const SamplerGridPoint& point = sampler.grid[run.setting];
  SamplerSettings settings;
  settings.kind = sampler.kind;
  settings.rule = sampler.rule;
  settings.sweeps_per_sample = point.sweeps;
  settings.fast_learning_rate = point.fast_learning_rate;
  settings.fast_decay = point.fast_decay;
  settings.fixed_point_cap = options.fixed_point_cap;
  const Rbm& rbm = result.models[result.data_sets[0].chosen_model].rbm;
  std::optional<SufficientStatistics> rates;
  if (needs_rates(sampler.kind)) rates = compute_rates(rbm, data.train, data.name);
  SamplingProcess replay(rbm, settings, std::move(rates), 1, purpose_seed(options.seed, 0, SeedPurpose::sampling));
  const MatrixF grey = replay.run(options.picture_samples).grey;
  for (Eigen::Index row = 0; row < grey.rows(); ++row)
    for (Eigen::Index unit = 0; unit < grey.cols(); ++unit)
      ASSERT_EQ(grey_level(kept(row, unit)), grey_level(grey(row, unit))) << "sample " << row << ", unit " << unit;
}

TEST(SamplersExperiment, RefusesBadOptions) {
  SamplersOptions options = tiny_options();
  options.samples = 0;
  EXPECT_THROW(options.validate(), InputError);
  options = tiny_options();
  options.samplers[0].grid.clear();
  EXPECT_THROW(options.validate(), InputError);
  options = tiny_options();
  options.data_sets[0].image_width = 3;
  EXPECT_THROW(options.validate(), InputError);
  options = tiny_options();
  options.samplers.back().grid[0].fast_decay = 1.5;  // SP with α outside [0, 1]
  EXPECT_THROW(options.validate(), InputError);
}

}  // namespace
}  // namespace rbmix::experiments
