// rbmix trajectory ...: list the models a training run kept along its trajectory (rbmix train --trajectory K;
// lib/rbmix/training/trajectory_file.hpp), extract one of them as a model file, and estimate log Z and the train
// log-likelihood of every one of them (lib/rbmix/training/saved_model_bridges.hpp).
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data_option.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/io/output_directory_lock.hpp"
#include "rbmix/progress_option.hpp"
#include "rbmix/report/progress.hpp"
#include "rbmix/report/run_record.hpp"
#include "rbmix/report/table.hpp"
#include "rbmix/training/saved_model_bridges.hpp"
#include "rbmix/training/trajectory_file.hpp"

namespace rbmix::cli::trajectory_commands {
namespace {

void attach_list(CLI::App& trajectory) {
  struct List {
    std::string file;
    bool json = false;
  };
  auto list = std::make_shared<List>();
  CLI::App* command = trajectory.add_subcommand("list", "The models of a trajectory file: update numbers and sizes");
  command->add_option("file", list->file, "trajectory file (trajectory.rbtraj)")->required();
  command->add_flag("--json", list->json, "print JSON");
  command->callback([list] {
    const Trajectory loaded = read_trajectory(list->file);
    nlohmann::json models = nlohmann::json::array();
    for (std::size_t index = 0; index < loaded.models.size(); ++index) {
      const Rbm& rbm = loaded.models[index].parameters;
      models.push_back({{"index", index},
                        {"update", loaded.models[index].update},
                        {"max_abs_weight", rbm.weights.cwiseAbs().maxCoeff()},
                        {"mean_abs_weight", rbm.weights.cwiseAbs().mean()}});
    }
    if (list->json) {
      std::cout << nlohmann::json{{"file", list->file},
                                  {"n_visible", loaded.n_visible},
                                  {"n_hidden", loaded.n_hidden},
                                  {"configuration", nlohmann::json::parse(loaded.configuration, nullptr, false)},
                                  {"models", models}}
                       .dump(2)
                << '\n';
      return;
    }
    std::cout << list->file << ": " << loaded.models.size() << " models of " << loaded.n_visible << " visible, "
              << loaded.n_hidden << " hidden units\nconfiguration: " << loaded.configuration << '\n'
              << "index  update  max|W|  mean|W|\n";
    for (const auto& model : models)
      std::cout << std::setw(5) << model["index"].get<std::size_t>() << std::setw(8)
                << model["update"].get<std::int64_t>() << "  " << std::setprecision(4)
                << model["max_abs_weight"].get<double>() << "  " << model["mean_abs_weight"].get<double>() << '\n';
  });
}

void attach_extract(CLI::App& trajectory) {
  struct Extract {
    std::string file;
    std::optional<std::int64_t> update;
    std::optional<std::size_t> index;
    std::string out;
  };
  auto extract = std::make_shared<Extract>();
  CLI::App* command =
      trajectory.add_subcommand("extract", "Write one model of a trajectory file as a model file (.npz)");
  command->add_option("file", extract->file, "trajectory file (trajectory.rbtraj)")->required();
  auto* update = command->add_option("--update", extract->update, "the model saved at this update");
  auto* index = command->add_option("--index", extract->index, "the model at this place of the list (0 = first)");
  update->excludes(index);
  command->add_option("--out", extract->out, "output model file (.npz)")->required();
  command->callback([extract] {
    require(extract->update.has_value() || extract->index.has_value(), "trajectory extract: give --update or --index");
    const Trajectory loaded = read_trajectory(extract->file);
    const TrajectoryModel* chosen = nullptr;
    require(!loaded.models.empty(), extract->file + ": the trajectory holds no model yet");
    if (extract->index) {
      require(*extract->index < loaded.models.size(),
              "--index " + std::to_string(*extract->index) + ": " + extract->file + " holds " +
                  std::to_string(loaded.models.size()) + " models (0 to " +
                  std::to_string(loaded.models.size() - 1) + ")");
      chosen = &loaded.models[*extract->index];
    } else {
      for (const auto& model : loaded.models)
        if (model.update == *extract->update) chosen = &model;
      require(chosen != nullptr, "--update " + std::to_string(*extract->update) + ": " + extract->file +
                                     " kept no model at that update (rbmix trajectory list shows which it kept)");
    }
    save_rbm(extract->out, chosen->parameters,
             {{"command", "trajectory extract"}, {"trajectory", extract->file}, {"update", chosen->update}});
    std::cout << "wrote " << extract->out << " (the model of update " << chosen->update << ")\n";
  });
}

// The trajectory file and the run's binary training rows of an offline log Z command, checked against each other:
// an InputError (exit 2) names the file that is wrong.
std::pair<Trajectory, MatrixD> load_trajectory_and_rows(const std::string& file, const std::string& data) {
  Trajectory loaded = read_trajectory(file);
  MatrixD rows = load_rows(data, false, "binary rows are needed (the run's training rows)");
  require(rows.cols() == loaded.n_visible, "--data " + data + " has " + std::to_string(rows.cols()) + " columns but " +
                                               file + " has " + std::to_string(loaded.n_visible) + " visible units");
  require(!loaded.models.empty(), file + ": the trajectory holds no model yet");
  return {std::move(loaded), std::move(rows)};
}

// What both offline log Z commands take besides their estimator's options: the trajectory, the run's training rows,
// where to write, JSON or a table, and the progress line.
struct OfflineLogPartitionArguments {
  std::string file;
  std::string data;
  std::string out;
  bool json = false;
  ProgressFlags progress;
};

void add_offline_log_partition_options(CLI::App& command, OfflineLogPartitionArguments& arguments) {
  command.add_option("file", arguments.file, "trajectory file (trajectory.rbtraj)")->required();
  command.add_option("--data", arguments.data, "the run's binary training rows (.npy, .csv or .png)")->required();
  command.add_option("--out", arguments.out, "output directory for log_partition.csv and run.json");
  command.add_flag("--json", arguments.json, "print the results as JSON");
  add_progress_options(command, arguments.progress);
}

void attach_log_partition(CLI::App& trajectory) {
  struct LogPartition : OfflineLogPartitionArguments {
    SavedModelBridgeOptions options;
  };
  auto arguments = std::make_shared<LogPartition>();
  CLI::App* command = trajectory.add_subcommand(
      "log-partition",
      "log Z and the train log-likelihood of every model of a trajectory file: Bennett's acceptance ratio between "
      "consecutive models, chained from the exact log Z of the independent model");
  add_offline_log_partition_options(*command, *arguments);
  command->add_option("--samples", arguments->options.samples, "Gibbs chains per model and link, one sample each")
      ->capture_default_str();
  command->add_option("--sweeps", arguments->options.sweeps, "Gibbs sweeps from a training row before the sample")
      ->capture_default_str();
  command->add_option("--seed", arguments->options.seed, "random seed")->capture_default_str();
  command->callback([arguments] {
    const auto [loaded, rows] = load_trajectory_and_rows(arguments->file, arguments->data);
    const std::filesystem::path out = arguments->out;
    std::optional<OutputDirectoryLock> lock;
    if (!out.empty()) lock.emplace(out);
    // At 784 × 500 a link of 1 000 chains × 100 sweeps on each side takes seconds, a trajectory minutes.
    ProgressReporter progress("trajectory log-partition", "link", static_cast<std::int64_t>(loaded.models.size()),
                              arguments->progress.mode());
    SavedModelBridgeOptions options = arguments->options;
    options.on_link = [&progress](std::size_t links_done) { progress.update(static_cast<std::int64_t>(links_done)); };
    const std::vector<SavedModelLogPartition> rungs = saved_model_log_partitions(loaded, rows, options);
    progress.finish();
    Table table({"update", "delta_log_z", "delta_log_z_se", "delta_log_z_fep", "delta_log_z_fep_se", "log_z",
                 "log_z_se", "train_log_likelihood", "distinct_rows_log_z", "exceeds_distinct_rows"});
    nlohmann::json models = nlohmann::json::array();
    std::string exceeding;  // "update 120, update 200": the models whose estimate fails the distinct-rows check
    for (const SavedModelLogPartition& rung : rungs) {
      table.add_row({static_cast<long long>(rung.update), rung.bennett.value, rung.bennett.standard_error,
                     rung.free_energy_perturbation.value, rung.free_energy_perturbation.standard_error,
                     rung.log_partition.value, rung.log_partition.standard_error, rung.train_log_likelihood,
                     rung.distinct_rows_bound, static_cast<long long>(rung.exceeds_distinct_rows() ? 1 : 0)});
      models.push_back({{"update", rung.update},
                        {"delta_log_partition", rung.bennett.value},
                        {"delta_log_partition_standard_error", rung.bennett.standard_error},
                        {"delta_log_partition_fep", rung.free_energy_perturbation.value},
                        {"delta_log_partition_fep_standard_error", rung.free_energy_perturbation.standard_error},
                        {"log_partition", rung.log_partition.value},
                        {"log_partition_standard_error", rung.log_partition.standard_error},
                        {"train_log_likelihood", rung.train_log_likelihood},
                        {"distinct_rows_log_partition", rung.distinct_rows_bound},
                        {"exceeds_distinct_rows", rung.exceeds_distinct_rows() ? 1 : 0}});
      if (rung.exceeds_distinct_rows())
        exceeding += (exceeding.empty() ? "update " : ", update ") + std::to_string(rung.update);
    }
    const std::string warning =
        exceeding.empty() ? ""
                          : "the estimated log Z lies below log Σ e^{-F(v)} over the distinct training rows at " +
                                exceeding + ": it gives those rows a total probability above 1 (the chains missed "
                                            "mass; raise --sweeps or --samples)";
    const nlohmann::json configuration = {
        {"trajectory", arguments->file},
        {"data", arguments->data},
        {"samples", arguments->options.samples},
        {"sweeps", arguments->options.sweeps},
        {"sampler", "Gibbs chains started at the training rows (row b mod rows for chain b), one sample each"},
        {"estimator", "Bennett's acceptance ratio per link, chained from the exact log Z of the independent model"}};
    nlohmann::json record = make_run_record("trajectory log-partition", configuration, arguments->options.seed);
    record["independent_log_partition"] = rungs.front().log_partition.value - rungs.front().bennett.value;
    record["models"] = models;
    record["exceeds_distinct_rows"] = exceeding.empty() ? 0 : 1;
    if (!warning.empty()) record["warnings"] = {warning};
    if (!out.empty()) {
      table.write_csv(out / "log_partition.csv");
      write_run_record(out, record, {"log_partition.csv"});
    }
    if (!warning.empty()) std::cerr << "rbmix: warning: " << warning << '\n';
    if (arguments->json) {
      std::cout << record.dump(2) << '\n';
      return;
    }
    std::cout << arguments->file << ": log Z of " << rungs.size() << " models (" << arguments->options.samples
              << " samples of " << arguments->options.sweeps << " Gibbs sweeps per model and link, seed "
              << arguments->options.seed << ")\n";
    table.print(std::cout);
    if (!out.empty()) std::cout << "wrote " << arguments->out << "/log_partition.csv, run.json\n";
  });
}

void attach_anneal(CLI::App& trajectory) {
  struct Anneal : OfflineLogPartitionArguments {
    SavedModelAnnealingOptions options;
    bool single_precision = false;
  };
  auto arguments = std::make_shared<Anneal>();
  CLI::App* command = trajectory.add_subcommand(
      "anneal",
      "log Z of every model of a trajectory file by the trajectory monitor's sequential Monte Carlo, run along the "
      "saved models after training, with any number of particles");
  add_offline_log_partition_options(*command, *arguments);
  TrajectoryLogPartitionOptions& particles = arguments->options.particles;
  command->add_option("--particles", particles.particles, "particles, in --groups independent groups")
      ->capture_default_str();
  command->add_option("--groups", particles.groups, "independent particle groups, whose spread gives the band")
      ->capture_default_str();
  command->add_option("--resampling-threshold", particles.resampling_threshold,
                      "resample a group when its effective sample size falls below this share of its particles")
      ->capture_default_str();
  command->add_option("--sweeps-per-step", particles.sweeps_per_update,
                      "sweeps that move the particles after each annealing step")
      ->capture_default_str();
  command->add_option("--step-size", arguments->options.step_size,
                      "nats: the spread over the training rows of one step's free-energy change")
      ->capture_default_str();
  command->add_flag("--float", arguments->single_precision, "sweep the particles in float");
  command->add_option("--seed", particles.seed, "random seed")->capture_default_str();
  command->callback([arguments] {
    const auto [loaded, rows] = load_trajectory_and_rows(arguments->file, arguments->data);
    const std::filesystem::path out = arguments->out;
    std::optional<OutputDirectoryLock> lock;
    if (!out.empty()) lock.emplace(out);
    ProgressReporter progress("trajectory anneal", "model", static_cast<std::int64_t>(loaded.models.size()),
                              arguments->progress.mode());
    SavedModelAnnealingOptions options = arguments->options;
    options.particles.single_precision = arguments->single_precision;
    options.on_model = [&progress](std::size_t done) { progress.update(static_cast<std::int64_t>(done)); };
    const std::vector<AnnealedSavedModel> models = anneal_along_saved_models(loaded, rows, options);
    progress.finish();
    Table table({"update", "log_z", "log_z_lower", "log_z_upper", "steps", "resamplings", "train_log_likelihood",
                 "distinct_rows_log_z", "exceeds_distinct_rows"});
    nlohmann::json records = nlohmann::json::array();
    std::int64_t total_steps = 0;
    for (const AnnealedSavedModel& model : models) {
      total_steps += model.steps;
      table.add_row({static_cast<long long>(model.update), model.log_partition.log_partition,
                     model.log_partition.lower, model.log_partition.upper, static_cast<long long>(model.steps),
                     static_cast<long long>(model.log_partition.resamplings), model.train_log_likelihood,
                     model.distinct_rows_bound, static_cast<long long>(model.exceeds_distinct_rows() ? 1 : 0)});
      records.push_back({{"update", model.update},
                         {"log_partition", model.log_partition.log_partition},
                         {"log_partition_band", {model.log_partition.lower, model.log_partition.upper}},
                         {"steps", model.steps},
                         {"resamplings", model.log_partition.resamplings},
                         {"train_log_likelihood", model.train_log_likelihood},
                         {"distinct_rows_log_partition", model.distinct_rows_bound},
                         {"exceeds_distinct_rows", model.exceeds_distinct_rows() ? 1 : 0}});
    }
    const TrajectoryLogPartitionOptions& used = options.particles;
    const nlohmann::json configuration = {{"trajectory", arguments->file},
                                          {"data", arguments->data},
                                          {"particles", used.particles},
                                          {"groups", used.groups},
                                          {"resampling_threshold", used.resampling_threshold},
                                          {"sweeps_per_step", used.sweeps_per_update},
                                          {"step_size", options.step_size},
                                          {"reference_rows", options.reference_rows},
                                          {"precision", used.single_precision ? "float" : "double"},
                                          {"estimator",
                                           "sequential Monte Carlo from the first model's independent model along "
                                           "every saved model, in the trajectory monitor's sized steps"}};
    nlohmann::json record = make_run_record("trajectory anneal", configuration, used.seed);
    record["models"] = records;
    record["annealing_steps"] = total_steps;
    if (!out.empty()) {
      table.write_csv(out / "log_partition.csv");
      write_run_record(out, record, {"log_partition.csv"});
    }
    if (arguments->json) {
      std::cout << record.dump(2) << '\n';
      return;
    }
    std::cout << arguments->file << ": log Z of " << models.size() << " models (" << used.particles
              << " particles in " << used.groups << " groups, " << total_steps << " annealing steps, seed "
              << used.seed << ")\n";
    table.print(std::cout);
    if (!out.empty()) std::cout << "wrote " << arguments->out << "/log_partition.csv, run.json\n";
  });
}

void attach_trajectory_commands(CLI::App& app) {
  CLI::App* trajectory =
      app.add_subcommand("trajectory", "Inspect the models a training run kept (rbmix train --trajectory K)");
  trajectory->require_subcommand(1);
  attach_list(*trajectory);
  attach_extract(*trajectory);
  attach_log_partition(*trajectory);
  attach_anneal(*trajectory);
}

}  // namespace
}  // namespace rbmix::cli::trajectory_commands

RBMIX_REGISTER_COMMAND("", rbmix::cli::trajectory_commands::attach_trajectory_commands)
