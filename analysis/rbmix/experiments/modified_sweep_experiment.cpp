#include "rbmix/experiments/modified_sweep_experiment.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/analysis/operator_analysis.hpp"
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/random_rbm_family.hpp"
#include "rbmix/experiments/random_start_energy_traces.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/trial_seed.hpp"
#include "rbmix/training/parameter_initialisation.hpp"

namespace rbmix::experiments {
namespace {

// Sweeps before a trained RBM's energy trace is recorded (as in the autocorr experiment).
constexpr Eigen::Index kBurnIn = 1000;

std::vector<UnitRule> operators_with(const ModifiedSweepOptions& options, const std::vector<double>& shifts) {
  std::vector<UnitRule> rules{GibbsRule{}, FlipTheStateRule{}, MixtureRule{options.mixture_weight}};
  for (const double gamma : shifts) rules.push_back(UnitModifiedRule{gamma});
  return rules;
}

ModifiedSweepRbm analyse_random_rbm(const ModifiedSweepOptions& options, ModifiedSweepRbm job) {
  const Rbm rbm = fig3_random_rbm(options.seed, job.size, job.weight_bound, job.index);
  for (const UnitRule& rule : modified_sweep_random_operators(options)) {
    const analysis::OperatorAnalysis analysis = analysis::analyse_operator(rbm, {rule, false});
    job.slem.push_back(analysis.slem.slem);
    job.tau.push_back(analysis.energy_autocorrelation_time.value_or(std::numeric_limits<double>::quiet_NaN()));
  }
  return job;
}

ModifiedSweepTrainedTrial run_trained_trial(const ModifiedSweepOptions& options, std::size_t setting_index, int trial,
                                            const JobProgress& progress) {
  const Table2Setting& setting = options.trained[setting_index];
  ModifiedSweepTrainedTrial result;
  result.setting = setting_index;
  result.trial = trial;
  // The job numbers are autocorr's, so the same trial seeds train the same RBMs and sample them alike.
  const std::uint64_t job = 1000 * setting.number + static_cast<std::uint64_t>(trial);
  const Rbm rbm =
      train_table2_rbm(setting, options.learning_rate, options.initialisation, trial_seed(options.seed, job), progress);
  const std::uint64_t chain_seed = purpose_seed(options.seed, job, SeedPurpose::sampling);
  for (const UnitRule& rule : modified_sweep_trained_operators(options)) {
    const MatrixD traces = sample_energy_traces(rbm, {rule, setting.steps, 1, kBurnIn, chain_seed, false,
                                                      chain_progress(rule, setting.steps + kBurnIn, progress)});
    progress.stage(to_string(rule) + " chain's autocorrelation time");
    result.estimates.push_back(analysis::integrated_autocorrelation_times(traces));
  }
  return result;
}

}  // namespace

void ModifiedSweepOptions::validate() const {
  family.validate(analysis::max_joint_units / 2);
  require(!shifts.empty(), "--gammas: give at least one γ");
  for (const double gamma : shifts) require(gamma >= 0.0 && gamma <= 1.0, "--gammas: every γ must lie in [0, 1]");
  for (const double gamma : trained_shifts)
    require(gamma >= 0.0 && gamma <= 1.0, "--trained-gammas: every γ must lie in [0, 1]");
  require(mixture_weight >= 0.0 && mixture_weight <= 1.0, "--alpha must lie in [0, 1]");
  require(learning_rate > 0.0 && std::isfinite(learning_rate), "--lr must be positive");
  for (const auto& setting : trained) {
    require(setting.data.rows() > 0 && setting.hidden > 0, "modified-sweep: setting " + setting.name + " has no data");
    require(setting.trials > 0, "--trials must be positive");
    require(setting.updates > 0, "--updates must be positive");
    require(setting.steps >= 2, "--steps must be at least 2");
  }
}

ModifiedSweepOptions modified_sweep_options(Scale scale, std::uint64_t seed, const std::filesystem::path& mnist) {
  const bool paper = scale == Scale::paper;
  ModifiedSweepOptions options;
  options.seed = seed;
  const int trials = paper ? 10 : 1;
  const std::int64_t updates = paper ? 20000 : 100;
  const Eigen::Index steps = paper ? 100000 : 2000;
  // 003 §4.2's N(0, 0.01²) start at paper scale and rbmix's base-rate start at smoke scale, as autocorr.
  if (paper) options.initialisation = {ParameterInitialisation::Biases::normal, 0.01};
  if (!paper) {
    options.family.sizes = {2, 3};
    options.family.rbms_per_setting = 3;
    options.shifts = {0.0, 0.5, 1.0};
    options.trained_shifts = {0.5};
  }
  // Setting numbers 0 (bas4x4) and 3 (mnist_10h) are the autocorr experiment's: the same trial seeds train the
  // same RBMs there and here.
  options.trained.push_back({"bas4x4", to_real(bars_and_stripes(4)), 16, 0, updates, trials, steps, 0});
  if (mnist.empty()) {
    options.mnist_skipped = "MNIST with 10 hidden units skipped: give --mnist DIR (rbmix data fetch mnist)";
  } else {
    const LabelledImages images = load_mnist(mnist, MnistPart::train);
    // At most 50 000 (paper) or 10 000 (smoke) rows, fewer where the directory holds fewer images.
    const MatrixD all_digits = to_real(stochastic_binarize(images.images.pixels, seed));
    const MatrixD digits = all_digits.topRows(std::min<Eigen::Index>(paper ? 50000 : 10000, all_digits.rows()));
    const auto batch = static_cast<int>(std::min<Eigen::Index>(100, digits.rows()));
    options.trained.push_back({"mnist_10h", digits, 10, batch, updates, trials, steps, 3});
  }
  return options;
}

nlohmann::json to_json(const ModifiedSweepOptions& options) {
  nlohmann::json settings = nlohmann::json::array();
  for (const auto& setting : options.trained) settings.push_back(to_json(setting));
  nlohmann::json configuration = {
      {"source", "001 §3 per unit; random RBMs of 003 Fig. 3; trained RBMs as in 003 Table 2"},
      {"weights", "U[-c, c], biases 0 (the slem-sweep RBMs)"},
      {"gammas", options.shifts},
      {"alpha", options.mixture_weight},
      {"exact", "SLEM and energy autocorrelation time of the joint sweep, dense up to 2^10 states, matrix-free beyond"},
      {"trained_gammas", options.trained_shifts},
      {"training",
       "20-PT10 with Gibbs sweeps, trial_seed(seed, job); chains purpose_seed(seed, job, sampling); job = 1000 * "
       "autocorr setting number + trial"},
      {"learning_rate", options.learning_rate},
      {"initialisation", to_string(options.initialisation)},
      {"chain", "one chain per RBM and operator, uniform random start, 1000 burn-in"},
      {"trained_settings", settings}};
  configuration.update(to_json(options.family));
  if (!options.mnist_skipped.empty()) configuration["skipped"] = options.mnist_skipped;
  return configuration;
}

std::vector<UnitRule> modified_sweep_random_operators(const ModifiedSweepOptions& options) {
  return operators_with(options, options.shifts);
}

std::vector<UnitRule> modified_sweep_trained_operators(const ModifiedSweepOptions& options) {
  return operators_with(options, options.trained_shifts);
}

nlohmann::json to_grid_json(const ModifiedSweepRbm& rbm) {
  return {{"size", rbm.size},
          {"c", rbm.weight_bound},
          {"index", rbm.index},
          {"slem", exact_numbers(rbm.slem)},
          {"tau", exact_numbers(rbm.tau)}};
}

void from_grid_json(const nlohmann::json& json, ModifiedSweepRbm& rbm) {
  const JournaledValue journaled(json);
  rbm.size = journaled["size"].integer<int>(0);
  rbm.weight_bound = journaled["c"].integer<int>(0);
  rbm.index = journaled["index"].integer<int>(0);
  rbm.slem.clear();
  for (const JournaledValue& slem : journaled["slem"].elements()) rbm.slem.push_back(slem.within(0.0, 1.0));
  // τ is NaN where the operator has none; it is an asymptotic variance over a variance, so never negative.
  rbm.tau.clear();
  for (const JournaledValue& tau : journaled["tau"].elements()) {
    rbm.tau.push_back(tau.finite_or_missing());
    tau.require_that(std::isnan(rbm.tau.back()) || rbm.tau.back() >= 0.0, "a negative exact τ");
  }
  journaled["tau"].require_that(rbm.tau.size() == rbm.slem.size(), "not one τ per operator of 'slem'");
}

nlohmann::json to_grid_json(const ModifiedSweepTrainedTrial& trial) {
  nlohmann::json operators = nlohmann::json::array();
  for (const auto& estimates : trial.estimates) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& estimate : estimates) list.push_back(exact_estimate(estimate));
    operators.push_back(list);
  }
  return {{"setting", trial.setting}, {"trial", trial.trial}, {"operators", operators}};
}

void from_grid_json(const nlohmann::json& json, ModifiedSweepTrainedTrial& trial) {
  const JournaledValue journaled(json);
  trial.setting = journaled["setting"].integer<std::size_t>(0);
  trial.trial = journaled["trial"].integer<int>(0);
  trial.estimates.clear();
  for (const JournaledValue& list : journaled["operators"].elements()) {
    std::vector<analysis::IntegratedTimeEstimate> estimates;
    for (const JournaledValue& estimate : list.elements()) estimates.push_back(read_exact_estimate(estimate));
    trial.estimates.push_back(estimates);
  }
}

OrPartDone<ModifiedSweepResult> run_modified_sweep(const ModifiedSweepOptions& options, const JobRunner& runner) {
  options.validate();
  std::vector<ModifiedSweepRbm> rbms;
  for (const int size : options.family.sizes)
    for (const int bound : options.family.weight_bounds)
      for (int index = 0; index < options.family.rbms_per_setting; ++index)
        rbms.push_back({size, bound, index, {}, {}});
  std::vector<std::pair<std::size_t, int>> trials;
  for (std::size_t s = 0; s < options.trained.size(); ++s)
    for (int trial = 0; trial < options.trained[s].trials; ++trial) trials.emplace_back(s, trial);
  ModifiedSweepResult result;
  auto analysed =
      run_jobs(runner, JobPhase{0}, rbms.size(), [&](std::size_t k) { return analyse_random_rbm(options, rbms[k]); });
  if (!analysed) return analysed.part_done();
  result.rbms = std::move(analysed).value();
  auto trained = run_jobs(runner, JobPhase{1}, trials.size(), [&](std::size_t k, const JobProgress& progress) {
    return run_trained_trial(options, trials[k].first, trials[k].second, progress);
  });
  if (!trained) return trained.part_done();
  result.trained = std::move(trained).value();
  return result;
}
std::vector<ExperimentOption> ModifiedSweep::own_options() {
  return {{"--sizes",
           "m = n values of the random RBMs, e.g. 2,3,4; above 5 the matrix-free route (slow) (default: "
           "paper 2,3,4; smoke 2,3)"},
          {"--c", "weight bounds, A:B or A,B,C (default 1:10)"},
          {"--count", "random RBMs per (size, c) (default: paper 100; smoke 3)"},
          {"--gammas", "γ values on the random RBMs, e.g. 0,0.5,1"},
          {"--trained-gammas", "γ values on the trained RBMs"},
          {"--alpha", "α of the mixture T^α (default 0.5)"},
          {"--trials", "trained RBMs per setting; 0 skips them (default: paper 10; smoke 1)"},
          {"--updates", "training updates (default: paper 20000; smoke 100)"},
          {"--steps", "sampled sweeps per trained RBM and operator"}};
}

ModifiedSweepOptions ModifiedSweep::make_options(const ExperimentInputs& inputs) {
  ModifiedSweepOptions options = modified_sweep_options(inputs.scale, inputs.seed, inputs.mnist);
  read_family_options(inputs, options.family);
  if (const auto shifts = inputs.numbers("--gammas")) options.shifts = *shifts;
  if (const auto shifts = inputs.numbers("--trained-gammas")) options.trained_shifts = *shifts;
  if (const auto alpha = inputs.number("--alpha")) options.mixture_weight = *alpha;
  const auto trials = inputs.integer("--trials", 0);
  if (trials == 0) options.trained.clear();
  const auto updates = inputs.integer("--updates", 1);
  const auto steps = inputs.integer("--steps", 2);
  for (auto& setting : options.trained) {
    if (trials) setting.trials = static_cast<int>(*trials);
    if (updates) setting.updates = *updates;
    if (steps) setting.steps = *steps;
  }
  options.validate();
  return options;
}

nlohmann::json ModifiedSweep::configuration(const ModifiedSweepOptions& options) { return to_json(options); }

OrPartDone<ModifiedSweepResult> ModifiedSweep::run(const ModifiedSweepOptions& options, const JobRunner& runner,
                                                   std::ostream& log) {
  if (!options.mnist_skipped.empty() && !options.trained.empty()) log << options.mnist_skipped << '\n';
  return run_modified_sweep(options, runner);
}

}  // namespace rbmix::experiments
