#include "rbmix/experiments/flip_training_experiment.hpp"

#include <algorithm>
#include <cmath>

#include "rbmix/analysis/wilcoxon_signed_rank.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/binarize.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data/mnist.hpp"
#include "rbmix/experiments/training_trials.hpp"
#include "rbmix/jobs/trial_seed.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix::experiments {

std::string FlipTrainingSetting::name() const {
  const std::string k = std::to_string(sampling_steps);
  switch (algorithm) {
    case Algorithm::cd:
      return "CD_" + k;
    case Algorithm::pcd:
      return "PCD_" + k;
    case Algorithm::pt:
      return std::to_string(replicas) + "-PT_" + k;
    default:
      return to_string(algorithm) + "_" + k;
  }
}

void FlipTrainingOptions::validate() const {
  require(data.rows() > 0, "flip-training: no training data");
  require(hidden > 0, "flip-training: the number of hidden units must be positive");
  require(batch_size >= 0 && batch_size <= data.rows(),
          "flip-training: the batch size must lie in 0..rows (0: full batch), got " + std::to_string(batch_size));
  require(!settings.empty(), "flip-training: no settings");
  for (const auto& setting : settings)
    require(setting.learning_rate > 0.0 && std::isfinite(setting.learning_rate),
            "--learning-rates: learning rates must be positive");
  require(trials > 0, "--trials: the number of trials must be positive");
  require(updates > 0, "--updates: the number of updates must be positive");
  require(evaluation_interval > 0, "flip-training: the evaluation interval must be positive");
  require(evaluation_data.size() == 0 || evaluation_data.cols() == data.cols(),
          "flip-training: the evaluation rows and the training data differ in width");
}

FlipTrainingOptions flip_training_options(Scale scale, std::uint64_t seed) {
  FlipTrainingOptions config;
  config.data = bars_and_stripes(4);
  config.seed = seed;
  const bool paper = scale == Scale::paper;
  const std::vector<double> rates = paper ? std::vector<double>{0.01, 0.05, 0.1} : std::vector<double>{0.1};
  for (double rate : rates) {
    config.settings.push_back({Algorithm::cd, 1, 1, rate});
    config.settings.push_back({Algorithm::cd, 10, 1, rate});
    config.settings.push_back({Algorithm::pcd, 1, 1, rate});
    config.settings.push_back({Algorithm::pcd, 10, 1, rate});
    config.settings.push_back({Algorithm::pt, 1, 10, rate});
  }
  if (!paper) {
    config.trials = 3;
    config.updates = 300;
    config.evaluation_interval = 100;
  }
  return config;
}

namespace {

// `count` distinct rows of `data` chosen uniformly with `seed` (partial Fisher–Yates), in their original order.
BinaryMatrix random_rows(const BinaryMatrix& data, Eigen::Index count, std::uint64_t seed) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(data.rows()));
  for (Eigen::Index row = 0; row < data.rows(); ++row) order[static_cast<std::size_t>(row)] = row;
  RandomStream stream(seed, 0, StreamDomain::data);
  for (Eigen::Index k = 0; k < count; ++k) {
    const auto pick = k + static_cast<Eigen::Index>(stream.below(static_cast<std::uint64_t>(data.rows() - k)));
    std::swap(order[static_cast<std::size_t>(k)], order[static_cast<std::size_t>(pick)]);
  }
  order.resize(static_cast<std::size_t>(count));
  std::sort(order.begin(), order.end());
  BinaryMatrix rows(count, data.cols());
  for (Eigen::Index k = 0; k < count; ++k) rows.row(k) = data.row(order[static_cast<std::size_t>(k)]);
  return rows;
}

}  // namespace

FlipTrainingOptions flip_training_mnist_options(Scale scale, std::uint64_t seed,
                                                const std::filesystem::path& directory) {
  FlipTrainingOptions config = flip_training_options(scale, seed);
  const LabelledImages train = load_mnist(directory, MnistPart::train);
  const Eigen::Index rows =
      scale == Scale::paper ? train.images.pixels.rows() : std::min(mnist_smoke_rows, train.images.pixels.rows());
  config.data = threshold_binarize(train.images.pixels.topRows(rows));
  config.data_name = scale == Scale::paper ? "mnist" : "mnist-first-" + std::to_string(rows);
  config.hidden = 10;
  config.batch_size = 100;
  if (scale != Scale::paper) {
    config.updates = mnist_smoke_updates;
    config.evaluation_interval = mnist_smoke_updates / 2;
    // Smoke scale runs on any MNIST-style directory, also one smaller than a mini-batch (run.json records the batch).
    config.batch_size = std::min<Eigen::Index>(config.batch_size, rows);
  }
  require(rows >= config.batch_size, directory.string() + ": MNIST training set has " + std::to_string(rows) +
                                         " images, fewer than a mini-batch of " + std::to_string(config.batch_size));
  if (rows > mnist_evaluation_rows) {
    config.evaluation_data = random_rows(config.data, mnist_evaluation_rows, seed);
    config.evaluation_name = std::to_string(mnist_evaluation_rows) + " training rows drawn with the seed";
  }
  return config;
}

double median(std::vector<double> values) {
  require(!values.empty(), "median of no values");
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

namespace {

// One data set's training runs: their jobs (pointing into `data` and `evaluation_data`, so the plan must stay put
// while they run) and the skeletons of their results.
struct FlipTrainingPlan {
  MatrixD data, evaluation_data;
  std::vector<TrainingJob> jobs;
  FlipTrainingResult result;
};

void plan_flip_training(const FlipTrainingOptions& config, FlipTrainingPlan& plan) {
  config.validate();
  plan.data = to_real(config.data);
  plan.evaluation_data = to_real(config.evaluation_data);
  for (std::size_t setting = 0; setting < config.settings.size(); ++setting) {
    const FlipTrainingSetting& s = config.settings[setting];
    for (bool flip : {false, true}) {
      for (int trial = 0; trial < config.trials; ++trial) {
        TrainingOptions options;
        apply_algorithm(options, s.algorithm);
        options.rule = flip ? UnitRule{FlipTheStateRule{}} : UnitRule{GibbsRule{}};
        options.sampling_steps = s.sampling_steps;
        options.replicas = std::max(2, s.replicas);
        options.learning_rate = s.learning_rate;
        options.batch_size = config.batch_size;
        options.updates = config.updates;
        options.evaluation_interval = config.evaluation_interval;
        options.seed = trial_seed(config.seed, static_cast<std::uint64_t>(trial));
        plan.jobs.push_back(
            {options, &plan.data, config.hidden, config.evaluation_data.size() > 0 ? &plan.evaluation_data : nullptr});
        plan.result.runs.push_back({setting, flip, trial, 0.0, 0.0, false, {}});
      }
    }
  }
}

void finish_flip_training(const FlipTrainingOptions& config, const std::vector<TrainingSummary>& summaries,
                          FlipTrainingResult& result) {
  for (std::size_t index = 0; index < summaries.size(); ++index) {
    FlipTrainingRun& run = result.runs[index];
    run.learning_curve = train_log_likelihoods(summaries[index]);
    run.diverged = summaries[index].termination == Termination::diverged;
    run.maximum_log_likelihood = *std::max_element(run.learning_curve.begin(), run.learning_curve.end());
    run.final_log_likelihood = run.learning_curve.back();
  }
  for (std::int64_t update = 0; update <= config.updates; update += config.evaluation_interval)
    result.evaluation_updates.push_back(update);
  // A diverged run's curve stops early: pad it so that every curve has a value (NaN) at every evaluation.
  for (auto& run : result.runs) run.learning_curve.resize(result.evaluation_updates.size(), std::nan(""));

  for (std::size_t setting = 0; setting < config.settings.size(); ++setting) {
    std::vector<double> gibbs, flip;
    for (const auto& run : result.runs)
      if (run.setting == setting) (run.flip ? flip : gibbs).push_back(run.maximum_log_likelihood);
    const auto test = analysis::wilcoxon_signed_rank(flip, gibbs);
    result.rows.push_back(
        {config.settings[setting], median(gibbs), median(flip), test.positive_rank_sum, test.p_value});
  }
}

}  // namespace

OrPartDone<FlipTrainingResult> run_flip_training(const FlipTrainingOptions& config, const JobRunner& runner) {
  auto results = run_flip_training(std::vector<FlipTrainingOptions>{config}, runner);
  if (!results) return results.part_done();
  return std::move(results.value().front());
}

OrPartDone<std::vector<FlipTrainingResult>> run_flip_training(const std::vector<FlipTrainingOptions>& data_sets,
                                                              const JobRunner& runner) {
  require(!data_sets.empty(), "flip-training: no data sets");
  std::vector<FlipTrainingPlan> plans(data_sets.size());
  std::vector<TrainingJob> jobs;
  for (std::size_t set = 0; set < data_sets.size(); ++set) {
    plan_flip_training(data_sets[set], plans[set]);
    jobs.insert(jobs.end(), plans[set].jobs.begin(), plans[set].jobs.end());
  }
  const auto trained = run_training_jobs(jobs, runner, JobPhase{0});
  if (!trained) return trained.part_done();
  const std::vector<TrainingSummary>& summaries = trained.value();
  std::vector<FlipTrainingResult> results;
  auto first = summaries.begin();
  for (std::size_t set = 0; set < data_sets.size(); ++set) {
    const auto last = first + static_cast<std::ptrdiff_t>(plans[set].jobs.size());
    finish_flip_training(data_sets[set], std::vector<TrainingSummary>(first, last), plans[set].result);
    results.push_back(std::move(plans[set].result));
    first = last;
  }
  return results;
}

nlohmann::json to_json(const FlipTrainingOptions& options) {
  nlohmann::json out{
      {"source", "003 Table 1"},
      {"data", options.data_name},
      {"rows", options.data.rows()},
      {"hidden", options.hidden},
      {"batch", options.batch_size > 0 ? nlohmann::json(options.batch_size) : nlohmann::json("full")},
      {"trials", options.trials},
      {"updates", options.updates},
      {"evaluation_interval", options.evaluation_interval},
      {"evaluation", options.evaluation_name},
      {"evaluation_rows", options.evaluation_data.size() > 0 ? options.evaluation_data.rows() : options.data.rows()},
      {"tempering", "t replicas at beta = 1 - i/(t-1)"},
      {"trial_seed", "trial_seed(seed, trial), shared by every setting and operator"},
      {"significance_level", flip_training_significance_level}};
  for (const auto& setting : options.settings)
    out["settings"].push_back(setting.name() + " eta " + std::to_string(setting.learning_rate));
  return out;
}

Table flip_training_table(const FlipTrainingResult& result) {
  Table table({"setting", "learning_rate", "median_max_ll_gibbs", "median_max_ll_flip", "flip_minus_gibbs",
               "wilcoxon_w_plus", "p_value", "significant", "better"});
  for (const auto& row : result.rows) {
    const double difference = row.median_maximum_flip - row.median_maximum_gibbs;
    const bool significant = row.p_value < flip_training_significance_level;
    table.add_row({row.setting.name(), row.setting.learning_rate, row.median_maximum_gibbs, row.median_maximum_flip,
                   difference, row.positive_rank_sum, row.p_value, std::string(significant ? "*" : ""),
                   std::string(difference > 0   ? "T"
                               : difference < 0 ? "G"
                                                : "=")});
  }
  return table;
}

namespace {

// Writes <prefix>flip_training.csv (the table), <prefix>flip_training_runs.csv (every run) and
// <prefix>learning_curves.svg (median curves of G and T at the middle learning rate).
void write_flip_training(const FlipTrainingOptions& options, const FlipTrainingResult& result,
                         const std::string& prefix, ResultDirectory& out) {
  out.write_csv(prefix + "flip_training.csv", flip_training_table(result));
  Table runs({"setting", "learning_rate", "operator", "trial", "max_ll", "final_ll", "diverged"});
  for (const auto& run : result.runs) {
    const auto& setting = options.settings[run.setting];
    runs.add_row({setting.name(), setting.learning_rate, std::string(run.flip ? "flip" : "gibbs"),
                  static_cast<long long>(run.trial), run.maximum_log_likelihood, run.final_log_likelihood,
                  static_cast<long long>(run.diverged)});
  }
  out.write_csv(prefix + "flip_training_runs.csv", runs);

  // Median learning curves of G and T for every setting at the middle learning rate (003 Fig. 3 shows CD_5, η 0.05).
  const double plotted_rate = options.settings[options.settings.size() / 2].learning_rate;
  std::vector<PlotSeries> series;
  for (std::size_t setting = 0; setting < options.settings.size(); ++setting) {
    if (options.settings[setting].learning_rate != plotted_rate) continue;
    for (bool flip : {false, true}) {
      PlotSeries line;
      line.label = options.settings[setting].name() + (flip ? " T" : " G");
      line.dashed = flip;
      for (std::size_t k = 0; k < result.evaluation_updates.size(); ++k) {
        std::vector<double> values;
        for (const auto& run : result.runs)
          if (run.setting == setting && run.flip == flip && std::isfinite(run.learning_curve[k]))
            values.push_back(run.learning_curve[k]);
        if (values.empty()) continue;
        line.x.push_back(static_cast<double>(result.evaluation_updates[k]));
        line.y.push_back(median(values));
      }
      series.push_back(line);
    }
  }
  PlotOptions plot;
  plot.title = "Median learning curves, " + options.data_name + ", η " + format_plot_number(plotted_rate);
  plot.x_label = "update";
  plot.y_label = "average log-likelihood";
  out.write_svg(prefix + "learning_curves.svg", series, plot);
}

}  // namespace

std::vector<ExperimentOption> FlipTraining::own_options() {
  return {{"--trials", "override the number of trials"},
          {"--updates", "override the number of updates"},
          {"--learning-rates", "override the learning rates, e.g. 0.1,0.05"}};
}

namespace {

void apply_flip_training_overrides(const ExperimentInputs& inputs, FlipTrainingOptions& options) {
  if (const auto trials = inputs.integer("--trials", 1)) options.trials = static_cast<int>(*trials);
  if (const auto updates = inputs.integer("--updates", 1)) options.updates = *updates;
  if (const auto rates = inputs.positive_numbers("--learning-rates")) {
    // Keep the scale's settings at the requested rates (a paper-scale run can then be split by learning rate).
    std::vector<FlipTrainingSetting> kept;
    for (double rate : *rates)
      for (auto setting : options.settings)
        if (setting.learning_rate == options.settings.front().learning_rate) {
          setting.learning_rate = rate;
          kept.push_back(setting);
        }
    options.settings = kept;
  }
  options.validate();
}

void describe(const FlipTrainingOptions& options, std::ostream& log) {
  log << "flip-training (003 Table 1): " << options.data_name << " (" << options.data.rows() << " rows), "
      << options.hidden << " hidden, batch "
      << (options.batch_size > 0 ? std::to_string(options.batch_size) : std::string("full")) << ", "
      << options.settings.size() << " settings × {G, T} × " << options.trials << " trials, " << options.updates
      << " updates, exact LL on " << options.evaluation_name << " every " << options.evaluation_interval << "\n";
}

}  // namespace

std::vector<FlipTrainingOptions> FlipTraining::make_options(const ExperimentInputs& inputs) {
  std::vector<FlipTrainingOptions> data_sets{flip_training_options(inputs.scale, inputs.seed)};
  // MNIST is loaded before any job runs, so that a wrong directory fails at once.
  if (!inputs.mnist.empty()) data_sets.push_back(flip_training_mnist_options(inputs.scale, inputs.seed, inputs.mnist));
  for (auto& data_set : data_sets) apply_flip_training_overrides(inputs, data_set);
  return data_sets;
}

nlohmann::json FlipTraining::configuration(const std::vector<FlipTrainingOptions>& data_sets) {
  nlohmann::json configuration = to_json(data_sets.front());
  if (data_sets.size() > 1) {
    configuration["mnist"] = to_json(data_sets.back());
    configuration["mnist"]["binarisation"] = "threshold: v = [x/255 > 1/2]";
  }
  return configuration;
}

OrPartDone<std::vector<FlipTrainingResult>> FlipTraining::run(const std::vector<FlipTrainingOptions>& data_sets,
                                                              const JobRunner& runner, std::ostream& log) {
  for (const auto& data_set : data_sets) describe(data_set, log);
  // Both data sets' runs form one grid, so that shards and ranks spread the costly MNIST half too.
  return run_flip_training(data_sets, runner);
}

ExperimentReport FlipTraining::report(const std::vector<FlipTrainingOptions>& data_sets,
                                      const std::vector<FlipTrainingResult>& results, ResultDirectory& out,
                                      std::ostream& log) {
  ExperimentReport report;
  for (std::size_t set = 0; set < data_sets.size(); ++set) {
    // The first data set's files keep their names; MNIST's carry the prefix mnist_.
    const std::string prefix = set == 0 ? "" : "mnist_";
    write_flip_training(data_sets[set], results[set], prefix, out);
    log << data_sets[set].data_name << ":\n";
    report.tables.push_back({prefix + "flip_training", flip_training_table(results[set])});
    report.tables.back().table.print(log, 5);
    int flip_better = 0, flip_significantly_better = 0;
    for (const auto& row : results[set].rows) {
      const bool better = row.median_maximum_flip > row.median_maximum_gibbs;
      flip_better += better;
      flip_significantly_better += better && row.p_value < flip_training_significance_level;
    }
    log << "T has the higher median maximum in " << flip_better << " of " << results[set].rows.size()
        << " settings (significant, Wilcoxon p < 0.05: " << flip_significantly_better
        << "). 003 claims: T better for most settings.\n";
  }
  if (data_sets.size() == 1)
    log << "MNIST with 10 hidden units (003's second data set) is not run: give the MNIST directory with --mnist "
           "DIR.\n";
  return report;
}

}  // namespace rbmix::experiments
