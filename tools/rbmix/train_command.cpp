// rbmix train: trains a binary RBM on a .npy data set with any algorithm and unit rule (docs/algorithms.md §3) and
// writes, into --out: model.npz (the plain RBM), learning_curve.csv and its plot learning_curve.svg, filters.png
// (each hidden unit's weights as a tile, when the rows are pictures: square, or --image-shape), run.json (full
// configuration, seed, the summary and the list of files) and checkpoint.ckpt (resume with --resume and the same
// options); with --keep best also best-model.npz, the model of the best evaluation. Every evaluation runs the monitor
// (training_monitor.hpp), chosen by --monitor and named in the output and run.json, so a run at any size shows
// whether it learns; a final score far below the uniform model's is warned about and recorded. Ctrl-C (SIGINT) or
// SIGTERM (what a batch scheduler sends at its time limit) stops after the current update, writes all of these,
// leaves a checkpoint and exits with 128 + the signal number; a diverging run keeps its last good parameters and the
// last checkpoint.
// With --labels it trains a classification RBM (000 §4.2): the one-hot labels are appended to the rows as one
// softmax group, the learning curve holds the classification errors, and model.npz is a classification-rbm model
// (rbmix classify predicts with it). --resample-binarisation reads --data as grey levels and draws every use of a
// row afresh (000 §4.1).

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <numbers>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/data_option.hpp"
#include "rbmix/ignored_option.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/operator_option.hpp"
#include "rbmix/option_checks.hpp"
#include "rbmix/picture_output.hpp"
#include "rbmix/progress_option.hpp"
#include "rbmix/report/progress.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/svg_plot.hpp"
#include "rbmix/report/table.hpp"
#include "rbmix/training/parameter_initialisation.hpp"
#include "rbmix/training/trainer.hpp"

namespace rbmix::cli {
namespace {

std::atomic<int> interrupting_signal{0};
extern "C" void on_interrupt(int signal) { interrupting_signal = signal; }

// What the command line sets: the training options themselves (their defaults are TrainingOptions' own), and the
// few arguments that are not training options.
struct TrainArguments {
  TrainingOptions options;
  std::string data;
  std::string test;
  std::string labels;
  std::string test_labels;
  int classes = 0;
  int hidden = 0;
  std::string algorithm = "cd";
  std::string rule = "gibbs";
  std::string schedule = "constant";
  int inner_sweeps = 0;
  double fast_learning_rate = 0.0;
  std::string out;
  bool resume = false;
  bool zero_visible_bias = false;
  std::string initialisation = "base-rate";
  std::string monitor = "auto";
  std::string keep = "final";
  std::string rows;
  std::string image_shape;
  ProgressFlags progress;
};

// A final log-likelihood this far (nats per row) below the uniform model's −n log 2 means training failed: the
// AIS band of a trained model is far narrower, and a model that learned anything beats the uniform one.
constexpr double below_uniform_warning_nats = 1.0;

// The rows [first, last) that --rows N (the first N) or --rows A:B selects from `available` rows.
std::pair<Eigen::Index, Eigen::Index> row_range(const std::string& text, Eigen::Index available) {
  const auto number = [&](const std::string& part) {
    require(!part.empty() && part.find_first_not_of("0123456789") == std::string::npos,
            "--rows " + text + ": expected N or A:B with whole numbers");
    return static_cast<Eigen::Index>(std::stoll(part));
  };
  const auto colon = text.find(':');
  const Eigen::Index first = colon == std::string::npos ? 0 : number(text.substr(0, colon));
  const Eigen::Index last = colon == std::string::npos ? number(text) : number(text.substr(colon + 1));
  require(first < last, "--rows " + text + ": the range of rows is empty");
  require(last <= available, "--rows " + text + ": the data have only " + std::to_string(available) + " rows");
  return {first, last};
}

// The learning curve's columns: update, epoch and every measured field that any point holds, in a fixed order, so a
// column is never all NaN (a point that lacks a field, e.g. an evaluation written by an older rbmix, gets NaN).
using PointField = std::optional<double> EvaluationPoint::*;
struct NamedField {
  const char* name;
  PointField field;
};
constexpr NamedField point_fields[] = {
    {"train_log_likelihood", &EvaluationPoint::train_log_likelihood},
    {"test_log_likelihood", &EvaluationPoint::test_log_likelihood},
    {"train_log_likelihood_lower", &EvaluationPoint::train_log_likelihood_lower},
    {"train_log_likelihood_upper", &EvaluationPoint::train_log_likelihood_upper},
    {"test_log_likelihood_lower", &EvaluationPoint::test_log_likelihood_lower},
    {"test_log_likelihood_upper", &EvaluationPoint::test_log_likelihood_upper},
    {"train_error", &EvaluationPoint::train_error},
    {"test_error", &EvaluationPoint::test_error},
    {"train_pseudo_log_likelihood", &EvaluationPoint::train_pseudo_log_likelihood},
    {"test_pseudo_log_likelihood", &EvaluationPoint::test_pseudo_log_likelihood},
    {"train_reconstruction_error", &EvaluationPoint::train_reconstruction_error},
    {"test_reconstruction_error", &EvaluationPoint::test_reconstruction_error},
    {"free_energy_gap", &EvaluationPoint::free_energy_gap},
};

Table learning_curve_table(const std::vector<EvaluationPoint>& curve) {
  std::vector<NamedField> present;
  for (const auto& named : point_fields)
    if (std::any_of(curve.begin(), curve.end(), [&](const auto& point) { return (point.*named.field).has_value(); }))
      present.push_back(named);
  std::vector<std::string> header{"update", "epoch"};
  for (const auto& named : present) header.emplace_back(named.name);
  Table table(header);
  const double missing = std::numeric_limits<double>::quiet_NaN();
  for (const auto& point : curve) {
    std::vector<Table::Cell> row{static_cast<long long>(point.update), point.epoch};
    for (const auto& named : present) row.emplace_back((point.*named.field).value_or(missing));
    table.add_row(row);
  }
  return table;
}

nlohmann::json point_json(const std::optional<EvaluationPoint>& point) {
  if (!point) return nullptr;
  nlohmann::json out = {{"update", point->update}, {"epoch", point->epoch}};
  for (const auto& named : point_fields)
    if ((*point.*named.field)) out[named.name] = *(*point.*named.field);
  return out;
}

// The uniform model's average log-likelihood, −n log 2 over the n visible units (not the label group).
double uniform_log_likelihood(Eigen::Index n_visible) { return -static_cast<double>(n_visible) * std::numbers::ln2; }

// The number of classes: --classes, or one more than the largest training label (at least 2) when the labels use
// every class up to it. A class no label uses needs --classes: a label of 200 among 0 … 3 is far likelier a bad
// label than a 201-class task, and a model with silently empty classes says nothing of them.
int class_count(const TrainArguments& arguments, const std::vector<int>& labels) {
  if (arguments.classes > 0) return arguments.classes;
  const int largest = labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end());
  const int smallest = labels.empty() ? 0 : *std::min_element(labels.begin(), labels.end());
  require(smallest >= 0, "--labels " + arguments.labels + ": label " + std::to_string(smallest) + " is negative");
  std::vector<bool> used(static_cast<std::size_t>(largest) + 1, false);
  for (const int label : labels) used[static_cast<std::size_t>(label)] = true;
  const auto unused = std::find(used.begin(), used.end(), false);
  require(unused == used.end(), "--labels " + arguments.labels + ": no label is class " +
                                    std::to_string(unused - used.begin()) + " though labels go up to " +
                                    std::to_string(largest) + "; state the number of classes with --classes");
  return std::max(largest + 1, 2);
}

// The options given on the command line among those only some algorithms use (training_options.hpp).
std::vector<std::string> algorithm_specific_options_given(const CLI::App& command) {
  std::vector<std::string> given;
  for (const char* option : {"--operator", "--d", "--k-inner", "--replicas", "--fast-lr", "--fast-decay"})
    if (command.count(option) > 0) given.emplace_back(option);
  return given;
}

// S-DCP and CS-DCP with d = 1 run the very update of CD-K' and CG (trainer.hpp), so they would only rename a run.
void warn_identical_algorithm(Algorithm algorithm, const TrainingOptions& options) {
  if (options.inner_steps != 1) return;
  if (algorithm == Algorithm::sdcp || algorithm == Algorithm::csdcp)
    std::cerr << "rbmix: warning: --algo " << to_string(algorithm) << " with --d 1 gives bit-identical numbers to --algo "
              << (algorithm == Algorithm::sdcp ? "cd" : "cg")
              << " (002 Alg. 3 with one inner step); give --d > 1 for S-DCP proper\n";
}

// A short note for the progress line: the latest monitored score.
std::string progress_note(const EvaluationPoint& point) {
  char text[96];
  if (point.train_log_likelihood) {
    std::snprintf(text, sizeof text, "train LL %.4g", *point.train_log_likelihood);
  } else if (point.train_error) {
    std::snprintf(text, sizeof text, "train error %.4g", *point.train_error);
  } else if (point.train_pseudo_log_likelihood) {
    std::snprintf(text, sizeof text, "train PL %.4g", *point.train_pseudo_log_likelihood);
  } else {
    return {};
  }
  return text;
}

// The learning curve as lines against the update: the monitored score of training and test rows (log-likelihood,
// else the pseudo-log-likelihood proxy), or the classification errors.
void write_learning_curve_plot(const std::filesystem::path& file, const std::vector<EvaluationPoint>& curve,
                               bool classification) {
  const bool likelihood = std::any_of(curve.begin(), curve.end(), [](const EvaluationPoint& point) {
    return point.train_log_likelihood.has_value();
  });
  const std::string score = classification ? "error" : likelihood ? "log-likelihood" : "pseudo-log-likelihood";
  PlotSeries train{"train " + score, {}, {}, {}, {}, false};
  PlotSeries test{"test " + score, {}, {}, {}, {}, true};
  for (const auto& point : curve) {
    const auto train_value = classification ? point.train_error
                             : likelihood   ? point.train_log_likelihood
                                            : point.train_pseudo_log_likelihood;
    const auto test_value = classification ? point.test_error
                            : likelihood   ? point.test_log_likelihood
                                           : point.test_pseudo_log_likelihood;
    if (train_value) train.x.push_back(static_cast<double>(point.update)), train.y.push_back(*train_value);
    if (test_value) test.x.push_back(static_cast<double>(point.update)), test.y.push_back(*test_value);
  }
  std::vector<PlotSeries> series;
  for (auto* line : {&train, &test})
    if (!line->x.empty()) series.push_back(*line);
  PlotOptions plot;
  plot.title = "Learning curve";
  plot.x_label = "update";
  plot.y_label = classification ? "classification error" : "average " + score + " per row";
  write_svg_plot(file, series, plot);
}

// The training options the command line asks for, validated: the algorithm's table refuses the options it ignores.
TrainingOptions training_options(const CLI::App& command, const TrainArguments& arguments, Algorithm algorithm) {
  refuse_ignored_options(algorithm, algorithm_specific_options_given(command));
  TrainingOptions options = arguments.options;
  apply_algorithm(options, algorithm, options.inner_steps);
  options.rule = parse_unit_rule(arguments.rule);
  if (arguments.inner_sweeps > 0) options.sampling_steps = arguments.inner_sweeps;
  if (command.count("--fast-lr") > 0) options.fast_learning_rate = arguments.fast_learning_rate;
  options.schedule = parse_learning_rate_schedule(arguments.schedule);
  options.monitor.kind = parse_monitor_kind(arguments.monitor);
  require(arguments.keep == "final" || arguments.keep == "best",
          "--keep " + arguments.keep + ": expected final or best");
  require(!arguments.zero_visible_bias || command.count("--init") == 0,
          "--zero-visible-bias and --init both choose the initial biases; give one (--init zero is the same)");
  apply(parse_parameter_initialisation(arguments.zero_visible_bias ? "zero" : arguments.initialisation), options);
  if (options.checkpoint_interval <= 0) options.checkpoint_interval = options.evaluation_interval;
  options.checkpoint_path = (std::filesystem::path(arguments.out) / "checkpoint.ckpt").string();
  options.validate();
  return options;
}

// The rows a run trains and tests on: --data (its --rows), --test, and with --labels their one-hot label groups.
struct TrainingRows {
  MatrixD train;
  MatrixD test;
  std::pair<Eigen::Index, Eigen::Index> selected;  // [first, last) of --data
  bool classification = false;
};

// Reads every data file; with labels, sets options.label_classes. Nothing is written before this succeeds.
TrainingRows load_training_rows(const TrainArguments& arguments, TrainingOptions& options) {
  require(arguments.test_labels.empty() || !arguments.labels.empty(), "--test-labels needs --labels");
  require(arguments.classes == 0 || !arguments.labels.empty(), "--classes needs --labels");
  require(arguments.test_labels.empty() == arguments.test.empty() || arguments.labels.empty(),
          "--labels: a classification run needs --test-labels exactly when it has --test");
  TrainingRows rows;
  rows.train = load_rows(arguments.data, options.resample_binarisation,
                         "add --resample-binarisation to draw binary rows from them afresh at every use (000 §4.1)");
  if (!arguments.test.empty()) rows.test = to_real(load_binary_matrix(arguments.test));
  rows.classification = !arguments.labels.empty();
  std::vector<int> labels = rows.classification ? load_labels(arguments.labels) : std::vector<int>{};
  rows.selected = {0, rows.train.rows()};
  if (!arguments.rows.empty()) {
    rows.selected = row_range(arguments.rows, rows.train.rows());
    const auto [first, last] = rows.selected;
    rows.train = MatrixD(rows.train.middleRows(first, last - first));
    if (rows.classification && labels.size() >= static_cast<std::size_t>(last))
      labels = std::vector<int>(labels.begin() + first, labels.begin() + last);
  }
  if (!rows.classification) return rows;
  options.label_classes = class_count(arguments, labels);
  options.validate();
  rows.train = append_one_hot_labels(rows.train, labels, options.label_classes, "--labels " + arguments.labels);
  if (rows.test.size() > 0)
    rows.test = append_one_hot_labels(rows.test, load_labels(arguments.test_labels), options.label_classes,
                                      "--test-labels " + arguments.test_labels);
  return rows;
}

// run.json's configuration: every training option and every argument that shaped the run.
nlohmann::json training_configuration(const TrainArguments& arguments, const TrainingOptions& options,
                                      const TrainingRows& rows,
                                      const std::optional<ImageShape>& picture_shape) {
  nlohmann::json configuration = to_json(options);
  configuration["algorithm"] = arguments.algorithm;
  configuration["data"] = arguments.data;
  configuration["test"] = arguments.test;
  configuration["rows"] = {rows.selected.first, rows.selected.second};
  configuration["n_visible"] = rows.train.cols();
  if (picture_shape) configuration["image_shape"] = {picture_shape->first, picture_shape->second};
  if (rows.classification) {
    configuration["labels"] = arguments.labels;
    configuration["test_labels"] = arguments.test_labels;
  }
  configuration["n_hidden"] = arguments.hidden;
  configuration["training_samples"] = rows.train.rows();
  configuration["keep"] = arguments.keep;
  return configuration;
}

void save_model(const std::filesystem::path& file, const Trainer& trainer, bool classification,
                const nlohmann::json& record) {
  if (classification) {
    save_classification_rbm(file, {trainer.model(), trainer.options().label_classes}, record);
  } else {
    save_rbm(file, trainer.model(), record);
  }
}

// --keep best: writes the model of the best evaluation so far as it is found (a resumed run continues from the best
// of the curve in its checkpoint, whose model is already on disk).
class BestModelKeeper {
 public:
  BestModelKeeper(std::filesystem::path file, const Trainer& trainer, bool classification)
      : file_(std::move(file)), trainer_(trainer), classification_(classification) {
    for (const auto& point : trainer.learning_curve())
      if (const auto score = monitored_score(point); score && (!best_score_ || *score > *best_score_))
        best_score_ = score;
  }

  void observe(const EvaluationPoint& point, const nlohmann::json& record) {
    const auto score = monitored_score(point);
    if (!score || (best_score_ && *score <= *best_score_)) return;
    best_score_ = score;
    nlohmann::json best_record = record;
    best_record["best"] = point_json(point);
    save_model(file_, trainer_, classification_, best_record);
  }

 private:
  std::filesystem::path file_;
  const Trainer& trainer_;
  bool classification_;
  std::optional<double> best_score_;
};

// A final likelihood far below the uniform model's: training failed (too large a learning rate, most often).
std::optional<std::string> below_uniform_warning(const TrainingSummary& summary, double uniform) {
  if (!summary.final || !summary.final->train_log_likelihood) return std::nullopt;
  const double score = summary.final->train_log_likelihood_upper.value_or(*summary.final->train_log_likelihood);
  if (score >= uniform - below_uniform_warning_nats) return std::nullopt;
  char text[320];
  std::snprintf(text, sizeof text,
                "the final training log-likelihood %.6g lies far below the uniform model's %.6g (-n log 2): "
                "training failed; try a smaller --lr",
                score, uniform);
  return text;
}

nlohmann::json summary_json(const TrainingSummary& summary, double uniform, const std::optional<std::string>& warning) {
  return {{"termination", to_string(summary.termination)},
          {"message", summary.message},
          {"updates_done", summary.updates_done},
          {"seconds", summary.seconds},
          {"best_by", summary.best ? monitored_score_name(*summary.best) : "none"},
          {"best", point_json(summary.best)},
          {"final", point_json(summary.final)},
          {"uniform_log_likelihood", uniform},
          {"warnings", warning ? nlohmann::json::array({*warning}) : nlohmann::json::array()}};
}

// Writes model.npz, the learning curve (CSV and plot), filters.png for pictures and run.json; returns the files.
std::vector<std::string> write_training_outputs(const std::filesystem::path& out, const Trainer& trainer,
                                                bool classification, bool keep_best,
                                                const std::optional<ImageShape>& picture_shape,
                                                nlohmann::json record) {
  std::vector<std::string> files{"model.npz"};
  save_model(out / "model.npz", trainer, classification, record);
  if (keep_best && std::filesystem::exists(out / "best-model.npz")) files.emplace_back("best-model.npz");
  learning_curve_table(trainer.learning_curve()).write_csv(out / "learning_curve.csv");
  files.emplace_back("learning_curve.csv");
  write_learning_curve_plot(out / "learning_curve.svg", trainer.learning_curve(), classification);
  files.emplace_back("learning_curve.svg");
  if (picture_shape) {
    const auto pixels = picture_shape->first * picture_shape->second;
    // A near-square grid, ⌈√n⌉ tiles per row: 500 filters are 23 × 22 tiles, not a strip of 10 × 50.
    const auto columns =
        static_cast<Eigen::Index>(std::ceil(std::sqrt(static_cast<double>(trainer.model().n_hidden()))));
    record["filters_png"] = write_weight_filters(out / "filters.png", trainer.model().weights.leftCols(pixels),
                                                 *picture_shape, FilterContrast::per_tile, columns);
    files.emplace_back("filters.png");
  }
  if (std::filesystem::exists(trainer.options().checkpoint_path)) files.emplace_back("checkpoint.ckpt");
  write_run_record(out, record, files);
  return files;
}

// ", test <value>" when the test set was scored.
std::string test_part(const std::optional<double>& test) {
  return test ? ", test " + std::to_string(*test) : std::string();
}

void print_training_summary(const TrainingSummary& summary, const Trainer& trainer) {
  std::cout << summary.message << '\n';
  if (!summary.final) return;
  const EvaluationPoint& last = *summary.final;
  if (last.train_log_likelihood)
    std::cout << "final average log-likelihood (" << to_string(trainer.monitor().kind()) << "): train "
              << *last.train_log_likelihood << test_part(last.test_log_likelihood) << '\n';
  if (last.train_pseudo_log_likelihood)
    std::cout << "final pseudo-log-likelihood (a proxy): train " << *last.train_pseudo_log_likelihood
              << test_part(last.test_pseudo_log_likelihood) << '\n';
  if (last.train_error)
    std::cout << "final classification error: train " << *last.train_error << test_part(last.test_error) << '\n';
}

void run_train(const CLI::App& command, const TrainArguments& arguments) {
  const Algorithm algorithm = parse_algorithm(arguments.algorithm);
  TrainingOptions options = training_options(command, arguments, algorithm);
  warn_identical_algorithm(algorithm, options);
  TrainingRows rows = load_training_rows(arguments, options);
  const Eigen::Index n_visible = rows.train.cols() - options.label_classes;
  const auto picture_shape = image_shape(arguments.image_shape, n_visible);
  nlohmann::json configuration = training_configuration(arguments, options, rows, picture_shape);
  const bool classification = rows.classification;
  // The rows move into the trainer: a copy of MNIST's 50 000 training rows in double is 313 MB, and where page
  // faults are dear (virtual machines) it cost about as much CPU as an epoch of PCD-1 at 500 hidden units.
  Trainer trainer(options, std::move(rows.train), std::move(rows.test), arguments.hidden);
  const OutputDirectoryLock lock(arguments.out);
  const std::filesystem::path& out = lock.directory();
  if (arguments.resume) {
    require(std::filesystem::exists(options.checkpoint_path),
            "--resume: no checkpoint " + options.checkpoint_path + " to resume from");
    trainer.load_checkpoint(options.checkpoint_path);
    std::cerr << "resuming at update " << trainer.updates_done() << '\n';
  }
  const bool monitored = options.evaluation_interval > 0;
  const std::string monitor = monitored ? to_string(trainer.monitor().kind()) + ": " +
                                              trainer.monitor().description(trainer.model())
                                        : std::string("none (--eval-every 0)");
  std::cout << "monitor: " << monitor << '\n';
  nlohmann::json record =
      make_run_record("train", std::move(configuration), options.seed);
  record["monitor"] = {{"kind", monitored ? to_string(trainer.monitor().kind()) : "none"}, {"description", monitor}};

  const bool keep_best = arguments.keep == "best";
  BestModelKeeper best_model(out / "best-model.npz", trainer, classification);
  ProgressReporter progress("train", "update", options.updates, arguments.progress.mode(), stderr,
                            trainer.updates_done());
  TrainingHooks hooks;
  hooks.interrupt_requested = [] { return interrupting_signal.load() != 0; };
  hooks.on_update = [&](std::int64_t update) { progress.update(update); };
  hooks.on_evaluation = [&](const EvaluationPoint& point) {
    progress.update(point.update, progress_note(point));
    if (keep_best) best_model.observe(point, record);
  };
  interrupting_signal = 0;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  const TrainingSummary summary = trainer.run(hooks);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  progress.finish();

  const double uniform = uniform_log_likelihood(n_visible);
  const std::optional<std::string> warning =
      classification ? std::nullopt : below_uniform_warning(summary, uniform);
  record["summary"] = summary_json(summary, uniform, warning);
  const auto files = write_training_outputs(out, trainer, classification, keep_best, picture_shape, record);
  print_training_summary(summary, trainer);
  if (warning) std::cerr << "rbmix: warning: " << *warning << '\n';
  std::cout << "wrote " << out.string() << "/";
  for (const auto& file : files) std::cout << file << ", ";
  std::cout << "run.json\n";
  if (summary.termination == Termination::diverged) throw std::runtime_error(summary.message);
  if (summary.termination == Termination::interrupted) std::exit(128 + interrupting_signal.load());
}

void attach(CLI::App& parent) {
  auto arguments = std::make_shared<TrainArguments>();
  TrainingOptions& options = arguments->options;
  CLI::App* command =
      parent.add_subcommand("train", "Train an RBM (CD, PCD, MF-CD, FPCD, PT, exact, CG, S-DCP, CS-DCP)");
  command->add_option("--data", arguments->data, "training data (.npy, one 0/1 sample per row)")->required();
  command->add_option("--test", arguments->test, "test data (.npy)");
  command->add_option("--labels", arguments->labels,
                      "training labels (.npy, |u1): train a classification RBM (000 §4.2) on (row, label)");
  command->add_option("--test-labels", arguments->test_labels, "test labels (.npy, |u1; with --labels and --test)");
  command
      ->add_option("--classes", arguments->classes,
                   "label classes K (default: 1 + the largest training label, when every class up to it occurs)")
      ->check(CLI::Range(2, 1 << 16));
  command->add_flag("--resample-binarisation", options.resample_binarisation,
                    "--data holds grey levels (|u1 intensities or floats in [0, 1]); every use of a row draws its "
                    "binary version afresh (000 §4.1)");
  command->add_option("--hidden", arguments->hidden, "number of hidden units")->required()->check(positive_count);
  command->add_option("--algo", arguments->algorithm, "training algorithm, one of\n" + algorithm_help())
      ->capture_default_str();
  command->add_option("--operator", arguments->rule, operator_help())->capture_default_str();
  command->add_option("--k", options.sampling_steps, "sweeps per negative phase")->capture_default_str();
  command->add_option("--replicas", options.replicas, "parallel tempering replicas t (pt only)")->capture_default_str();
  command->add_option("--d", options.inner_steps, "inner steps d (sdcp, csdcp only)")->capture_default_str();
  command->add_option("--k-inner", arguments->inner_sweeps,
                      "sweeps per inner step K' (sdcp, csdcp only; default: --k)");
  command->add_option("--lr", options.learning_rate, "learning rate ε")->capture_default_str();
  command->add_option("--lr-schedule", arguments->schedule, "constant|linear")->capture_default_str();
  command->add_option("--fast-lr", arguments->fast_learning_rate,
                      "fast learning rate ε_F of FPCD (fpcd only, required there; 001 takes it larger than --lr)");
  command->add_option("--fast-decay", options.fast_weight_decay, "decay α of the fast weights, in [0, 1) (fpcd only)")
      ->capture_default_str();
  command
      ->add_option("--batch", options.batch_size,
                   "mini-batch size B; 0 means full batch (every update uses all training rows)")
      ->capture_default_str();
  command->add_option("--momentum", options.momentum, "momentum")->capture_default_str();
  command->add_option("--weight-decay", options.weight_decay, "L2 weight decay on W")->capture_default_str();
  command->add_option("--updates", options.updates, "parameter updates")->capture_default_str();
  command
      ->add_option("--eval-every", options.evaluation_interval,
                   "run the monitor every E updates, and at 0 and the end (0: never)")
      ->capture_default_str();
  command
      ->add_option("--monitor", arguments->monitor,
                   "what an evaluation measures: auto (exact log-likelihood while the smaller layer has at most 25 "
                   "units, AIS otherwise), exact, ais, proxies (pseudo-likelihood, reconstruction error, free-energy "
                   "gap only) or classification; every kind but classification also records the proxies")
      ->capture_default_str();
  command->add_option("--monitor-particles", options.monitor.ais_particles, "AIS monitor: particles per evaluation")
      ->capture_default_str();
  command
      ->add_option("--monitor-distributions", options.monitor.ais_distributions,
                   "AIS monitor: intermediate distributions per evaluation (linear schedule)")
      ->capture_default_str();
  command->add_option("--monitor-rows", options.monitor.proxy_rows, "rows of each set the proxies use (evenly spaced)")
      ->capture_default_str();
  command
      ->add_option("--keep", arguments->keep,
                   "final, or best: also write best-model.npz, the model of the evaluation with the best monitored "
                   "training score")
      ->capture_default_str();
  command->add_option("--rows", arguments->rows, "train on rows [0, N) (N) or [A, B) (A:B) of --data only");
  command->add_option("--checkpoint-every", options.checkpoint_interval, "checkpoint every C updates (default E)");
  command->add_option("--seed", options.seed, "random seed")->capture_default_str();
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_option("--image-shape", arguments->image_shape,
                      "HxW of the pictures in filters.png (default: square when the data's width is)");
  command->add_flag("--resume", arguments->resume, "continue from the checkpoint in --out");
  command->add_flag("--float", options.sample_in_float, "run the update in float (the parameters stay double)");
  command->add_flag("--zero-visible-bias", arguments->zero_visible_bias, "start with b = 0 instead of the base rate");
  command
      ->add_option("--init", arguments->initialisation,
                   "initial parameters: base-rate (W ~ N(0, 0.01²), b = logit of the data mean, c = 0), zero (b = 0) "
                   "or normal:S (W, b and c ~ N(0, S²); 003 §4.2 takes S = 0.01)")
      ->capture_default_str();
  add_progress_options(*command, arguments->progress);
  command->callback([arguments, command] { run_train(*command, *arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("", rbmix::cli::attach)
