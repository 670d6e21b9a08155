// rbmix trajectory ...: list the models a training run kept along its trajectory (rbmix train --trajectory K;
// lib/rbmix/training/trajectory_file.hpp) and extract one of them as a model file.
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "rbmix/command_registry.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/model_file.hpp"
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

void attach_trajectory_commands(CLI::App& app) {
  CLI::App* trajectory =
      app.add_subcommand("trajectory", "Inspect the models a training run kept (rbmix train --trajectory K)");
  trajectory->require_subcommand(1);
  attach_list(*trajectory);
  attach_extract(*trajectory);
}

}  // namespace
}  // namespace rbmix::cli::trajectory_commands

RBMIX_REGISTER_COMMAND("", rbmix::cli::trajectory_commands::attach_trajectory_commands)
