#include "rbmix/experiments/pcd_study_experiment.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/data/patches.hpp"
#include "rbmix/data/split.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/experiments/exact_number.hpp"
#include "rbmix/experiments/pcd_study_data.hpp"
#include "rbmix/experiments/sample_statistics.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/trial_seed.hpp"
#include "rbmix/model/boltzmann_machine_enumeration.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/training/boltzmann_machine_trainer.hpp"
#include "rbmix/training/trainer.hpp"
#include "rbmix/training/training_monitor.hpp"

namespace rbmix::experiments {
namespace {

bool lower_is_better(PcdStudyPart part) { return part == PcdStudyPart::classification; }

int hidden_units(const PcdStudyOptions& options, PcdStudyPart part) {
  switch (part) {
    case PcdStudyPart::exact:
      return options.exact_hidden;
    case PcdStudyPart::ais:
      return options.ais_hidden;
    default:
      return options.classification_hidden;
  }
}

// One RBM training run, evaluated on validation and test at `options.evaluations` evenly spaced points.
struct RbmRun {
  PcdStudyPart part;
  std::size_t algorithm;
  std::size_t rule;
  std::size_t rate;
  int trial;
};

// One training run's learning curve; for the ais part tracked along training, also the AIS check of its final model
// and the monitor's seconds. The job grid journals it (job_runner.hpp: GridSerializable), every double exactly.
struct RunResult {
  std::vector<PcdStudyPoint> points;
  double best_test = 0.0;  // MRF: the test score of the best model
  double final_ais_test = std::numeric_limits<double>::quiet_NaN();
  double monitor_seconds = 0.0;
};

RunResult run_rbm(const PcdStudyOptions& options, const RbmData& data, const MatrixD& train,
                  const MatrixD& validation_rows, const MatrixD& test_rows, const RbmRun& run,
                  const JobProgress& progress) {
  const PcdStudyAlgorithm& algorithm = options.algorithms[run.algorithm];
  TrainingOptions training;
  apply_algorithm(training, algorithm.algorithm);
  training.sampling_steps = algorithm.sweeps;
  if (algorithm.algorithm != Algorithm::mfcd) training.rule = options.rules[run.rule];
  training.learning_rate = options.learning_rates[run.rate];
  training.schedule = LearningRateSchedule::linear_decay;  // 000 §4.5
  training.batch_size = static_cast<int>(options.batch_size);
  training.updates = options.updates;
  training.evaluation_interval = 0;
  training.resample_binarisation = data.grey;
  training.label_classes = run.part == PcdStudyPart::classification ? data.classes : 0;
  training.sample_in_float = options.sample_in_float;
  training.seed = trial_seed(options.seed, static_cast<std::uint64_t>(run.trial));
  const bool tracked = run.part == PcdStudyPart::ais && options.likelihood == PcdStudyLikelihood::trajectory;
  if (tracked) training.monitor.kind = MonitorKind::trajectory;
  Trainer trainer(training, train, {}, hidden_units(options, run.part));

  AisOptions ais;
  ais.particles = options.ais_particles;
  ais.distributions = options.ais_distributions;
  ais.base_visible_bias = base_rate_visible_bias(validation_rows);
  const auto evaluate = [&](std::int64_t update, double seconds) {
    PcdStudyPoint point{update, seconds, 0.0, 0.0};
    const Rbm rbm = trainer.model();
    if (run.part == PcdStudyPart::classification) {
      const ClassificationRbm classifier{rbm, data.classes};
      point.validation = classification_error(classifier, data.validation, data.validation_labels);
      point.test = classification_error(classifier, data.test, data.test_labels);
    } else if (run.part == PcdStudyPart::exact) {
      const double log_partition = exact_log_partition(rbm);
      point.validation = exact_average_log_likelihood(rbm, validation_rows, log_partition);
      point.test = exact_average_log_likelihood(rbm, test_rows, log_partition);
    } else if (tracked) {
      // The monitor scores any rows by its tracked log Z: the validation rows stand where a run's training rows do.
      EvaluationPoint scored;
      scored.update = update;
      trainer.monitor().evaluate_likelihood(rbm, validation_rows, test_rows, scored);
      point.validation = scored.train_log_likelihood.value();
      point.test = scored.test_log_likelihood.value();
    } else {
      ais.seed = training.seed + static_cast<std::uint64_t>(update);
      const AisResult estimate = ais_log_partition(rbm, ais);
      point.validation = ais_average_log_likelihood(rbm, validation_rows, estimate).value;
      point.test = ais_average_log_likelihood(rbm, test_rows, estimate).value;
    }
    return point;
  };
  RunResult result;
  std::vector<PcdStudyPoint>& points = result.points;
  points.push_back(evaluate(0, 0.0));
  const auto report_progress = progress.training(options.updates);
  double seconds = 0.0;
  bool diverged = false;
  for (int evaluation = 1; evaluation <= options.evaluations; ++evaluation) {
    const std::int64_t target = options.updates * evaluation / options.evaluations;
    const double monitor_seconds = trainer.monitor().following_seconds();
    const auto start = std::chrono::steady_clock::now();
    while (trainer.updates_done() < target) {
      trainer.step();
      report_progress(trainer.updates_done());
    }
    // Update time alone: the trajectory monitor's annealing inside step() is the monitor's cost, reported apart.
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() -
               (trainer.monitor().following_seconds() - monitor_seconds);
    const Rbm& parameters = trainer.parameters().parameters;
    if (!parameters.weights.allFinite() || !parameters.visible_bias.allFinite()) {
      // A diverged run keeps its last scores: its parameters are no model any more.
      PcdStudyPoint last = points.back();
      last.update = target;
      last.seconds = seconds;
      points.push_back(last);
      diverged = true;
      continue;
    }
    progress.stage("evaluation");
    points.push_back(evaluate(target, seconds));
    progress.stage("training");
  }
  result.monitor_seconds = trainer.monitor().following_seconds();
  if (tracked && !diverged) {
    // Where the tracked curve ends, checked by an estimator that shares nothing with it but the model.
    progress.stage("AIS check of the final model");
    ais.seed = training.seed + static_cast<std::uint64_t>(options.updates);
    const Rbm rbm = trainer.model();
    result.final_ais_test = ais_average_log_likelihood(rbm, test_rows, ais_log_partition(rbm, ais)).value;
  }
  return result;
}

nlohmann::json to_grid_json(const RunResult& run) {
  nlohmann::json points = nlohmann::json::array();
  for (const PcdStudyPoint& point : run.points)
    points.push_back({point.update, exact_number(point.seconds), exact_number(point.validation),
                      exact_number(point.test)});
  return {{"points", points},
          {"best_test", exact_number(run.best_test)},
          {"final_ais_test", exact_number(run.final_ais_test)},
          {"monitor_seconds", exact_number(run.monitor_seconds)}};
}

void from_grid_json(const nlohmann::json& json, RunResult& run) {
  const JournaledValue journaled(json);
  run.points.clear();
  // A point's scores are classification errors or log-likelihoods (−∞ where the model diverged); the MRF's runs
  // score only their best model on the test rows, so their points' test scores are NaN.
  for (const JournaledValue& point : journaled["points"].elements())
    run.points.push_back({point.element(0).integer<std::int64_t>(0), point.element(1).at_least(0.0),
                          point.element(2).log_likelihood(),
                          point.element(3).log_likelihood(JournaledValue::Missing::allowed)});
  run.best_test = journaled["best_test"].log_likelihood();
  run.final_ais_test = journaled["final_ais_test"].log_likelihood(JournaledValue::Missing::allowed);
  run.monitor_seconds = journaled["monitor_seconds"].at_least(0.0);
}

// The curve of the learning rate with the best mean final validation score among `by_rate` (runs per rate, each a
// list of points).
PcdStudyCurve choose_rate(PcdStudyPart part, const std::string& algorithm, const std::string& rule,
                          const std::vector<double>& rates,
                          const std::vector<std::vector<std::vector<PcdStudyPoint>>>& by_rate,
                          const std::vector<std::vector<double>>& best_tests) {
  std::size_t chosen = 0;
  double chosen_score = 0.0;
  for (std::size_t rate = 0; rate < rates.size(); ++rate) {
    std::vector<double> finals;
    for (const auto& points : by_rate[rate]) finals.push_back(points.back().validation);
    const double score = mean(finals);
    const bool better = lower_is_better(part) ? score < chosen_score : score > chosen_score;
    if (rate == 0 || (std::isfinite(score) && better)) {
      chosen = rate;
      chosen_score = score;
    }
  }
  PcdStudyCurve curve;
  curve.part = part;
  curve.algorithm = algorithm;
  curve.rule = rule;
  curve.learning_rate = rates[chosen];
  const auto& runs = by_rate[chosen];
  curve.trials = static_cast<int>(runs.size());
  curve.mean.resize(runs.front().size());
  for (std::size_t k = 0; k < curve.mean.size(); ++k) {
    std::vector<double> seconds, validation, test;
    for (const auto& points : runs) {
      seconds.push_back(points[k].seconds);
      validation.push_back(points[k].validation);
      test.push_back(points[k].test);
    }
    curve.mean[k] = {runs.front()[k].update, mean(seconds), mean(validation), mean(test)};
  }
  std::vector<double> finals;
  for (const auto& points : runs) finals.push_back(points.back().test);
  curve.final_test_mean = mean(finals);
  curve.final_test_standard_deviation = standard_deviation(finals);
  curve.best_test_mean = best_tests.empty() ? curve.final_test_mean : mean(best_tests[chosen]);
  return curve;
}

// The RBM parts' curves into `result`; the PartDone its phase gave, if any.
std::optional<PartDone> run_rbm_parts(const PcdStudyOptions& options, const JobRunner& runner, JobPhase phase,
                                      PcdStudyResult& result) {
  std::vector<PcdStudyPart> parts;
  for (PcdStudyPart part : options.parts)
    if (part != PcdStudyPart::mrf) parts.push_back(part);
  if (parts.empty()) return std::nullopt;
  const RbmData data = load_rbm_data(options.seed, options.mnist, options.training_rows, options.evaluation_rows);
  const MatrixD labelled_train = append_one_hot_labels(data.train, data.train_labels, data.classes, "training labels");
  std::vector<RbmRun> runs;
  for (PcdStudyPart part : parts)
    for (std::size_t algorithm = 0; algorithm < options.algorithms.size(); ++algorithm)
      for (std::size_t rule = 0; rule < options.rules.size(); ++rule) {
        // MF-CD samples nothing: one operator is enough.
        if (options.algorithms[algorithm].algorithm == Algorithm::mfcd && rule > 0) continue;
        for (std::size_t rate = 0; rate < options.learning_rates.size(); ++rate)
          for (int trial = 0; trial < options.trials; ++trial) runs.push_back({part, algorithm, rule, rate, trial});
      }
  const auto outcomes = run_jobs(runner, phase, runs.size(), [&](std::size_t index, const JobProgress& progress) {
    const RbmRun& run = runs[index];
    const bool labelled = run.part == PcdStudyPart::classification;
    return run_rbm(options, data, labelled ? labelled_train : data.train, data.validation, data.test, run, progress);
  });
  if (!outcomes) return outcomes.part_done();
  const std::size_t per_curve = options.learning_rates.size() * static_cast<std::size_t>(options.trials);
  for (std::size_t first = 0; first < runs.size(); first += per_curve) {
    const RbmRun& run = runs[first];
    std::vector<std::vector<std::vector<PcdStudyPoint>>> by_rate(options.learning_rates.size());
    for (std::size_t k = first; k < first + per_curve; ++k) by_rate[runs[k].rate].push_back(outcomes.value()[k].points);
    const PcdStudyAlgorithm& algorithm = options.algorithms[run.algorithm];
    const std::string rule = algorithm.algorithm == Algorithm::mfcd ? "" : to_string(options.rules[run.rule]);
    PcdStudyCurve curve = choose_rate(run.part, algorithm.label, rule, options.learning_rates, by_rate, {});
    std::vector<double> final_ais_tests, monitor_seconds;
    for (std::size_t k = first; k < first + per_curve; ++k) {
      if (options.learning_rates[runs[k].rate] != curve.learning_rate) continue;
      final_ais_tests.push_back(outcomes.value()[k].final_ais_test);
      monitor_seconds.push_back(outcomes.value()[k].monitor_seconds);
    }
    curve.final_ais_test_mean = mean(final_ais_tests);
    curve.monitor_seconds = mean(monitor_seconds);
    result.curves.push_back(std::move(curve));
  }
  return std::nullopt;
}

// The MRF part's curves into `result`; the PartDone its phase gave, if any.
std::optional<PartDone> run_mrf_part(const PcdStudyOptions& options, const JobRunner& runner, JobPhase phase,
                                     PcdStudyResult& result) {
  if (std::find(options.parts.begin(), options.parts.end(), PcdStudyPart::mrf) == options.parts.end())
    return std::nullopt;
  const MrfData data = load_mrf_data(options.seed, options.mnist, options.patches, options.patch_side);
  result.mrf_training_entropy = -best_average_log_likelihood(data.train);
  struct Setting {
    std::string label;
    BoltzmannMachineAlgorithm algorithm;
    std::string rule;
  };
  std::vector<Setting> settings{{"exact", BoltzmannMachineAlgorithm::exact_gradient, ""},
                                {"PL", BoltzmannMachineAlgorithm::pseudo_likelihood, ""}};
  for (const UnitRule& rule : options.rules)
    settings.push_back({"PCD", BoltzmannMachineAlgorithm::persistent_chains, to_string(rule)});
  struct MrfRun {
    std::size_t setting, rate;
    int trial;
  };
  std::vector<MrfRun> runs;
  for (std::size_t setting = 0; setting < settings.size(); ++setting)
    for (std::size_t rate = 0; rate < options.mrf_learning_rates.size(); ++rate)
      for (int trial = 0; trial < options.trials; ++trial) runs.push_back({setting, rate, trial});
  const auto outcomes = run_jobs(runner, phase, runs.size(), [&](std::size_t index) {
    const MrfRun& run = runs[index];
    BoltzmannMachineTrainingOptions training;
    training.algorithm = settings[run.setting].algorithm;
    if (!settings[run.setting].rule.empty()) {
      training.rule = parse_unit_rule(settings[run.setting].rule);
      training.chains = options.batch_size;  // 000: as many chains as the batch
    }
    training.learning_rate = options.mrf_learning_rates[run.rate];
    training.updates = options.mrf_updates;
    training.evaluation_interval = std::max<std::int64_t>(1, options.mrf_updates / options.evaluations);
    training.seed = trial_seed(options.seed, static_cast<std::uint64_t>(run.trial));
    const BoltzmannMachineTrainingSummary summary = train_boltzmann_machine(data.train, data.validation, training);
    RunResult out;
    // The trainer keeps the validation LL of every evaluation but only the best and the final model: the test LL
    // is known for those two (NaN at the other points).
    for (const auto& evaluation : summary.history)
      out.points.push_back({evaluation.update, evaluation.training_seconds, evaluation.validation_score,
                            std::numeric_limits<double>::quiet_NaN()});
    out.points.back().test =
        mean_log_likelihood(summary.final_model, data.test, exact_log_partition(summary.final_model));
    out.best_test = mean_log_likelihood(summary.best_model, data.test, exact_log_partition(summary.best_model));
    return out;
  });
  if (!outcomes) return outcomes.part_done();
  const std::size_t per_curve = options.mrf_learning_rates.size() * static_cast<std::size_t>(options.trials);
  for (std::size_t setting = 0; setting < settings.size(); ++setting) {
    std::vector<std::vector<std::vector<PcdStudyPoint>>> by_rate(options.mrf_learning_rates.size());
    std::vector<std::vector<double>> best_tests(options.mrf_learning_rates.size());
    for (std::size_t k = setting * per_curve; k < (setting + 1) * per_curve; ++k) {
      by_rate[runs[k].rate].push_back(outcomes.value()[k].points);
      best_tests[runs[k].rate].push_back(outcomes.value()[k].best_test);
    }
    result.curves.push_back(choose_rate(PcdStudyPart::mrf, settings[setting].label, settings[setting].rule,
                                        options.mrf_learning_rates, by_rate, best_tests));
  }
  return std::nullopt;
}

}  // namespace

std::string to_string(PcdStudyPart part) {
  switch (part) {
    case PcdStudyPart::exact:
      return "exact";
    case PcdStudyPart::ais:
      return "ais";
    case PcdStudyPart::classification:
      return "classification";
    case PcdStudyPart::mrf:
      return "mrf";
  }
  return "unknown";
}

std::string to_string(PcdStudyLikelihood likelihood) {
  return likelihood == PcdStudyLikelihood::trajectory ? "trajectory" : "ais";
}

PcdStudyLikelihood parse_pcd_study_likelihood(const std::string& text) {
  for (PcdStudyLikelihood likelihood : {PcdStudyLikelihood::trajectory, PcdStudyLikelihood::ais})
    if (to_string(likelihood) == text) return likelihood;
  throw InputError("--likelihood: unknown estimator '" + text + "' (expected trajectory or ais)");
}

PcdStudyPart parse_pcd_study_part(const std::string& text) {
  for (PcdStudyPart part : {PcdStudyPart::exact, PcdStudyPart::ais, PcdStudyPart::classification, PcdStudyPart::mrf})
    if (to_string(part) == text) return part;
  throw InputError("--parts: unknown part '" + text + "' (expected exact, ais, classification or mrf)");
}

void PcdStudyOptions::validate() const {
  require(!parts.empty(), "--parts: no part to run");
  require(!algorithms.empty() && !rules.empty(), "pcd-study: no algorithms or no operators");
  for (double rate : learning_rates)
    require(rate > 0.0 && std::isfinite(rate), "pcd-study: learning rates must be positive");
  for (double rate : mrf_learning_rates)
    require(rate > 0.0 && std::isfinite(rate), "pcd-study: MRF learning rates must be positive");
  require(!learning_rates.empty() && !mrf_learning_rates.empty(), "pcd-study: no learning rates");
  require(exact_hidden > 0 && exact_hidden <= 30, "pcd-study: the exact part needs 1 … 30 hidden units");
  require(ais_hidden > 0 && classification_hidden > 0, "pcd-study: hidden units must be positive");
  require(batch_size > 0 && batch_size <= training_rows, "pcd-study: the batch must fit in the training rows");
  require(updates > 0, "--updates: the number of updates must be positive");
  require(mrf_updates > 0, "--mrf-updates: the number of MRF updates must be positive");
  require(evaluations > 0, "pcd-study: the number of evaluations must be positive");
  require(trials > 0, "--trials: the number of trials must be positive");
  require(ais_particles > 0 && ais_distributions > 0, "pcd-study: AIS needs particles and distributions");
  require(training_rows > 0 && evaluation_rows > 0, "pcd-study: the data sets need rows");
  require(patches >= 10, "--patches: at least 10 patches");
  require(patch_side >= 1 && patch_side * patch_side <= 30, "--patch-side: the MRF has side² units, 1 … 30");
}

PcdStudyOptions pcd_study_options(Scale scale, std::uint64_t seed) {
  PcdStudyOptions options;
  options.seed = seed;
  if (scale == Scale::smoke) {
    options.exact_hidden = 8;
    options.ais_hidden = 16;
    options.classification_hidden = 16;
    options.batch_size = 20;
    options.updates = 300;
    options.evaluations = 3;
    options.trials = 2;
    options.learning_rates = {0.05, 0.1};
    options.ais_particles = 20;
    options.ais_distributions = 200;
    options.training_rows = 400;
    options.evaluation_rows = 200;
    options.patches = 1000;
    options.mrf_learning_rates = {0.05, 0.2};
    options.mrf_updates = 400;
    options.patch_side = 3;
  }
  return options;
}

nlohmann::json to_json(const PcdStudyOptions& options) {
  nlohmann::json algorithms = nlohmann::json::array();
  for (const auto& algorithm : options.algorithms) algorithms.push_back(algorithm.label);
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& rule : options.rules) rules.push_back(to_string(rule));
  nlohmann::json parts = nlohmann::json::array();
  for (PcdStudyPart part : options.parts) parts.push_back(to_string(part));
  return {{"source", "000 §5 (Figs. 1-3, §5.5)"},
          {"data", options.mnist.empty() ? "Artificial Modes 4x4, p_mut 0.05 (synthetic)" : "MNIST"},
          {"parts", parts},
          {"algorithms", algorithms},
          {"operators", rules},
          {"learning_rates", options.learning_rates},
          {"learning_rate_schedule", "linear decay to 0 (000 §4.5)"},
          {"exact_hidden", options.exact_hidden},
          {"ais_hidden", options.ais_hidden},
          {"classification_hidden", options.classification_hidden},
          {"batch_size", options.batch_size},
          {"updates", options.updates},
          {"evaluations", options.evaluations},
          {"trials", options.trials},
          {"likelihood", to_string(options.likelihood)},
          {"sample_in_float", options.sample_in_float},
          {"ais_particles", options.ais_particles},
          {"ais_distributions", options.ais_distributions},
          {"training_rows", options.training_rows},
          {"evaluation_rows", options.evaluation_rows},
          {"patches", options.patches},
          {"patch_side", options.patch_side},
          {"mrf_learning_rates", options.mrf_learning_rates},
          {"mrf_updates", options.mrf_updates},
          {"learning_rate_choice", "best mean final validation score over the trials of each rate"},
          {"seconds", "update time, wall clock: not reproducible"}};
}

OrPartDone<PcdStudyResult> run_pcd_study(const PcdStudyOptions& options, const JobRunner& runner) {
  options.validate();
  PcdStudyResult result;
  // The RBM parts' runs are the grid's first phase where there are any, the MRF's runs the next.
  const bool rbm_parts = std::any_of(options.parts.begin(), options.parts.end(),
                                     [](PcdStudyPart part) { return part != PcdStudyPart::mrf; });
  if (const auto part_done = run_rbm_parts(options, runner, JobPhase{0}, result)) return *part_done;
  if (const auto part_done = run_mrf_part(options, runner, JobPhase{rbm_parts ? 1u : 0u}, result)) return *part_done;
  return result;
}

std::vector<ExperimentOption> PcdStudy::own_options() {
  return {{"--parts", "parts to run: exact,ais,classification,mrf (default: all)"},
          {"--trials", "override the trials per learning rate"},
          {"--updates", "override the updates of the RBM runs"},
          {"--mrf-updates", "override the updates of the MRF runs"},
          {"--learning-rates", "override the RBM learning rates, e.g. 0.01,0.03"},
          {"--mrf-learning-rates", "override the MRF learning rates"},
          {"--training-rows", "override the training rows"},
          {"--evaluation-rows", "override the validation and test rows each"},
          {"--patches", "override the number of MRF patches"},
          {"--patch-side", "override the side of the MNIST patches of the MRF part (paper 5, smoke 3)"},
          {"--hidden", "override the hidden units: exact,ais,classification"},
          {"--evaluations", "override the evaluation points after update 0 (paper 5, smoke 3)"},
          {"--likelihood", "how the ais part scores its large RBM: trajectory (log Z tracked along training, the final "
                           "model checked by AIS; default) or ais (AIS at every evaluation)"},
          {"--precision", "double (default) or float: the RBM updates' and the trajectory monitor's precision"},
          {"--ais-distributions", "override the AIS distributions K"}};
}

PcdStudyOptions PcdStudy::make_options(const ExperimentInputs& inputs) {
  PcdStudyOptions options = pcd_study_options(inputs.scale, inputs.seed);
  options.mnist = inputs.mnist;
  if (inputs.scale == Scale::smoke && !options.mnist.empty()) {
    // Smoke scale runs in seconds on any MNIST-style directory, also a tiny one: at most the smoke rows, a third of
    // the training images held out at most, and the batch no larger than the training rows (all in run.json).
    const Eigen::Index train_images = load_mnist(options.mnist, MnistPart::train).images.pixels.rows();
    const Eigen::Index test_images = load_mnist(options.mnist, MnistPart::test).images.pixels.rows();
    options.evaluation_rows = std::max<Eigen::Index>(1, std::min({options.evaluation_rows, test_images,
                                                                  train_images / 3}));
    options.training_rows = std::max<Eigen::Index>(1, std::min(options.training_rows,
                                                               train_images - options.evaluation_rows));
    options.batch_size = std::min(options.batch_size, options.training_rows);
  }
  require(inputs.scale == Scale::smoke || !options.mnist.empty(),
          "--scale paper: pcd-study runs 000's MNIST setting; give the MNIST directory with --mnist DIR");
  if (const auto parts = inputs.words("--parts")) {
    options.parts.clear();
    for (const auto& part : *parts) options.parts.push_back(parse_pcd_study_part(part));
  }
  if (const auto trials = inputs.integer("--trials", 1)) options.trials = static_cast<int>(*trials);
  if (const auto updates = inputs.integer("--updates", 1)) options.updates = *updates;
  if (const auto updates = inputs.integer("--mrf-updates", 1)) options.mrf_updates = *updates;
  if (const auto rates = inputs.positive_numbers("--learning-rates")) options.learning_rates = *rates;
  if (const auto rates = inputs.positive_numbers("--mrf-learning-rates")) options.mrf_learning_rates = *rates;
  if (const auto rows = inputs.integer("--training-rows", 1)) options.training_rows = *rows;
  if (const auto rows = inputs.integer("--evaluation-rows", 1)) options.evaluation_rows = *rows;
  if (const auto patches = inputs.integer("--patches", 1)) options.patches = *patches;
  if (const auto side = inputs.integer("--patch-side", 1)) options.patch_side = *side;
  if (const auto count = inputs.integer("--ais-distributions", 1)) options.ais_distributions = *count;
  if (const auto count = inputs.integer("--evaluations", 1)) options.evaluations = static_cast<int>(*count);
  if (const auto words = inputs.words("--likelihood")) {
    require(words->size() == 1, "--likelihood: give one estimator: trajectory or ais");
    options.likelihood = parse_pcd_study_likelihood(words->front());
  }
  if (const auto words = inputs.words("--precision")) {
    require(words->size() == 1 && (words->front() == "double" || words->front() == "float"),
            "--precision: give double or float");
    options.sample_in_float = words->front() == "float";
  }
  if (const auto hidden = inputs.integers("--hidden", 1)) {
    require(hidden->size() == 3, "--hidden: give three counts: exact,ais,classification");
    options.exact_hidden = static_cast<int>((*hidden)[0]);
    options.ais_hidden = static_cast<int>((*hidden)[1]);
    options.classification_hidden = static_cast<int>((*hidden)[2]);
  }
  options.validate();
  return options;
}

nlohmann::json PcdStudy::configuration(const PcdStudyOptions& options) { return to_json(options); }

OrPartDone<PcdStudyResult> PcdStudy::run(const PcdStudyOptions& options, const JobRunner& runner, std::ostream& log) {
  log << "pcd-study (000 §5): " << (options.mnist.empty() ? "synthetic Artificial Modes" : "MNIST") << ", "
      << options.updates << " updates, " << options.trials << " trials per learning rate\n";
  return run_pcd_study(options, runner);
}

}  // namespace rbmix::experiments
