// rbmix model ...: make a random model (003 §4.1: weights uniform in [−C, C]), describe a model file, and draw its
// weight filters.
#include <cmath>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "rbmix/command_registry.hpp"
#include "rbmix/option_checks.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/io/model_file.hpp"
#include "rbmix/model/random_rbm.hpp"
#include "rbmix/picture_output.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix::cli::model_commands {
namespace {

// CLI11's NonNegativeNumber lets NaN and infinity through and prints the largest double in its message.
const CLI::Validator finite_non_negative(
    [](std::string& input) {
      double value = 0.0;
      if (CLI::detail::lexical_cast(input, value) && std::isfinite(value) && value >= 0.0) return std::string();
      return "must be a finite number >= 0, got " + input;
    },
    "FINITE >= 0");


void attach_random(CLI::App& model) {
  struct Random {
    Eigen::Index visible = 0;
    Eigen::Index hidden = 0;
    double weight_range = 0.0;
    double bias_range = 0.0;
    std::uint64_t seed = 1;
    std::string out;
  };
  auto random = std::make_shared<Random>();
  CLI::App* command = model.add_subcommand(
      "random", "A model with weights uniform in [−C, C] and biases uniform in [−B, B] (003 §4.1 uses B = 0)");
  command->add_option("--visible", random->visible, "visible units m")->required()->check(positive_count);
  command->add_option("--hidden", random->hidden, "hidden units n")->required()->check(positive_count);
  command->add_option("--weight-range", random->weight_range, "C")->required()->check(finite_non_negative);
  command->add_option("--bias-range", random->bias_range, "B")->check(finite_non_negative)->capture_default_str();
  command->add_option("--seed", random->seed, "random seed")->required();
  command->add_option("--out", random->out, "output model file (.npz)")->required();
  command->callback([random] {
    const Rbm rbm =
        uniform_random_rbm(random->visible, random->hidden, random->weight_range, random->bias_range, random->seed);
    const nlohmann::json provenance = {{"command", "model random"},
                                       {"distribution", "uniform"},
                                       {"weight_range", random->weight_range},
                                       {"bias_range", random->bias_range},
                                       {"seed", random->seed},
                                       {"stream", "RandomStream(seed, 0, initialisation): W, b, c in row-major order"}};
    save_rbm(random->out, rbm, provenance);
    std::cout << "wrote " << random->out << " (" << rbm.n_visible() << " visible, " << rbm.n_hidden() << " hidden)\n";
  });
}

nlohmann::json value_range(const Eigen::Ref<const Eigen::ArrayXd>& values) {
  if (values.size() == 0) return nullptr;
  double mean_abs = values.abs().mean();
  // Values near the largest double overflow the plain sum; a sum of |x|/n cannot exceed the largest |x|.
  if (!std::isfinite(mean_abs)) mean_abs = (values.abs() / static_cast<double>(values.size())).sum();
  return {{"min", values.minCoeff()}, {"max", values.maxCoeff()}, {"mean_abs", mean_abs}};
}

void attach_info(CLI::App& model) {
  struct Info {
    std::string file;
    bool json = false;
  };
  auto info = std::make_shared<Info>();
  CLI::App* command = model.add_subcommand("info", "Shape, metadata and parameter ranges of a model file");
  command->add_option("file", info->file, "model file (.npz)")->required();
  command->add_flag("--json", info->json, "print JSON");
  command->callback([info] {
    const LoadedRbm loaded = load_rbm(info->file);
    const Rbm& rbm = loaded.rbm;
    const nlohmann::json report = {
        {"file", info->file},
        {"n_visible", rbm.n_visible()},
        {"n_hidden", rbm.n_hidden()},
        {"format_version", loaded.metadata["format_version"]},
        {"rbmix_version", loaded.metadata.value("rbmix_version", "unknown")},
        {"provenance", loaded.metadata.value("provenance", nlohmann::json::object())},
        {"weights", value_range(Eigen::Map<const Eigen::ArrayXd>(rbm.weights.data(), rbm.weights.size()))},
        {"visible_bias", value_range(rbm.visible_bias.array())},
        {"hidden_bias", value_range(rbm.hidden_bias.array())},
    };
    if (info->json) {
      std::cout << report.dump(2) << '\n';
      return;
    }
    std::cout << "file: " << info->file << '\n'
              << "units: " << rbm.n_visible() << " visible, " << rbm.n_hidden() << " hidden\n"
              << "written by rbmix " << report["rbmix_version"].get<std::string>() << " (format version "
              << report["format_version"] << ")\n"
              << "provenance: " << report["provenance"].dump() << '\n';
    for (const char* name : {"weights", "visible_bias", "hidden_bias"}) {
      if (report[name].is_null()) continue;
      std::cout << name << ": min " << report[name]["min"] << ", max " << report[name]["max"] << ", mean |.| "
                << report[name]["mean_abs"] << '\n';
    }
  });
}

// Each hidden unit's weights as one tile of a PNG grid (weight_filters.hpp says how weights become grey levels).
void attach_show(CLI::App& model) {
  struct Show {
    std::string file;
    bool filters = false;
    std::string out;
    std::string image_shape;
    std::string contrast = "per-tile";
    Eigen::Index columns = 10;
  };
  auto show = std::make_shared<Show>();
  CLI::App* command = model.add_subcommand("show", "Draw a model as a picture: --filters, its weight filters");
  command->add_option("file", show->file, "model file (.npz)")->required();
  command->add_flag("--filters", show->filters, "each hidden unit's weights as a tile of a grid")->required();
  command->add_option("--out", show->out, "output picture (.png)")->required();
  command->add_option("--image-shape", show->image_shape, "HxW of a tile (default: square when m is)");
  command->add_option("--contrast", show->contrast,
                      "per-tile: each tile scaled to its own max|w|; global: all to max|W|")
      ->check(CLI::IsMember({"per-tile", "global"}))
      ->capture_default_str();
  command->add_option("--columns", show->columns, "tiles per row")->check(positive_count)->capture_default_str();
  command->callback([show] {
    const LoadedRbm loaded = load_rbm(show->file);
    const auto shape = image_shape(show->image_shape, loaded.rbm.n_visible());
    require(shape.has_value(), show->file + ": " + std::to_string(loaded.rbm.n_visible()) +
                                   " visible units are not a square picture; give --image-shape HxW");
    const std::string caption = write_weight_filters(show->out, loaded.rbm.weights, *shape,
                                                     parse_filter_contrast(show->contrast), show->columns);
    std::cout << "wrote " << show->out << ": " << loaded.rbm.n_hidden() << " filters of " << shape->first << "x"
              << shape->second << "; " << caption << '\n';
  });
}

void attach_model_commands(CLI::App& app) {
  CLI::App* model = app.add_subcommand("model", "Make and inspect model files");
  model->require_subcommand(1);
  attach_random(*model);
  attach_info(*model);
  attach_show(*model);
}

}  // namespace
}  // namespace rbmix::cli::model_commands

RBMIX_REGISTER_COMMAND("", rbmix::cli::model_commands::attach_model_commands)
