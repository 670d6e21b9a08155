// rbmix train: trains a binary RBM on a .npy data set with any algorithm and unit rule (docs/algorithms/training.md §3)
// and writes, into --out: model.npz (the plain RBM), learning_curve.csv and its plot learning_curve.svg, filters.png
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
#include "rbmix/io/binary_data_file.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/picture_output.hpp"
#include "rbmix/progress_option.hpp"
#include "rbmix/report/progress.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/svg_plot.hpp"
#include "rbmix/report/table.hpp"
#include "rbmix/training/best_evaluation.hpp"
#include "rbmix/training/parameter_initialisation.hpp"
#include "rbmix/training/trainer.hpp"
#include "rbmix/training/training_settings.hpp"

namespace rbmix::cli::train_command {
namespace {

std::atomic<int> interrupting_signal{0};
extern "C" void on_interrupt(int signal) { interrupting_signal = signal; }

// What the command line sets: the training settings (their table, defaults and checks are the library's,
// training_settings.hpp, shared with Python's rbmix.train) as given, and the arguments that are not training settings.
struct TrainArguments {
  std::map<std::string, std::string, std::less<>> setting_values;  // by Python name, for the options given
  std::string data;
  std::string test;
  std::string labels;
  std::string test_labels;
  std::string out;
  bool resume = false;
  std::string image_shape;
  ProgressFlags progress;
};

// A final log-likelihood this far (nats per row) below the uniform model's −n log 2 means training failed: the
// AIS band of a trained model is far narrower, and a model that learned anything beats the uniform one.
constexpr double below_uniform_warning_nats = 1.0;

// The learning curve's columns: update, epoch and every measured field that any point holds (learning_curve.hpp); a
// point that lacks a field, e.g. an evaluation written by an older rbmix, gets NaN.
Table learning_curve_table(const std::vector<EvaluationPoint>& curve) {
  const std::vector<EvaluationField> present = measured_fields(curve);
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
  for (const auto& named : evaluation_fields)
    if ((*point.*named.field)) out[named.name] = *(*point.*named.field);
  return out;
}

// The uniform model's average log-likelihood, −n log 2 over the n visible units (not the label group).
double uniform_log_likelihood(Eigen::Index n_visible) { return -static_cast<double>(n_visible) * std::numbers::ln2; }

// The training settings given on the command line, by Python name, as the library's table reads them.
GivenSettings given_settings(const CLI::App& command, const TrainArguments& arguments) {
  GivenSettings given;
  for (const TrainingSetting& setting : training_settings()) {
    if (command.count(std::string(setting.option)) == 0) continue;
    const std::string name(setting.name);
    given[name] = setting.type == SettingType::flag ? "true" : arguments.setting_values.at(name);
  }
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

// Reads every data file and arranges the rows as the request says (training_settings.hpp). Nothing is written
// before this succeeds.
TrainingRows load_training_rows(const TrainArguments& arguments, TrainingRequest& request) {
  TrainingData data;
  data.train = load_rows(arguments.data, request.options.resample_binarisation,
                         "add --resample-binarisation to draw binary rows from them afresh at every use (000 §4.1)");
  data.train_name = "--data " + arguments.data;
  if (!arguments.test.empty()) data.test = to_real(load_binary_matrix(arguments.test));
  if (!arguments.labels.empty()) data.labels = load_labels(arguments.labels);
  if (!arguments.test_labels.empty()) data.test_labels = load_labels(arguments.test_labels);
  data.labels_name = "--labels " + arguments.labels;
  data.test_labels_name = "--test-labels " + arguments.test_labels;
  return arrange_training_rows(request, std::move(data), SettingSpelling::command_line);
}

// run.json's configuration: every training option and every argument that shaped the run.
nlohmann::json training_configuration(const TrainArguments& arguments, const TrainingRequest& request,
                                      const TrainingRows& rows, const std::optional<ImageShape>& picture_shape) {
  nlohmann::json configuration = to_json(request.options);
  configuration["algorithm"] = to_string(request.algorithm);
  configuration["data"] = arguments.data;
  configuration["test"] = arguments.test;
  configuration["rows"] = {rows.selected.first, rows.selected.last};
  configuration["n_visible"] = rows.train.cols();
  if (picture_shape) configuration["image_shape"] = {picture_shape->first, picture_shape->second};
  if (rows.classification) {
    configuration["labels"] = arguments.labels;
    configuration["test_labels"] = arguments.test_labels;
  }
  configuration["n_hidden"] = request.hidden;
  configuration["training_samples"] = rows.train.rows();
  configuration["keep"] = request.kept == KeptModel::best ? "best" : "final";
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
      : file_(std::move(file)), trainer_(trainer), classification_(classification), best_(trainer.learning_curve()) {}

  void observe(const EvaluationPoint& point, const nlohmann::json& record) {
    if (!best_.observe(point)) return;
    nlohmann::json best_record = record;
    best_record["best"] = point_json(point);
    save_model(file_, trainer_, classification_, best_record);
  }

 private:
  std::filesystem::path file_;
  const Trainer& trainer_;
  bool classification_;
  BestEvaluation best_;
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
  if (!trainer.options().trajectory_path.empty()) files.emplace_back("trajectory.rbtraj");
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
  if (last.train_log_likelihood_lower && last.train_log_likelihood_upper)
    std::cout << "  band (log Z +- 3 standard errors"
              << (trainer.monitor().kind() == MonitorKind::trajectory ? ", or the groups' lognormal band where wider"
                                                                      : "")
              << "): train [" << *last.train_log_likelihood_lower << ", " << *last.train_log_likelihood_upper << "]"
              << (last.test_log_likelihood_lower && last.test_log_likelihood_upper
                      ? ", test [" + std::to_string(*last.test_log_likelihood_lower) + ", " +
                            std::to_string(*last.test_log_likelihood_upper) + "]"
                      : std::string())
              << '\n';
  if (last.train_log_likelihood_exact)
    std::cout << "  exact beside it: train " << *last.train_log_likelihood_exact
              << test_part(last.test_log_likelihood_exact) << '\n';
  if (last.train_pseudo_log_likelihood)
    std::cout << "final pseudo-log-likelihood (a proxy): train " << *last.train_pseudo_log_likelihood
              << test_part(last.test_pseudo_log_likelihood) << '\n';
  if (last.train_error)
    std::cout << "final classification error: train " << *last.train_error << test_part(last.test_error) << '\n';
}

void run_train(const CLI::App& command, const TrainArguments& arguments) {
  TrainingRequest request =
      assemble_training_request(given_settings(command, arguments), SettingSpelling::command_line,
                                (std::filesystem::path(arguments.out) / "checkpoint.ckpt").string(),
                                (std::filesystem::path(arguments.out) / "trajectory.rbtraj").string());
  warn_identical_algorithm(request.algorithm, request.options);
  TrainingRows rows = load_training_rows(arguments, request);
  const TrainingOptions& options = request.options;
  const Eigen::Index n_visible = rows.train.cols() - options.label_classes;
  const auto picture_shape = image_shape(arguments.image_shape, n_visible);
  nlohmann::json configuration = training_configuration(arguments, request, rows, picture_shape);
  const bool classification = rows.classification;
  // The rows move into the trainer: a copy of MNIST's 50 000 training rows in double is 313 MB, and where page
  // faults are dear (virtual machines) it cost about as much CPU as an epoch of PCD-1 at 500 hidden units.
  Trainer trainer(options, std::move(rows.train), std::move(rows.test), request.hidden);
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

  const bool keep_best = request.kept == KeptModel::best;
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
  CLI::App* command =
      parent.add_subcommand("train", "Train an RBM (CD, PCD, MF-CD, FPCD, PT, exact, CG, S-DCP, CS-DCP)");
  command
      ->add_option("--data", arguments->data,
                   "training data (.npy, one 0/1 sample per row; grey levels with --resample-binarisation)")
      ->required();
  command->add_option("--test", arguments->test, "test data (.npy)");
  command->add_option("--labels", arguments->labels,
                      "training labels (.npy, |u1): train a classification RBM (000 §4.2) on (row, label)");
  command->add_option("--test-labels", arguments->test_labels, "test labels (.npy, |u1; with --labels and --test)");
  // The training settings: names, defaults, help and checks from the library's table, shared with Python.
  for (const TrainingSetting& setting : training_settings()) {
    const std::string option(setting.option);
    const std::string help = training_setting_help(setting);
    if (setting.type == SettingType::flag) {
      command->add_flag(option, help);
      continue;
    }
    CLI::Option* added = command->add_option(option, arguments->setting_values[std::string(setting.name)], help);
    added->type_name(setting.type == SettingType::integer ? "INT"
                     : setting.type == SettingType::real  ? "FLOAT"
                                                          : "TEXT");
    if (!setting.default_value.empty()) added->default_str(std::string(setting.default_value));
    if (setting.required) added->required();
  }
  command->add_option("--out", arguments->out, "output directory")->required();
  command->add_option("--image-shape", arguments->image_shape,
                      "HxW of the pictures in filters.png (default: square when the data's width is)");
  command->add_flag("--resume", arguments->resume, "continue from the checkpoint in --out");
  add_progress_options(*command, arguments->progress);
  command->callback([arguments, command] { run_train(*command, *arguments); });
}

}  // namespace
}  // namespace rbmix::cli::train_command

RBMIX_REGISTER_COMMAND("", rbmix::cli::train_command::attach)
