// rbmix train: trains a binary RBM on a .npy data set with any algorithm and unit rule (docs/algorithms.md §3) and
// writes, into --out: model.npz (the plain RBM), learning_curve.csv and its plot learning_curve.svg, filters.png
// (each hidden unit's weights as a tile; when the rows are pictures: square, or --image-shape), run.json (full
// configuration, seed and the summary) and checkpoint.ckpt (resume with --resume and the same options). Ctrl-C
// (SIGINT) or SIGTERM (what a batch scheduler sends at its time limit) stops after the current update, writes all
// of these, leaves a checkpoint and exits with 128 + the signal number; a diverging run keeps its last good
// parameters and the last checkpoint.
// With --labels it trains a classification RBM (000 §4.2): the one-hot labels are appended to the rows as one
// softmax group, the learning curve holds the classification errors, and model.npz is a classification-rbm model
// (rbmix classify predicts with it). --resample-binarisation reads --data as grey levels and draws every use of a
// row afresh (000 §4.1).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/operator_option.hpp"
#include "rbmix/picture_output.hpp"
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
  std::string image_shape;
};

std::string format_duration(double seconds) {
  const auto total = static_cast<long long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", total / 3600, (total / 60) % 60, total % 60);
  return text;
}

Table learning_curve_table(const std::vector<EvaluationPoint>& curve, bool classification) {
  const double missing = std::numeric_limits<double>::quiet_NaN();
  if (classification) {
    Table table({"update", "epoch", "train_error", "test_error"});
    for (const auto& point : curve)
      table.add_row({static_cast<long long>(point.update), point.epoch, point.train_error.value_or(missing),
                     point.test_error.value_or(missing)});
    return table;
  }
  Table table({"update", "epoch", "train_log_likelihood", "test_log_likelihood"});
  for (const auto& point : curve)
    table.add_row({static_cast<long long>(point.update), point.epoch, point.train_log_likelihood.value_or(missing),
                   point.test_log_likelihood.value_or(missing)});
  return table;
}

// The learning curve's columns as lines against the update: log-likelihoods, or classification errors.
void write_learning_curve_plot(const std::filesystem::path& file, const std::vector<EvaluationPoint>& curve,
                               bool classification) {
  PlotSeries train{classification ? "train error" : "train", {}, {}, {}, {}, false};
  PlotSeries test{classification ? "test error" : "test", {}, {}, {}, {}, true};
  for (const auto& point : curve) {
    const auto train_value = classification ? point.train_error : point.train_log_likelihood;
    const auto test_value = classification ? point.test_error : point.test_log_likelihood;
    if (train_value) train.x.push_back(static_cast<double>(point.update)), train.y.push_back(*train_value);
    if (test_value) test.x.push_back(static_cast<double>(point.update)), test.y.push_back(*test_value);
  }
  std::vector<PlotSeries> series;
  for (auto* line : {&train, &test})
    if (!line->x.empty()) series.push_back(*line);
  PlotOptions plot;
  plot.title = "Learning curve";
  plot.x_label = "update";
  plot.y_label = classification ? "classification error" : "average log-likelihood";
  write_svg_plot(file, series, plot);
}

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json point_json(const std::optional<EvaluationPoint>& point) {
  if (!point) return nullptr;
  nlohmann::json out = {{"update", point->update},
                        {"epoch", point->epoch},
                        {"train_log_likelihood", optional_json(point->train_log_likelihood)},
                        {"test_log_likelihood", optional_json(point->test_log_likelihood)}};
  if (point->train_error || point->test_error) {
    out["train_error"] = optional_json(point->train_error);
    out["test_error"] = optional_json(point->test_error);
  }
  return out;
}

// The number of classes: --classes, or one more than the largest training label (at least 2).
int class_count(const TrainArguments& arguments, const std::vector<int>& labels) {
  if (arguments.classes > 0) return arguments.classes;
  const int largest = labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end());
  return std::max(largest + 1, 2);
}

// Refuses an option that `algorithm` would ignore, naming it, so that a typo in --algo cannot silently drop a
// setting.
void refuse_ignored_options(const CLI::App& command, Algorithm algorithm) {
  const std::string name = to_string(algorithm);
  const bool dcp = algorithm == Algorithm::sdcp || algorithm == Algorithm::csdcp;
  const auto refuse_unless = [&](bool applies, const std::string& option, const std::string& applies_to) {
    require(applies || command.count(option) == 0,
            option + " applies to " + applies_to + " only; --algo " + name + " would ignore it");
  };
  refuse_unless(algorithm != Algorithm::exact && algorithm != Algorithm::mfcd, "--operator",
                "the sampling algorithms (exact and mfcd sample nothing)");
  refuse_unless(dcp, "--d", "sdcp and csdcp");
  refuse_unless(dcp, "--k-inner", "sdcp and csdcp");
  refuse_unless(algorithm == Algorithm::pt, "--replicas", "pt");
  refuse_unless(algorithm == Algorithm::fpcd, "--fast-lr", "fpcd");
  refuse_unless(algorithm == Algorithm::fpcd, "--fast-decay", "fpcd");
  require(algorithm != Algorithm::fpcd || command.count("--fast-lr") > 0,
          "--fast-lr: fpcd needs the fast learning rate ε_F (001 §2 takes it larger than --lr)");
}

void run_train(const CLI::App& command, const TrainArguments& arguments) {
  const Algorithm algorithm = parse_algorithm(arguments.algorithm);
  refuse_ignored_options(command, algorithm);
  TrainingOptions options = arguments.options;
  apply_algorithm(options, algorithm, options.inner_steps);
  options.rule = parse_unit_rule(arguments.rule);
  if (arguments.inner_sweeps > 0) options.sampling_steps = arguments.inner_sweeps;
  if (command.count("--fast-lr") > 0) options.fast_learning_rate = arguments.fast_learning_rate;
  options.schedule = parse_learning_rate_schedule(arguments.schedule);
  require(!arguments.zero_visible_bias || command.count("--init") == 0,
          "--zero-visible-bias and --init both choose the initial biases; give one (--init zero is the same)");
  apply(parse_parameter_initialisation(arguments.zero_visible_bias ? "zero" : arguments.initialisation), options);
  if (options.checkpoint_interval <= 0) options.checkpoint_interval = options.evaluation_interval;
  options.checkpoint_path = (std::filesystem::path(arguments.out) / "checkpoint.ckpt").string();
  options.validate();
  const std::filesystem::path out = prepare_output_directory(arguments.out);

  require(arguments.test_labels.empty() || !arguments.labels.empty(), "--test-labels needs --labels");
  require(arguments.classes == 0 || !arguments.labels.empty(), "--classes needs --labels");
  require(arguments.test_labels.empty() == arguments.test.empty() || arguments.labels.empty(),
          "--labels: a classification run needs --test-labels exactly when it has --test");
  MatrixD train =
      options.resample_binarisation ? load_grey_levels(arguments.data) : to_real(load_binary_matrix(arguments.data));
  MatrixD test = arguments.test.empty() ? MatrixD() : to_real(load_binary_matrix(arguments.test));
  const bool classification = !arguments.labels.empty();
  if (classification) {
    const std::vector<int> labels = load_labels(arguments.labels);
    options.label_classes = class_count(arguments, labels);
    options.validate();
    train = append_one_hot_labels(train, labels, options.label_classes, "--labels " + arguments.labels);
    if (test.size() > 0)
      test = append_one_hot_labels(test, load_labels(arguments.test_labels), options.label_classes,
                                   "--test-labels " + arguments.test_labels);
  }
  const auto picture_shape = image_shape(arguments.image_shape, train.cols() - options.label_classes);
  Trainer trainer(options, train, test, arguments.hidden);
  if (arguments.resume) {
    require(std::filesystem::exists(options.checkpoint_path),
            "--resume: no checkpoint " + options.checkpoint_path + " to resume from");
    trainer.load_checkpoint(options.checkpoint_path);
    std::cerr << "resuming at update " << trainer.updates_done() << '\n';
  }

  nlohmann::json configuration = to_json(options);
  configuration["algorithm"] = arguments.algorithm;
  configuration["data"] = arguments.data;
  configuration["test"] = arguments.test;
  configuration["n_visible"] = train.cols();
  if (picture_shape) configuration["image_shape"] = {picture_shape->first, picture_shape->second};
  if (classification) {
    configuration["labels"] = arguments.labels;
    configuration["test_labels"] = arguments.test_labels;
  }
  configuration["n_hidden"] = arguments.hidden;
  configuration["training_samples"] = train.rows();
  nlohmann::json record = make_run_record("train", configuration, options.seed);

  TrainingHooks hooks;
  interrupting_signal = 0;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  hooks.interrupt_requested = [] { return interrupting_signal.load() != 0; };
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  std::optional<double> latest_likelihood;
  hooks.on_evaluation = [&](const EvaluationPoint& point) { latest_likelihood = point.train_log_likelihood; };
  const auto start = std::chrono::steady_clock::now();
  auto last_print = start;
  const std::int64_t first_update = trainer.updates_done();
  hooks.on_update = [&](std::int64_t update) {
    if (!terminal) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_print < std::chrono::milliseconds(250) && update != options.updates) return;
    last_print = now;
    const double elapsed = std::chrono::duration<double>(now - start).count();
    const double rate = static_cast<double>(update - first_update) / std::max(elapsed, 1e-9);
    const double remaining = static_cast<double>(options.updates - update) / std::max(rate, 1e-9);
    std::fprintf(stderr, "\rupdate %lld/%lld  ETA %s  train LL %s   ", static_cast<long long>(update),
                 static_cast<long long>(options.updates), format_duration(remaining).c_str(),
                 latest_likelihood ? std::to_string(*latest_likelihood).c_str() : "n/a");
  };

  const TrainingSummary summary = trainer.run(hooks);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (terminal) std::fputc('\n', stderr);

  record["summary"] = {{"termination", to_string(summary.termination)},
                       {"message", summary.message},
                       {"updates_done", summary.updates_done},
                       {"seconds", summary.seconds},
                       {"best", point_json(summary.best)},
                       {"final", point_json(summary.final)}};
  std::string pictures = "learning_curve.svg";
  if (picture_shape) {
    const Matrix<double>& weights = trainer.model().weights;
    record["filters_png"] = write_weight_filters(out / "filters.png", weights.leftCols(picture_shape->first * picture_shape->second),
                                                 *picture_shape, FilterContrast::per_tile, 10);
    pictures += ", filters.png";
  }
  write_learning_curve_plot(out / "learning_curve.svg", trainer.learning_curve(), classification);
  if (classification) {
    save_classification_rbm(out / "model.npz", {trainer.model(), options.label_classes}, record);
  } else {
    save_rbm(out / "model.npz", trainer.model(), record);
  }
  learning_curve_table(trainer.learning_curve(), classification).write_csv(out / "learning_curve.csv");
  write_json_file(out / "run.json", record);

  std::cout << summary.message << '\n';
  if (summary.final && summary.final->train_log_likelihood)
    std::cout << "final average log-likelihood: train " << *summary.final->train_log_likelihood
              << (summary.final->test_log_likelihood ? ", test " + std::to_string(*summary.final->test_log_likelihood)
                                                     : std::string())
              << '\n';
  if (summary.final && summary.final->train_error)
    std::cout << "final classification error: train " << *summary.final->train_error
              << (summary.final->test_error ? ", test " + std::to_string(*summary.final->test_error) : std::string())
              << '\n';
  std::cout << "wrote " << (out / "model.npz").string() << ", learning_curve.csv, " << pictures << ", run.json\n";
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
  command->add_option("--classes", arguments->classes, "label classes K (default: 1 + the largest training label)")
      ->check(CLI::Range(2, 1 << 16));
  command->add_flag("--resample-binarisation", options.resample_binarisation,
                    "--data holds grey levels (|u1 intensities or floats in [0, 1]); every use of a row draws its "
                    "binary version afresh (000 §4.1)");
  command->add_option("--hidden", arguments->hidden, "number of hidden units")->required()->check(CLI::PositiveNumber);
  command->add_option("--algo", arguments->algorithm, "cd|pcd|mfcd|fpcd|pt|exact|cg|sdcp|csdcp")->capture_default_str();
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
  command->add_option("--batch", options.batch_size, "mini-batch size (0 = full batch)")->capture_default_str();
  command->add_option("--momentum", options.momentum, "momentum")->capture_default_str();
  command->add_option("--weight-decay", options.weight_decay, "L2 weight decay on W")->capture_default_str();
  command->add_option("--updates", options.updates, "parameter updates")->capture_default_str();
  command->add_option("--eval-every", options.evaluation_interval, "evaluate every E updates (0: never)")
      ->capture_default_str();
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
  command->callback([arguments, command] { run_train(*command, *arguments); });
}

}  // namespace
}  // namespace rbmix::cli

RBMIX_REGISTER_COMMAND("", rbmix::cli::attach)
