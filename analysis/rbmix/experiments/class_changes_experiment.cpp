#include "rbmix/experiments/class_changes_experiment.hpp"

#include <algorithm>
#include <cmath>

#include "rbmix/analysis/class_changes.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/trial_seed.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/training/parameter_initialisation.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::experiments {

void ClassChangesOptions::validate() const {
  require(!mutation_probabilities.empty(), "class-changes: no mutation probabilities");
  require(training_samples > 0, "class-changes: the number of training samples must be positive");
  require(trials > 0, "--trials must be positive");
  require(updates > 0, "--updates must be positive");
  require(learning_rate > 0.0 && std::isfinite(learning_rate), "--lr must be positive");
  require(sequence_steps >= 1 && starts >= 1, "--steps and --starts must be positive");
  require(first_change_cap >= 1, "--cap must be positive");
}

ClassChangesOptions class_changes_options(Scale scale, std::uint64_t seed) {
  ClassChangesOptions options;
  if (scale == Scale::smoke) {
    options.trials = 3;
    options.updates = 1000;
    options.first_change_cap = 10000;
    options.initialisation = {};
  }
  options.seed = seed;
  return options;
}

nlohmann::json to_json(const ClassChangesOptions& options) {
  return {{"source", "003 Tables 3-4"},
          {"mutation_probabilities", options.mutation_probabilities},
          {"training", "CD-5 (Gibbs), 16 hidden, batch 100"},
          {"initialisation", to_string(options.initialisation)},
          {"training_samples", options.training_samples},
          {"learning_rate", options.learning_rate},
          {"updates", options.updates},
          {"trials", options.trials},
          {"sequence_steps", options.sequence_steps},
          {"starts", options.starts},
          {"first_change_cap", options.first_change_cap},
          {"job_seed",
           "training trial_seed(seed, job); data, chains and start rows purpose_seed(seed, job, purpose); job = 1000 * "
           "setting index + trial"},
          {"ambiguous_samples", "discarded: the class sequence skips samples equally close to two or more modes"}};
}

namespace {

long long changes_from_all_ones(const Rbm& rbm, const UnitRule& rule, const MatrixD& modes, Eigen::Index steps,
                                std::uint64_t seed) {
  BatchedChains<double> chain(1, rbm.n_visible(), rbm.n_hidden(), seed);
  chain.set_visible(MatrixD::Ones(1, rbm.n_visible()));
  analysis::ClassChangeTracker tracker;
  tracker.observe(analysis::nearest_mode_classes(chain.visible(), modes)[0]);
  for (Eigen::Index step = 0; step < steps; ++step) {
    chain.sweep(rbm, rule);
    tracker.observe(analysis::nearest_mode_classes(chain.visible(), modes)[0]);
  }
  return static_cast<long long>(tracker.changes());
}

void first_changes_from_data(const Rbm& rbm, const UnitRule& rule, const MatrixD& modes, const MatrixD& data,
                             Eigen::Index starts, Eigen::Index cap, std::uint64_t pick_seed, std::uint64_t seed,
                             OperatorClassChanges& counts) {
  RandomStream picker(pick_seed, 0, StreamDomain::experiment);
  MatrixD start(starts, data.cols());
  for (Eigen::Index row = 0; row < starts; ++row)
    start.row(row) = data.row(static_cast<Eigen::Index>(picker.below(static_cast<std::uint64_t>(data.rows()))));
  BatchedChains<double> chains(starts, rbm.n_visible(), rbm.n_hidden(), seed);
  chains.set_visible(start);
  std::vector<analysis::ClassChangeTracker> trackers(static_cast<std::size_t>(starts));
  std::vector<int> classes = analysis::nearest_mode_classes(chains.visible(), modes);
  for (Eigen::Index row = 0; row < starts; ++row)
    trackers[static_cast<std::size_t>(row)].observe(classes[static_cast<std::size_t>(row)]);
  for (Eigen::Index step = 1; step <= cap; ++step) {
    chains.sweep(rbm, rule);
    classes = analysis::nearest_mode_classes(chains.visible(), modes);
    bool all_changed = true;
    for (Eigen::Index row = 0; row < starts; ++row) {
      auto& tracker = trackers[static_cast<std::size_t>(row)];
      tracker.observe(classes[static_cast<std::size_t>(row)]);
      all_changed = all_changed && tracker.first_change().has_value();
    }
    if (all_changed) break;
  }
  for (const auto& tracker : trackers) {
    if (tracker.first_change()) {
      counts.first_changes.push_back(static_cast<long long>(*tracker.first_change()));
    } else {
      counts.first_changes.push_back(static_cast<long long>(cap));
      ++counts.censored;
    }
  }
}

ClassChangesTrial run_trial(const ClassChangesOptions& options, std::size_t setting, int trial,
                            const JobProgress& progress) {
  ClassChangesTrial result;
  result.setting = setting;
  result.trial = trial;
  // One seed per purpose (trial_seed.hpp): the data, the training, Table 3's chain, Table 4's starts and chains.
  const std::uint64_t job = 1000 * setting + static_cast<std::uint64_t>(trial);
  const std::uint64_t seed = trial_seed(options.seed, job);
  const MatrixD data = to_real(artificial_modes(options.mutation_probabilities[setting], options.training_samples,
                                                purpose_seed(options.seed, job, SeedPurpose::data))
                                   .samples);
  const MatrixD modes = to_real(artificial_modes_basic_modes());
  TrainingOptions training;
  training.negative_phase = NegativePhaseKind::contrastive_divergence;
  training.sampling_steps = 5;
  training.learning_rate = options.learning_rate;
  training.batch_size = 100;
  training.updates = options.updates;
  training.evaluation_interval = 0;
  training.seed = seed;
  apply(options.initialisation, training);
  Trainer trainer(training, data, MatrixD(0, data.cols()), 16);
  TrainingHooks hooks;
  hooks.on_update = progress.training(training.updates);
  trainer.run(hooks);
  const Rbm rbm = trainer.model();
  const std::array<UnitRule, 2> rules{GibbsRule{}, FlipTheStateRule{}};
  for (std::size_t r = 0; r < rules.size(); ++r) {
    result.counts[r].changes = changes_from_all_ones(rbm, rules[r], modes, options.sequence_steps,
                                                     purpose_seed(options.seed, job, SeedPurpose::sampling));
    first_changes_from_data(rbm, rules[r], modes, data, options.starts, options.first_change_cap,
                            purpose_seed(options.seed, job, SeedPurpose::start_selection),
                            purpose_seed(options.seed, job, SeedPurpose::second_sampling), result.counts[r]);
  }
  return result;
}

const std::array<std::string, 2> operator_names{"G", "T"};

}  // namespace

nlohmann::json to_grid_json(const ClassChangesTrial& trial) {
  nlohmann::json counts = nlohmann::json::array();
  for (const auto& count : trial.counts)
    counts.push_back(
        {{"changes", count.changes}, {"first_changes", count.first_changes}, {"censored", count.censored}});
  return {{"setting", trial.setting}, {"trial", trial.trial}, {"counts", counts}};
}

void from_grid_json(const nlohmann::json& json, ClassChangesTrial& trial) {
  const JournaledValue journaled(json);
  trial.setting = journaled["setting"].integer<std::size_t>(0);
  trial.trial = journaled["trial"].integer<int>(0);
  for (std::size_t r = 0; r < trial.counts.size(); ++r) {
    const JournaledValue count = journaled["counts"].element(r);
    trial.counts[r].changes = count["changes"].integer<long long>(0);
    trial.counts[r].first_changes.clear();
    for (const JournaledValue& first_change : count["first_changes"].elements())
      trial.counts[r].first_changes.push_back(first_change.integer<long long>(0));
    trial.counts[r].censored = count["censored"].integer<long long>(0);
    // A censored start counts its cap as its first change, so no more starts are censored than there are.
    count["censored"].require_that(
        trial.counts[r].censored <= static_cast<long long>(trial.counts[r].first_changes.size()),
        "more censored starts than starts");
  }
}

OrPartDone<ClassChangesResult> run_class_changes(const ClassChangesOptions& options, const JobRunner& runner) {
  options.validate();
  std::vector<std::pair<std::size_t, int>> jobs;
  for (std::size_t s = 0; s < options.mutation_probabilities.size(); ++s)
    for (int trial = 0; trial < options.trials; ++trial) jobs.emplace_back(s, trial);
  ClassChangesResult result;
  auto trials = run_jobs(runner, JobPhase{0}, jobs.size(), [&](std::size_t j, const JobProgress& progress) {
    return run_trial(options, jobs[j].first, jobs[j].second, progress);
  });
  if (!trials) return trials.part_done();
  result.trials = std::move(trials).value();
  return result;
}

double quantile(std::vector<long long> values, double q) {
  require(!values.empty(), "quantile of no values");
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return static_cast<double>(values[below]) * (1.0 - fraction) + static_cast<double>(values[above]) * fraction;
}

Table class_changes_table(const ClassChangesOptions& options, const ClassChangesResult& result) {
  Table table({"p_mut", "operator", "rbms", "q25", "median", "q75"});
  for (std::size_t s = 0; s < options.mutation_probabilities.size(); ++s)
    for (std::size_t r = 0; r < operator_names.size(); ++r) {
      std::vector<long long> changes;
      for (const ClassChangesTrial& trial : result.trials)
        if (trial.setting == s) changes.push_back(trial.counts[r].changes);
      table.add_row({options.mutation_probabilities[s], operator_names[r], static_cast<long long>(changes.size()),
                     quantile(changes, 0.25), quantile(changes, 0.5), quantile(changes, 0.75)});
    }
  return table;
}

Table first_class_change_table(const ClassChangesOptions& options, const ClassChangesResult& result) {
  Table table({"p_mut", "operator", "chains", "q25", "median", "q75", "censored_share", "cap"});
  for (std::size_t s = 0; s < options.mutation_probabilities.size(); ++s)
    for (std::size_t r = 0; r < operator_names.size(); ++r) {
      std::vector<long long> first_changes;
      long long censored = 0;
      for (const ClassChangesTrial& trial : result.trials) {
        if (trial.setting != s) continue;
        first_changes.insert(first_changes.end(), trial.counts[r].first_changes.begin(),
                             trial.counts[r].first_changes.end());
        censored += trial.counts[r].censored;
      }
      table.add_row({options.mutation_probabilities[s], operator_names[r], static_cast<long long>(first_changes.size()),
                     quantile(first_changes, 0.25), quantile(first_changes, 0.5), quantile(first_changes, 0.75),
                     static_cast<double>(censored) / static_cast<double>(first_changes.size()),
                     static_cast<long long>(options.first_change_cap)});
    }
  return table;
}

namespace {

// class_changes.csv (Table 3), first_class_change.csv (Table 4) and class_changes_trials.csv (per RBM).
void write_class_changes(const ClassChangesOptions& options, const ClassChangesResult& result, ResultDirectory& out) {
  Table per_trial({"p_mut", "trial", "operator", "class_changes", "median_first_change", "censored"});
  for (std::size_t s = 0; s < options.mutation_probabilities.size(); ++s)
    for (std::size_t r = 0; r < operator_names.size(); ++r)
      for (const ClassChangesTrial& trial : result.trials)
        if (trial.setting == s)
          per_trial.add_row({options.mutation_probabilities[s], static_cast<long long>(trial.trial), operator_names[r],
                             trial.counts[r].changes, quantile(trial.counts[r].first_changes, 0.5),
                             trial.counts[r].censored});
  out.write_csv("class_changes.csv", class_changes_table(options, result));
  out.write_csv("first_class_change.csv", first_class_change_table(options, result));
  out.write_csv("class_changes_trials.csv", per_trial);
}

}  // namespace

std::vector<ExperimentOption> ClassChanges::own_options() {
  return {{"--trials", "RBMs per p_mut (default: paper 25, smoke 3)"},
          {"--updates", "training updates (default: paper 20000, smoke 1000)"},
          {"--lr", "learning rate (default 0.05)"},
          {"--steps", "Table 3: sweeps from all ones (default 10000)"},
          {"--init",
           std::string(parameter_initialisation_help) + "; default: paper normal:0.01 (003 §4.2), smoke base-rate"},
          {"--starts", "Table 4: chains per RBM (default 1000)"},
          {"--cap", "Table 4: most sweeps waited for a change (default: paper 10^5, smoke 10^4)"}};
}

ClassChangesOptions ClassChanges::make_options(const ExperimentInputs& inputs) {
  ClassChangesOptions options = class_changes_options(inputs.scale, inputs.seed);
  const ClassChangesOptions defaults;  // --lr, --steps and --starts default to these at both scales
  options.learning_rate = inputs.positive_number("--lr").value_or(defaults.learning_rate);
  options.sequence_steps = inputs.integer("--steps", 1).value_or(defaults.sequence_steps);
  options.starts = inputs.integer("--starts", 1).value_or(defaults.starts);
  if (const auto trials = inputs.integer("--trials", 1)) options.trials = static_cast<int>(*trials);
  if (const auto updates = inputs.integer("--updates", 1)) options.updates = *updates;
  if (const auto cap = inputs.integer("--cap", 1)) options.first_change_cap = *cap;
  if (const auto initialisation = inputs.text("--init"))
    options.initialisation = parse_parameter_initialisation(*initialisation);
  options.validate();
  return options;
}

nlohmann::json ClassChanges::configuration(const ClassChangesOptions& options) { return to_json(options); }

OrPartDone<ClassChangesResult> ClassChanges::run(const ClassChangesOptions& options, const JobRunner& runner,
                                                 std::ostream& log) {
  log << "class-changes (003 Tables 3-4): " << options.trials << " RBMs per p_mut, " << options.updates
      << " CD-5 updates\n";
  return run_class_changes(options, runner);
}

ExperimentReport ClassChanges::report(const ClassChangesOptions& options, const ClassChangesResult& result,
                                      ResultDirectory& out, std::ostream& log) {
  write_class_changes(options, result, out);
  ExperimentReport report;
  log << "Table 3: class changes in " << options.sequence_steps << " sweeps from the all-ones state\n";
  report.tables.push_back({"class_changes", class_changes_table(options, result)});
  report.tables.back().table.print(log, 5);
  log << "Table 4: sweeps before the first class change from training samples\n";
  report.tables.push_back({"first_class_change", first_class_change_table(options, result)});
  report.tables.back().table.print(log, 5);
  return report;
}

}  // namespace rbmix::experiments
