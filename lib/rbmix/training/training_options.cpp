#include "rbmix/training/training_options.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "rbmix/core/error.hpp"

namespace rbmix {
namespace {

constexpr AlgorithmDefinition algorithm_definitions[] = {
    {Algorithm::cd, "cd", NegativePhaseKind::contrastive_divergence, false, false,
     "contrastive divergence CD-k: chains start at the batch (docs/algorithms/training.md §3.2)"},
    {Algorithm::pcd, "pcd", NegativePhaseKind::persistent, false, false,
     "persistent CD / SML: persistent chains, k sweeps per update (000 §2)"},
    {Algorithm::mfcd, "mfcd", NegativePhaseKind::mean_field, false, false,
     "mean-field CD: deterministic negative statistics (000 §2.2)"},
    {Algorithm::fpcd, "fpcd", NegativePhaseKind::fast_persistent, false, false,
     "fast persistent CD: persistent chains on θ + θ_F; needs --fast-lr (001 §2)"},
    {Algorithm::pt, "pt", NegativePhaseKind::parallel_tempering, false, false,
     "parallel tempering t-PT k: --replicas persistent replicas at β uniform in [0, 1] (003 §4.2)"},
    {Algorithm::exact, "exact", NegativePhaseKind::exact, false, false,
     "the exact gradient by enumeration (tiny models)"},
    {Algorithm::cg, "cg", NegativePhaseKind::contrastive_divergence, true, false,
     "centered gradient: CD-k with centered parameters (002 Alg. 4 with d = 1)"},
    {Algorithm::sdcp, "sdcp", NegativePhaseKind::contrastive_divergence, false, true,
     "stochastic difference of convex programming: --d inner steps of CD---k-inner (002 Alg. 3)"},
    {Algorithm::csdcp, "csdcp", NegativePhaseKind::contrastive_divergence, true, true, "centered S-DCP (002 Alg. 4)"},
};

// No default: a new kind must say whether it samples (the compiler warns at a missing case).
bool is_sampling(NegativePhaseKind kind) {
  switch (kind) {
    case NegativePhaseKind::exact:
    case NegativePhaseKind::mean_field:
      return false;
    case NegativePhaseKind::contrastive_divergence:
    case NegativePhaseKind::persistent:
    case NegativePhaseKind::fast_persistent:
    case NegativePhaseKind::parallel_tempering:
      return true;
  }
  throw std::logic_error("unknown negative phase kind");
}

bool fail(std::string* why, const std::string& message) {
  if (why != nullptr) *why = message;
  return false;
}

}  // namespace

bool TrainingOptions::is_valid(std::string* why) const {
  if (is_sampling(negative_phase) && sampling_steps < 1)
    return fail(why, "the number of sampling steps k must be at least 1, got " + std::to_string(sampling_steps));
  if (negative_phase == NegativePhaseKind::parallel_tempering && replicas < 2)
    return fail(why, "parallel tempering needs at least 2 replicas, got " + std::to_string(replicas));
  if (!is_sampling(negative_phase) && !std::holds_alternative<GibbsRule>(rule))
    return fail(why, "the " + to_string(negative_phase) + " negative phase samples nothing, so the operator " +
                         to_string(rule) + " would be ignored");
  if (inner_steps < 1)
    return fail(why, "the number of inner steps d must be at least 1, got " + std::to_string(inner_steps));
  if (inner_steps != 1 && !difference_of_convex)
    return fail(why,
                "the number of inner steps d applies to S-DCP and CS-DCP only, got d = " + std::to_string(inner_steps));
  if (difference_of_convex && negative_phase != NegativePhaseKind::contrastive_divergence)
    return fail(why, "S-DCP and CS-DCP sample their negative phase by CD-K', not " + to_string(negative_phase));
  if (!(offset_rate > 0.0 && offset_rate <= 1.0))
    return fail(why, "the offset sliding factor must lie in (0, 1], got " + std::to_string(offset_rate));
  if (!(learning_rate > 0.0 && std::isfinite(learning_rate)))
    return fail(why, "the learning rate must be positive and finite, got " + std::to_string(learning_rate));
  if (batch_size < 0)
    return fail(why, "the batch size must be positive (or 0 for full batch), got " + std::to_string(batch_size));
  if (!(momentum >= 0.0 && momentum < 1.0))
    return fail(why, "momentum must lie in [0, 1), got " + std::to_string(momentum));
  if (!(weight_decay >= 0.0 && std::isfinite(weight_decay)))
    return fail(why, "weight decay must be non-negative, got " + std::to_string(weight_decay));
  if (negative_phase == NegativePhaseKind::fast_persistent && !fast_learning_rate)
    return fail(why, "FPCD needs the fast learning rate ε_F (001 §2: larger than the learning rate)");
  if (fast_learning_rate && !(*fast_learning_rate >= 0.0 && std::isfinite(*fast_learning_rate)))
    return fail(why, "the fast learning rate must be non-negative, got " + std::to_string(*fast_learning_rate));
  if (!(fast_weight_decay >= 0.0 && fast_weight_decay < 1.0))
    return fail(why, "the fast-weight decay α must lie in [0, 1), got " + std::to_string(fast_weight_decay));
  if (negative_phase == NegativePhaseKind::fast_persistent && centered)
    return fail(why, "FPCD is defined for plain parameters only; it cannot be combined with centering");
  if (updates < 0) return fail(why, "the number of updates must be non-negative, got " + std::to_string(updates));
  if (evaluation_interval < 0)
    return fail(why, "the evaluation interval must be non-negative, got " + std::to_string(evaluation_interval));
  if (std::string reason; !monitor.is_valid(&reason)) return fail(why, "monitor: " + reason);
  if (max_enumerated_units < 0 || max_enumerated_units > 40)
    return fail(why, "the enumeration limit must lie in [0, 40] units, got " + std::to_string(max_enumerated_units));
  if (!(initial_weight_scale >= 0.0 && std::isfinite(initial_weight_scale)))
    return fail(why, "the initial weight scale must be non-negative, got " + std::to_string(initial_weight_scale));
  if (!(initial_bias_scale >= 0.0 && std::isfinite(initial_bias_scale)))
    return fail(why, "the initial bias scale must be non-negative, got " + std::to_string(initial_bias_scale));
  if (initial_bias_scale > 0.0 && base_rate_visible_bias)
    return fail(why, "the visible bias starts either at the base rate or from N(0, scale²), not both");
  if (!(divergence_bound > 0.0)) return fail(why, "the divergence bound must be positive");
  if (label_classes < 0 || label_classes == 1)
    return fail(why,
                "a softmax label group needs at least 2 classes (or 0 for none), got " + std::to_string(label_classes));
  if (label_classes > 0 && negative_phase == NegativePhaseKind::exact)
    return fail(why, "the exact negative phase enumerates binary units only; a classification RBM (label classes " +
                         std::to_string(label_classes) + ") needs a sampling or mean-field negative phase");
  if (checkpoint_interval < 0)
    return fail(why, "the checkpoint interval must be non-negative, got " + std::to_string(checkpoint_interval));
  if (checkpoint_interval > 0 && checkpoint_path.empty())
    return fail(why, "a checkpoint interval was given without a checkpoint path");
  if (!trajectory_path.empty() && trajectory_models < 2)
    return fail(why, "a trajectory keeps at least 2 models (the first and the last), got " +
                         std::to_string(trajectory_models));
  if (trajectory_path.empty() && trajectory_models != 0)
    return fail(why, "a number of trajectory models was given without a trajectory file");
  return true;
}

void TrainingOptions::validate() const {
  std::string why;
  if (!is_valid(&why)) throw InputError("training options: " + why);
}

std::span<const AlgorithmDefinition> algorithm_table() { return algorithm_definitions; }

const AlgorithmDefinition& definition(Algorithm algorithm) {
  for (const auto& entry : algorithm_definitions)
    if (entry.algorithm == algorithm) return entry;
  throw std::logic_error("the algorithm table lacks an algorithm");  // every enumerator has a row
}

std::string algorithm_help() {
  std::size_t width = 0;
  for (const auto& entry : algorithm_definitions) width = std::max(width, entry.name.size());
  std::string help;
  for (const auto& entry : algorithm_definitions)
    help += "  " + std::string(entry.name) + std::string(width - entry.name.size() + 2, ' ') + std::string(entry.help) +
            "\n";
  return help;
}

bool algorithm_uses_option(Algorithm algorithm, std::string_view option) {
  const AlgorithmDefinition& entry = definition(algorithm);
  if (option == "--operator") return is_sampling(entry.negative_phase);
  if (option == "--d" || option == "--k-inner") return entry.difference_of_convex;
  if (option == "--replicas") return entry.negative_phase == NegativePhaseKind::parallel_tempering;
  if (option == "--fast-lr" || option == "--fast-decay")
    return entry.negative_phase == NegativePhaseKind::fast_persistent;
  return true;
}

void apply_algorithm(TrainingOptions& options, Algorithm algorithm, int inner_steps) {
  const AlgorithmDefinition& entry = definition(algorithm);
  options.negative_phase = entry.negative_phase;
  options.centered = entry.centered;
  options.difference_of_convex = entry.difference_of_convex;
  options.inner_steps = entry.difference_of_convex ? inner_steps : 1;
}

Algorithm parse_algorithm(std::string_view text) {
  std::string names;
  for (const auto& entry : algorithm_definitions) {
    if (entry.name == text) return entry.algorithm;
    names += (names.empty() ? "" : ", ") + std::string(entry.name);
  }
  throw InputError("unknown training algorithm '" + std::string(text) + "' (expected one of " + names + ")");
}

std::string to_string(Algorithm algorithm) { return std::string(definition(algorithm).name); }

std::string to_string(NegativePhaseKind kind) {
  switch (kind) {
    case NegativePhaseKind::exact:
      return "exact";
    case NegativePhaseKind::contrastive_divergence:
      return "contrastive_divergence";
    case NegativePhaseKind::persistent:
      return "persistent";
    case NegativePhaseKind::mean_field:
      return "mean_field";
    case NegativePhaseKind::fast_persistent:
      return "fast_persistent";
    case NegativePhaseKind::parallel_tempering:
      return "parallel_tempering";
  }
  return "unknown";
}

LearningRateSchedule parse_learning_rate_schedule(std::string_view text) {
  if (text == "constant") return LearningRateSchedule::constant;
  if (text == "linear") return LearningRateSchedule::linear_decay;
  throw InputError("unknown learning-rate schedule '" + std::string(text) + "' (expected constant or linear)");
}

std::string to_string(LearningRateSchedule schedule) {
  return schedule == LearningRateSchedule::constant ? "constant" : "linear";
}

nlohmann::json to_json(const TrainingOptions& options) {
  nlohmann::json out;
  out["negative_phase"] = to_string(options.negative_phase);
  out["rule"] = to_string(options.rule);
  out["sampling_steps"] = options.sampling_steps;
  out["replicas"] = options.replicas;
  out["difference_of_convex"] = options.difference_of_convex;
  out["inner_steps"] = options.inner_steps;
  out["centered"] = options.centered;
  out["offset_rate"] = options.offset_rate;
  out["learning_rate"] = options.learning_rate;
  out["learning_rate_schedule"] = to_string(options.schedule);
  out["batch_size"] = options.batch_size;
  out["momentum"] = options.momentum;
  out["weight_decay"] = options.weight_decay;
  out["fast_learning_rate"] = options.fast_learning_rate.value_or(options.learning_rate);
  out["fast_weight_decay"] = options.fast_weight_decay;
  out["updates"] = options.updates;
  out["evaluation_interval"] = options.evaluation_interval;
  out["max_enumerated_units"] = options.max_enumerated_units;
  out["monitor"] = {{"kind", to_string(options.monitor.kind)},
                    {"ais_particles", options.monitor.ais_particles},
                    {"ais_distributions", options.monitor.ais_distributions},
                    {"proxy_rows", options.monitor.proxy_rows},
                    {"trajectory_particles", options.monitor.trajectory_particles},
                    {"trajectory_groups", options.monitor.trajectory_groups},
                    {"resampling_threshold", options.monitor.resampling_threshold},
                    {"sweeps_per_update", options.monitor.sweeps_per_update},
                    {"trajectory_stride", options.monitor.trajectory_stride},
                    {"trajectory_step_size", options.monitor.trajectory_step_size}};
  out["initial_weight_scale"] = options.initial_weight_scale;
  out["base_rate_visible_bias"] = options.base_rate_visible_bias;
  // Only when used: the trajectory fingerprints of checkpoints written before the field existed stay valid.
  if (options.initial_bias_scale > 0.0) out["initial_bias_scale"] = options.initial_bias_scale;
  out["sample_in_float"] = options.sample_in_float;
  out["divergence_bound"] = options.divergence_bound;
  out["seed"] = options.seed;
  out["checkpoint_interval"] = options.checkpoint_interval;
  // Written only when set, so the records and checkpoint fingerprints of plain RBM runs stay as they were.
  if (options.label_classes > 0) out["label_classes"] = options.label_classes;
  if (options.resample_binarisation) out["resample_binarisation"] = true;
  if (!options.trajectory_path.empty())
    out["trajectory"] = {{"models", options.trajectory_models}, {"spacing", to_string(options.trajectory_spacing)}};
  return out;
}

std::string trajectory_fingerprint(const TrainingOptions& options) {
  nlohmann::json fields = to_json(options);
  // The learning-rate schedule depends on the planned number of updates only when it decays.
  if (options.schedule == LearningRateSchedule::constant) fields.erase("updates");
  fields.erase("evaluation_interval");
  fields.erase("max_enumerated_units");
  fields.erase("monitor");
  fields.erase("checkpoint_interval");
  fields.erase("trajectory");
  return fields.dump();
}

}  // namespace rbmix
