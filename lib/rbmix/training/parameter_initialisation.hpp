#pragma once
// ParameterInitialisation: how a training run's parameters start (docs/algorithms/training.md §3.1), as one named
// choice for the command line (`--init`) and the experiments. The weights always come first from the run's
// initialisation stream, so every choice starts from the same W for the same seed and scale.
//   base-rate  W ~ N(0, 0.01²), b = logit of the clipped data mean, c = 0 (rbmix's default)
//   zero       W ~ N(0, 0.01²), b = 0, c = 0
//   normal:S   W, b and c ~ N(0, S²) (003 §4.2 with S = 0.01: "weights and biases drawn from … standard deviation
//              0.01")
#include <string>
#include <string_view>

#include "rbmix/training/training_options.hpp"

namespace rbmix {

struct ParameterInitialisation {
  enum class Biases { base_rate, zero, normal };
  Biases biases = Biases::base_rate;
  double scale = 0.01;  // standard deviation of W, and with `normal` of b and c

  bool operator==(const ParameterInitialisation&) const = default;
};

// The help of `--init`, the same in every command and experiment that takes it.
inline constexpr std::string_view parameter_initialisation_help =
    "initial parameters: base-rate (W ~ N(0, 0.01²), b = logit of the data mean, c = 0), zero, or normal:S (W, b, "
    "c ~ N(0, S²))";

// "base-rate", "zero" or "normal:S" with S > 0 finite; anything else throws InputError naming --init.
ParameterInitialisation parse_parameter_initialisation(std::string_view text);
// The text parse_parameter_initialisation reads back.
std::string to_string(const ParameterInitialisation& initialisation);
// Sets the initialisation fields of `options`.
void apply(const ParameterInitialisation& initialisation, TrainingOptions& options);

}  // namespace rbmix
