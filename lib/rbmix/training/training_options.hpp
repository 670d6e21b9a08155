#pragma once
// TrainingOptions: everything that defines one training run (docs/algorithms.md §3). The algorithms of the papers are
// combinations of three orthogonal choices, so that no algorithm is written twice:
//   negative phase  how the model side of the gradient is estimated (exact, CD-k, PCD-k, MF-CD, FPCD, t-PT k);
//   inner steps d   S-DCP and CS-DCP only (difference_of_convex): d parameter steps share the positive phase of
//                   one batch (002 Alg. 3); with d = 1 their own loop gives the numbers of CD-K' (and CG);
//   centered        whether the parameters are centered with moving offsets (Melchior et al. 2016, 002 Alg. 4).
// Named algorithms (the CLI's --algo) are presets over these: cg = centered CD, sdcp = CD with d inner steps,
// csdcp = centered S-DCP.
// Options validate themselves (is_valid, Ceres style) before a trainer touches them, and refuse a setting the
// chosen algorithm would ignore where they can tell it was set (an operator other than Gibbs for exact or MF-CD,
// d ≠ 1 outside S-DCP/CS-DCP). Defaults are written once, here; the front-ends' table of settings (training_settings.hpp) repeats them as
// text, and its test keeps the two equal.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/training/training_monitor.hpp"
#include "rbmix/training/trajectory_file.hpp"

namespace rbmix {

enum class NegativePhaseKind {
  exact,                   // model statistics by enumeration (tiny models)
  contrastive_divergence,  // CD-k: chains start at the batch
  persistent,              // PCD-k / SML (000): one persistent chain per batch row, never reset
  mean_field,              // MF-CD (000 §2.2): deterministic, negative statistics from (v¹, h¹)
  fast_persistent,         // FPCD (001 §2): persistent chains sampling with θ + θ_F
  parallel_tempering,      // t-PT k (003 §4.2): persistent replicas at β uniform in [0, 1]
};

enum class LearningRateSchedule { constant, linear_decay };

// The named algorithms of the papers (the CLI's --algo, Python's algorithm=): each is a row of the algorithm table
// in training_options.cpp, which parsing, help, option refusals and dispatch all read.
enum class Algorithm { cd, pcd, mfcd, fpcd, pt, exact, cg, sdcp, csdcp };

// One row of the algorithm table: the name, the three orthogonal choices it presets, and its one-line help.
struct AlgorithmDefinition {
  Algorithm algorithm;
  std::string_view name;
  NegativePhaseKind negative_phase;
  bool centered;
  bool difference_of_convex;
  std::string_view help;
};

// Every algorithm, in the order help lists them.
std::span<const AlgorithmDefinition> algorithm_table();
const AlgorithmDefinition& definition(Algorithm algorithm);
// One line per algorithm: "name  help".
std::string algorithm_help();

// The options, by their command-line names, that only some algorithms use: --operator (the sampling negative
// phases), --d and --k-inner (S-DCP, CS-DCP), --replicas (PT), --fast-lr and --fast-decay (FPCD).
bool algorithm_uses_option(Algorithm algorithm, std::string_view option);
// (training_settings.hpp refuses a setting the chosen algorithm would ignore, for every front-end.)

struct TrainingOptions {
  NegativePhaseKind negative_phase = NegativePhaseKind::contrastive_divergence;
  UnitRule rule = GibbsRule{};        // the operator every sampling negative phase uses
  int sampling_steps = 1;             // k sweeps per negative phase (K' for S-DCP)
  int replicas = 10;                  // t, parallel tempering only
  bool difference_of_convex = false;  // S-DCP / CS-DCP (002 Alg. 3, 4): the loop of d inner steps
  int inner_steps = 1;                // d of S-DCP / CS-DCP; 1 for every other algorithm
  bool centered = false;              // centered gradient (Melchior et al. 2016; 002 Alg. 4)
  double offset_rate = 0.01;          // ν_μ = ν_λ, sliding factor of the centering offsets (002 §4)

  double learning_rate = 0.01;
  LearningRateSchedule schedule = LearningRateSchedule::constant;
  int batch_size = 0;  // 0 = full batch
  double momentum = 0.0;
  double weight_decay = 0.0;  // L2 on W only
  // ε_F of FPCD: θ_F ← α θ_F + ε_F g (001 §2). Required for FPCD: 001 takes it larger than the learning rate ε but
  // publishes no ratio, so rbmix does not invent a default.
  std::optional<double> fast_learning_rate;
  double fast_weight_decay = 0.95;  // α of FPCD (001 §2: 19/20)

  std::int64_t updates = 1000;             // parameter updates (mini-batches; one S-DCP outer step counts once)
  std::int64_t evaluation_interval = 100;  // evaluate every this many updates (and at 0 and at the end); 0: never
  int max_enumerated_units = 25;           // exact log-likelihood when the smaller layer is at most this
  MonitorOptions monitor;                  // what an evaluation measures (training_monitor.hpp)

  double initial_weight_scale = 0.01;  // W ~ N(0, scale²)
  bool base_rate_visible_bias = true;  // b = logit(clipped data mean), else 0
  // > 0: b and c ~ N(0, scale²), drawn after W (003 §4.2); needs base_rate_visible_bias off. Named choices:
  // parameter_initialisation.hpp.
  double initial_bias_scale = 0.0;
  // The update in float: batch, positive phase, chains, statistics and the model they use (a float copy of θ made
  // once per parameter step); the optimizer keeps the parameters in double. Measured with
  // tools/bench/binary_product_bench (BM_PcdUpdate) on the MNIST shape (784 × 500, batch 100, PCD-1): 1.5–1.8×
  // faster than the update in double. Double stays the default: tiny models gain nothing and their tests compare
  // with exact enumeration; ask for float on large models.
  bool sample_in_float = false;
  double divergence_bound = 1e4;  // |parameter| above this (or NaN/Inf) stops the run as diverged
  // Classification RBM (000 §4.2): the last label_classes visible units are one softmax group, the label, sampled
  // exactly from its conditional (sampling/softmax_group.hpp); 0: a plain RBM. Evaluation then reports the
  // classification error instead of the log-likelihood.
  int label_classes = 0;
  // The training rows are grey levels p ∈ [0, 1] and every use of a row draws v ~ Bernoulli(p) afresh (000 §4.1),
  // from RandomStream(seed, epoch·2³² + row, StreamDomain::binarisation) as stochastic_binarize does: the rows of
  // epoch e are stochastic_binarize(intensities, seed, e), whatever the thread count. The test rows stay as given.
  bool resample_binarisation = false;
  std::uint64_t seed = 1;

  std::int64_t checkpoint_interval = 0;  // write a checkpoint every this many updates; 0: only when stopping
  std::string checkpoint_path;           // empty: no checkpoints
  // Models kept along the run in a trajectory file (trajectory_file.hpp): at the updates of
  // trajectory_schedule(updates, trajectory_models, trajectory_spacing), at least 2 of them; an empty path: none.
  // They do not change the parameters, so they are not part of the trajectory fingerprint.
  std::string trajectory_path;
  std::int64_t trajectory_models = 0;
  TrajectorySpacing trajectory_spacing = TrajectorySpacing::geometric;

  // True when the options describe a runnable training; otherwise *why (if given) says what is wrong.
  bool is_valid(std::string* why) const;
  // Throws InputError with the reason unless is_valid.
  void validate() const;
};

// Sets negative_phase, centered, difference_of_convex and inner_steps for a named algorithm; `inner_steps` is d
// (S-DCP/CS-DCP only).
void apply_algorithm(TrainingOptions& options, Algorithm algorithm, int inner_steps = 1);

Algorithm parse_algorithm(std::string_view text);
std::string to_string(Algorithm algorithm);
std::string to_string(NegativePhaseKind kind);
LearningRateSchedule parse_learning_rate_schedule(std::string_view text);
std::string to_string(LearningRateSchedule schedule);

// Every field, for result files.
nlohmann::json to_json(const TrainingOptions& options);
// The fields that determine the sequence of parameters (not updates, evaluation or checkpoint settings): a run may
// resume from a checkpoint only under the same fingerprint.
std::string trajectory_fingerprint(const TrainingOptions& options);

}  // namespace rbmix
