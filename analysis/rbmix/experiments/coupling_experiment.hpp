#pragma once
// Experiment coupling (docs/algorithms/convergence-bounds.md §6.8): the L-lag coupling bounds of G and T put to work on
// the seeds' models. (a) 003 Fig. 3's random RBMs (m = n ∈ sizes, W ~ U[−c, c], biases 0, fig3_random_rbm): the bound's
// t_mix(1/4) of G and of T beside their exact SLEMs, and per (size, c) the share of RBMs where T's bound is below
// G's against the share where SLEM(T) < SLEM(G). (b) 003 Table 2's trained RBMs (BAS 4×4 and Artificial Modes; with
// --mnist also the MNIST ones, (c)), trained as autocorr trains them: G against T from data starts, the pairs met
// within the budget and their meeting times, reported as they are when pairs do not meet. One job per model, its
// chains seeded by purpose_seed(seed, job, sampling): results do not depend on the thread count, and the job grid
// resumes and shards them.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/experiments/autocorr_experiment.hpp"
#include "rbmix/experiments/experiment.hpp"
#include "rbmix/experiments/random_rbm_family.hpp"

namespace rbmix::experiments {

struct CouplingOptions {
  Fig3RbmFamily family{{2, 3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 20};  // 003 Fig. 3's, 20 RBMs per (size, c)
  Eigen::Index lag = 5;
  Eigen::Index pairs = 256;
  Eigen::Index max_sweeps = 100000;
  AutocorrOptions trained;  // the Table 2 settings and their training
  std::uint64_t seed = 1;
  // Throws InputError naming the option that is out of range.
  void validate() const;
};

// paper: m = n ∈ {2, 3, 4}, c = 1..10, 20 RBMs each; Table 2's settings at autocorr's paper scale; L = 5, 256 pairs,
// 10^5 sweeps. smoke: m = n ∈ {2, 3}, c ∈ {1, 4, 7, 10}, 3 RBMs each; one RBM per Table 2 setting trained for 200
// updates; 32 pairs, 2 000 sweeps — seconds.
// `trained_settings`: the names of the Table 2 settings to bound (autocorr's --only); empty: all, {"none"}: none.
// `trials` > 0 replaces the scale's RBMs per Table 2 setting.
CouplingOptions coupling_options(Scale scale, std::uint64_t seed, const std::filesystem::path& mnist,
                                 const std::vector<std::string>& trained_settings = {}, int trials = 0);
nlohmann::json to_json(const CouplingOptions& options);

// One operator's pairs on one model.
struct CouplingOperatorResult {
  Eigen::Index pairs = 0;
  Eigen::Index met = 0;
  std::optional<Eigen::Index> mixing_time;  // t_mix(1/4) from the bound, when every pair met
  double median_meeting = 0.0;              // over the pairs that met (NaN if none)
  double max_meeting = 0.0;
};

struct CouplingModelResult {
  std::string family;  // "fig3" or the Table 2 setting's name
  int size = 0;        // fig3: m = n
  int weight_bound = 0;
  int index = 0;            // fig3: RBM index; Table 2: trial
  double slem_gibbs = 0.0;  // fig3 only (NaN otherwise)
  double slem_flip = 0.0;
  CouplingOperatorResult gibbs;  // G
  CouplingOperatorResult flip;   // T
};

nlohmann::json to_grid_json(const CouplingModelResult& result);
void from_grid_json(const nlohmann::json& json, CouplingModelResult& result);

struct CouplingResult {
  std::vector<CouplingModelResult> models;  // fig3 models in (size, c, index) order, then the trained ones
};

OrPartDone<CouplingResult> run_coupling(const CouplingOptions& options, const JobRunner& runner = JobRunner());

// (a) per (size, c): RBMs, share where T's bound t_mix < G's (of those where both are known), share where
// SLEM(T) < SLEM(G), and the RBMs whose pairs did not all meet.
Table coupling_fig3_table(const CouplingResult& result);
// (b, c) one row per trained RBM and operator: pairs, met, median and largest meeting time, t_mix(1/4) bound.
Table coupling_trained_table(const CouplingResult& result, Eigen::Index max_sweeps);

// `rbmix experiment coupling` (experiment.hpp).
struct Coupling {
  static constexpr std::string_view name = "coupling";
  static constexpr std::string_view description =
      "L-lag coupling bounds of G and T on 003's random and trained RBMs, against the SLEM's verdict";
  static constexpr std::string_view mnist_help = "also bound 003 Table 2's MNIST RBMs (from data starts)";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = CouplingOptions;
  using Result = CouplingResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
