// rbmix experiment class-changes: 003 Tables 3 and 4 (ALGORITHMS.md §8, T3/T4). RBMs with 16 hidden units are
// trained with CD-5 (Gibbs) on Artificial Modes (p_mut 0.01 and 0.1); then, for the Gibbs operator G and
// flip-the-state T (analysis/rbmix/analysis/class_changes.hpp defines classes and changes):
//   Table 3: one chain per RBM from the all-ones visible state, 10 000 sweeps: the number of class changes in
//            the sequence v_0 (the start), v_1, …, v_10000;
//   Table 4: 1000 chains per RBM started at training samples drawn uniformly (with replacement): the number of
//            sweeps until the first class change, where v_0 is the training sample; chains without a change
//            within the cap are censored and counted at the cap (their share is reported).
// Medians and quartiles are over all RBMs (Table 3) or all chains of all RBMs (Table 4). Every (p_mut, trial)
// job has its own seeds (seed + 1000·setting + trial) and runs in parallel with OpenMP.
// Writes class_changes.csv (Table 3), first_class_change.csv (Table 4), class_changes_trials.csv and
// class_changes.json.
#include "rbmix/analysis/class_changes.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/table.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::cli {
namespace {

struct ClassChangesArguments {
  std::string scale = "smoke";
  std::uint64_t seed = 1;
  std::string out;
  // 0: the scale's default (the options accept only positive values).
  int trials = 0;
  std::int64_t updates = 0;
  double learning_rate = 0.05;
  Eigen::Index sequence_steps = 10000;  // Table 3
  Eigen::Index starts = 1000;           // Table 4
  Eigen::Index first_change_cap = 0;    // Table 4: 0 means the scale's default
};

constexpr std::array<double, 2> mutation_probabilities{0.01, 0.1};
constexpr Eigen::Index training_samples = 1000;

struct OperatorCounts {
  long long changes = 0;                 // Table 3
  std::vector<long long> first_changes;  // Table 4, one per start; the cap when censored
  long long censored = 0;
};

struct JobResult {
  std::size_t setting = 0;
  int trial = 0;
  std::array<OperatorCounts, 2> counts;  // G, T
  std::string error;
};

const std::array<UnitRule, 2>& compared_rules() {
  static const std::array<UnitRule, 2> rules{GibbsRule{}, FlipTheStateRule{}};
  return rules;
}

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
                             Eigen::Index starts, Eigen::Index cap, std::uint64_t seed, OperatorCounts& counts) {
  RandomStream picker(seed, 0, StreamDomain::experiment);
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

JobResult run_job(std::size_t setting, int trial, const ClassChangesArguments& arguments, std::int64_t updates,
                  Eigen::Index cap) {
  JobResult result;
  result.setting = setting;
  result.trial = trial;
  const std::uint64_t seed = arguments.seed + 1000 * setting + static_cast<std::uint64_t>(trial);
  const MatrixD data = to_real(artificial_modes(mutation_probabilities[setting], training_samples, seed).samples);
  const MatrixD modes = to_real(artificial_modes_basic_modes());
  TrainingOptions options;
  options.negative_phase = NegativePhaseKind::contrastive_divergence;
  options.sampling_steps = 5;
  options.learning_rate = arguments.learning_rate;
  options.batch_size = 100;
  options.updates = updates;
  options.evaluation_interval = 0;
  options.seed = seed;
  Trainer trainer(options, data, MatrixD(0, data.cols()), 16);
  trainer.run();
  const Rbm rbm = trainer.model();
  for (std::size_t r = 0; r < compared_rules().size(); ++r) {
    result.counts[r].changes = changes_from_all_ones(rbm, compared_rules()[r], modes, arguments.sequence_steps, seed);
    first_changes_from_data(rbm, compared_rules()[r], modes, data, arguments.starts, cap, seed, result.counts[r]);
  }
  return result;
}

// The q-quantile of sorted values by linear interpolation (R's type 7).
double quantile(std::vector<long long> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return static_cast<double>(values[below]) * (1.0 - fraction) + static_cast<double>(values[above]) * fraction;
}

void run_class_changes(const ClassChangesArguments& arguments) {
  require(arguments.scale == "paper" || arguments.scale == "smoke", "--scale must be smoke or paper");
  require(arguments.sequence_steps >= 1 && arguments.starts >= 1, "--steps and --starts must be positive");
  const bool paper = arguments.scale == "paper";
  const int trials = arguments.trials > 0 ? arguments.trials : (paper ? 25 : 3);
  const std::int64_t updates = arguments.updates > 0 ? arguments.updates : (paper ? 20000 : 1000);
  const Eigen::Index cap = arguments.first_change_cap > 0 ? arguments.first_change_cap : (paper ? 100000 : 10000);
  const auto out = prepare_output_directory(arguments.out);

  std::vector<std::pair<std::size_t, int>> jobs;
  for (std::size_t s = 0; s < mutation_probabilities.size(); ++s)
    for (int trial = 0; trial < trials; ++trial) jobs.emplace_back(s, trial);
  std::vector<JobResult> results(jobs.size());
  const auto start = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic)
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    try {
      results[j] = run_job(jobs[j].first, jobs[j].second, arguments, updates, cap);
    } catch (const std::exception& error) {
      results[j].error = error.what();
    }
  }
  for (const JobResult& result : results) require(result.error.empty(), "class-changes: " + result.error);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const std::array<std::string, 2> operator_names{"G", "T"};
  Table per_trial({"p_mut", "trial", "operator", "class_changes", "median_first_change", "censored"});
  Table table3({"p_mut", "operator", "rbms", "q25", "median", "q75"});
  Table table4({"p_mut", "operator", "chains", "q25", "median", "q75", "censored_share", "cap"});
  for (std::size_t s = 0; s < mutation_probabilities.size(); ++s) {
    for (std::size_t r = 0; r < 2; ++r) {
      std::vector<long long> changes, first_changes;
      long long censored = 0;
      for (const JobResult& result : results) {
        if (result.setting != s) continue;
        const OperatorCounts& counts = result.counts[r];
        changes.push_back(counts.changes);
        first_changes.insert(first_changes.end(), counts.first_changes.begin(), counts.first_changes.end());
        censored += counts.censored;
        per_trial.add_row({mutation_probabilities[s], static_cast<long long>(result.trial), operator_names[r],
                           counts.changes, quantile(counts.first_changes, 0.5), counts.censored});
      }
      table3.add_row({mutation_probabilities[s], operator_names[r], static_cast<long long>(changes.size()),
                      quantile(changes, 0.25), quantile(changes, 0.5), quantile(changes, 0.75)});
      table4.add_row({mutation_probabilities[s], operator_names[r], static_cast<long long>(first_changes.size()),
                      quantile(first_changes, 0.25), quantile(first_changes, 0.5), quantile(first_changes, 0.75),
                      static_cast<double>(censored) / static_cast<double>(first_changes.size()),
                      static_cast<long long>(cap)});
    }
  }
  std::cout << "Table 3: class changes in " << arguments.sequence_steps << " sweeps from the all-ones state\n";
  table3.print(std::cout, 5);
  std::cout << "Table 4: sweeps before the first class change from training samples\n";
  table4.print(std::cout, 5);
  table3.write_csv(out / "class_changes.csv");
  table4.write_csv(out / "first_class_change.csv");
  per_trial.write_csv(out / "class_changes_trials.csv");

  nlohmann::json record = make_run_record(
      "experiment class-changes",
      {{"scale", arguments.scale},
       {"training", "CD-5 (Gibbs), 16 hidden, batch 100, base-rate visible bias, W ~ N(0, 0.01^2)"},
       {"training_samples", training_samples},
       {"learning_rate", arguments.learning_rate},
       {"updates", updates},
       {"trials", trials},
       {"sequence_steps", arguments.sequence_steps},
       {"starts", arguments.starts},
       {"first_change_cap", cap},
       {"job_seed", "seed + 1000 * setting index + trial"},
       {"ambiguous_samples", "discarded: the class sequence skips samples equally close to two or more modes"}},
      arguments.seed);
  record["seconds"] = seconds;
  write_json_file(out / "class_changes.json", record);
  std::cout << "wrote " << out.string() << "/class_changes.csv, first_class_change.csv, class_changes_trials.csv, "
            << "class_changes.json (" << seconds << " s)\n";
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<ClassChangesArguments>();
  CLI::App* command = parent.add_subcommand(
      "class-changes", "003 Tables 3-4: class changes of G and T on Artificial Modes RBMs trained with CD-5");
  command->add_option("--scale", arguments->scale, "smoke|paper")->capture_default_str();
  command->add_option("--seed", arguments->seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_option("--trials", arguments->trials, "RBMs per p_mut (default: paper 25, smoke 3)")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  command->add_option("--updates", arguments->updates, "training updates (default: paper 20000, smoke 1000)")
      ->check(CLI::Range(std::int64_t{1}, std::numeric_limits<std::int64_t>::max()));
  command->add_option("--lr", arguments->learning_rate, "learning rate")->capture_default_str();
  command->add_option("--steps", arguments->sequence_steps, "Table 3: sweeps from all ones")
      ->capture_default_str()
      ->check(CLI::Range(Eigen::Index{1}, std::numeric_limits<Eigen::Index>::max()));
  command->add_option("--starts", arguments->starts, "Table 4: chains per RBM")
      ->capture_default_str()
      ->check(CLI::Range(Eigen::Index{1}, std::numeric_limits<Eigen::Index>::max()));
  command
      ->add_option("--cap", arguments->first_change_cap,
                   "Table 4: most sweeps waited for a change (default: paper 10^5, smoke 10^4)")
      ->check(CLI::Range(Eigen::Index{1}, std::numeric_limits<Eigen::Index>::max()));
  command->callback([arguments] { run_class_changes(*arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("experiment", rbmix::cli::attach)
