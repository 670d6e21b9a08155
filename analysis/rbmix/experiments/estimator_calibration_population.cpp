// The population of experiment estimator-calibration (estimator_calibration_experiment.hpp): the tiny RBMs, each
// operator's exact τ and the estimates of every chain configuration and replicate, one grid job per (RBM, operator).
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "rbmix/analysis/convergence_diagnostics.hpp"
#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/experiments/estimator_calibration_experiment.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/random_rbm_family.hpp"
#include "rbmix/experiments/random_start_energy_traces.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/trial_seed.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::experiments {

namespace {

enum class ModelFamily { random, bars_and_stripes, modes };

struct CalibrationModel {
  std::string name;
  ModelFamily family = ModelFamily::random;
  int size = 0;  // random RBMs: m = n = size, W ~ U[−bound, bound]
  int bound = 0;
  Eigen::Index hidden = 0;  // trained RBMs
  int index = 0;
};

std::vector<CalibrationModel> calibration_models(const EstimatorCalibrationOptions& options) {
  std::vector<CalibrationModel> models;
  // The held-out set: the same families again, each model another member (the random RBMs' indices continue past
  // the first set's, the BAS RBMs have other hidden sizes, the trained ones' seeds follow their job index), its name
  // after held_out_prefix.
  for (const bool held_out : {false, true}) {
    if (held_out && !options.held_out) break;
    const std::string prefix = held_out ? std::string(held_out_prefix) : std::string();
    const int random_offset = held_out ? options.random_rbms_per_setting : 0;
    for (const int size : options.sizes)
      for (const int bound : options.weight_bounds)
        for (int index = random_offset; index < random_offset + options.random_rbms_per_setting; ++index)
          models.push_back({prefix + "random m=n=" + std::to_string(size) + " c=" + std::to_string(bound) + " #" +
                                std::to_string(index),
                            ModelFamily::random, size, bound, 0, index});
    for (const Eigen::Index hidden : held_out ? options.held_out_trained_hidden : options.trained_hidden)
      for (int index = 0; index < options.trained_rbms; ++index)
        models.push_back({prefix + "bas3x3 h" + std::to_string(hidden) + " #" + std::to_string(index),
                          ModelFamily::bars_and_stripes, 0, 0, hidden, index});
    for (int index = 0; index < options.modes_rbms; ++index)
      models.push_back({prefix + "modes4x4 h" + std::to_string(options.modes_hidden) + " #" + std::to_string(index),
                        ModelFamily::modes, 0, 0, options.modes_hidden, index});
  }
  return models;
}

// Trained by CD-5, full batch, as the demo trains, longer: on Bars & Stripes 3×3 a model whose energy
// autocorrelation falls fast and then decays slowly; on Artificial Modes (p_mut 0.01) one whose four modes the
// chains cross rarely.
Rbm trained_rbm(const EstimatorCalibrationOptions& options, const CalibrationModel& model, std::uint64_t seed) {
  const int index = model.index;
  const MatrixD data = model.family == ModelFamily::modes
                           ? to_real(artificial_modes(0.01, 1000, purpose_seed(seed, 0, SeedPurpose::data)).samples)
                           : to_real(bars_and_stripes(3));
  TrainingOptions training;
  apply_algorithm(training, Algorithm::cd);
  training.rule = index % 2 == 0 ? UnitRule{GibbsRule{}} : UnitRule{FlipTheStateRule{}};
  training.sampling_steps = 5;
  training.learning_rate = 0.1;
  training.updates = options.training_updates;
  training.evaluation_interval = 0;
  training.seed = seed;
  Trainer trainer(training, data, MatrixD(0, data.cols()), model.hidden);
  trainer.run();
  return trainer.model();
}

struct OperatorJob {
  std::vector<CalibrationRun> runs;
  bool skipped = false;
};

// A job's result as the grid journals it (job_runner.hpp), so that a paper-scale run resumes, shards and reports its
// progress; every double is an exact number.
nlohmann::json to_grid_json(const OperatorJob& job) {
  nlohmann::json runs = nlohmann::json::array();
  for (const CalibrationRun& run : job.runs) {
    nlohmann::json candidates = nlohmann::json::array();
    for (const LongBatchInterval& candidate : run.long_batch_candidates)
      candidates.push_back({exact_number(candidate.batch_in_cutoffs), exact_number(candidate.lower),
                            exact_number(candidate.upper)});
    runs.push_back({{"model", run.model},
                    {"operator", run.operator_name},
                    {"exact_time", exact_number(run.exact_time)},
                    {"slowest_time", exact_number(run.slowest_time)},
                    {"chains", run.configuration.chains},
                    {"steps", run.configuration.steps},
                    {"superchains", run.configuration.superchains},
                    {"replicate", run.replicate},
                    {"diagnostics", exact_diagnostics(run.diagnostics)},
                    {"nested_potential_scale_reduction", exact_number(run.nested_potential_scale_reduction)},
                    {"long_batch_candidates", candidates}});
  }
  return {{"skipped", job.skipped}, {"runs", runs}};
}

void from_grid_json(const nlohmann::json& json, OperatorJob& job) {
  const JournaledValue journaled(json);
  job.skipped = journaled["skipped"].flag();
  job.runs.clear();
  // The exact τ of a run is finite; its slowest time is +∞ where the SLEM rounds to 1.
  for (const JournaledValue& run : journaled["runs"].elements()) {
    CalibrationRun read{run["model"].text(),
                        run["operator"].text(),
                        run["exact_time"].at_least(0.0),
                        run["slowest_time"].number(),
                        {run["chains"].integer<Eigen::Index>(1), run["steps"].integer<Eigen::Index>(1),
                         run["superchains"].integer<Eigen::Index>(0)},
                        run["replicate"].integer<int>(0),
                        read_exact_diagnostics(run["diagnostics"]),
                        run["nested_potential_scale_reduction"].number(),
                        {}};
    run["slowest_time"].require_that(read.slowest_time >= 0.0, "not a time (at least 0, or inf)");
    for (const JournaledValue& candidate : run["long_batch_candidates"].elements())
      read.long_batch_candidates.push_back(
          {candidate.element(0).finite(), candidate.element(1).number(), candidate.element(2).number()});
    job.runs.push_back(std::move(read));
  }
}

}  // namespace

OrPartDone<EstimatorCalibrationResult> run_estimator_calibration(const EstimatorCalibrationOptions& options,
                                                                 const JobRunner& runner) {
  options.validate();
  const std::vector<CalibrationModel> models = calibration_models(options);
  const std::size_t jobs = models.size() * options.operators.size();
  const auto results = run_jobs(runner, JobPhase{0}, jobs, [&](std::size_t job) {
    const CalibrationModel& model = models[job / options.operators.size()];
    const std::string& name = options.operators[job % options.operators.size()];
    // The model's seed depends on the model alone, so that every operator sees the same RBM.
    const std::uint64_t model_seed = trial_seed(options.seed, 1000000 + job / options.operators.size());
    const Rbm rbm = model.family == ModelFamily::random
                        ? fig3_random_rbm(options.seed, model.size, model.bound, model.index)
                        : trained_rbm(options, model, model_seed);
    const analysis::OperatorSpecification specification = analysis::parse_operator_specification(name);
    OperatorJob out;
    const analysis::OperatorAnalysis analysis = analysis::analyse_operator(rbm, specification);
    const std::optional<double> exact = analysis.energy_autocorrelation_time;
    if (!exact || !(*exact > 0.0)) {
      out.skipped = true;
      return out;
    }
    // τ_exp = −1/ln SLEM, the time a chain takes to forget its start (docs/algorithms/operators.md §2.5).
    const double slowest_time = analysis.slem.slem < 1.0 ? -1.0 / std::log(analysis.slem.slem)
                                                          : std::numeric_limits<double>::infinity();
    std::uint64_t draw = 0;
    for (const ChainConfiguration& configuration : options.configurations)
      for (int replicate = 0; replicate < options.replicates; ++replicate) {
        const EnergyTraceRequest request{specification.rule,
                                         configuration.steps,
                                         configuration.chains,
                                         options.burn_in,
                                         trial_seed(trial_seed(options.seed, job), draw++),
                                         false,
                                         {},
                                         configuration.superchains};
        const MatrixD traces = specification.modified ? sample_modified_sweep_energy_traces(rbm, request)
                                                      : sample_energy_traces(rbm, request);
        CalibrationRun run{model.name,
                           name,
                           *exact,
                           slowest_time,
                           configuration,
                           replicate,
                           analysis::mixing_diagnostics(traces, options.rule),
                           std::numeric_limits<double>::quiet_NaN(),  // set below for superchain shapes
                           {}};
        if (configuration.superchains > 0) {
          run.nested_potential_scale_reduction = analysis::rank_normalised_split_nested_potential_scale_reduction(
              traces, analysis::consecutive_superchains(traces.cols(), configuration.superchains));
          analysis::use_nested_potential_scale_reduction(run.diagnostics, run.nested_potential_scale_reduction,
                                                         options.rule);
        }
        const Eigen::Index cutoff = run.diagnostics.recommended().cutoff;
        for (const double factor : long_batch_factor_candidates) {
          const analysis::IntegratedTimeEstimate batches = analysis::batch_means_integrated_time(
              traces, analysis::long_batch_size(configuration.steps, cutoff, factor));
          run.long_batch_candidates.push_back({factor, batches.lower, batches.upper});
        }
        out.runs.push_back(std::move(run));
      }
    return out;
  });
  if (!results) return results.part_done();
  EstimatorCalibrationResult result;
  for (const OperatorJob& job : results.value()) {
    result.skipped_operators += job.skipped;
    result.runs.insert(result.runs.end(), job.runs.begin(), job.runs.end());
  }
  // The verdicts from the journaled signals under the options' rule, whichever rule a resumed journal was made under.
  for (CalibrationRun& run : result.runs) analysis::apply_trust_rule(run.diagnostics, options.rule);
  return result;
}

}  // namespace rbmix::experiments
