#pragma once
// Experiment slem-sweep: 003 Fig. 3 (docs/algorithms/data-and-figures.md §8, F3). For RBMs with m = n ∈ sizes, weights
// W ~ U[−c, c] and zero biases, how often the flip-the-state sweep T has a smaller SLEM than the Gibbs sweep G,
// against the bound c. Each RBM (size, c, index) is one job and draws its weights from its own RandomStream, keyed
// by (size, c, index), so results do not depend on the thread count.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "rbmix/experiments/experiment.hpp"
#include "rbmix/experiments/random_rbm_family.hpp"
#include "rbmix/jobs/experiment_scale.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/result_directory.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/report/table.hpp"

namespace rbmix::experiments {

struct SlemSweepOptions {
  Fig3RbmFamily family;
  std::uint64_t seed = 1;
  // Throws InputError naming the option that is out of range.
  void validate() const;
};

// The options of `scale`: paper m = n ∈ {2, 3, 4} with 100 RBMs per (size, c); smoke m = n ∈ {2, 3} with 10; both
// c = 1..10.
SlemSweepOptions slem_sweep_options(Scale scale, std::uint64_t seed);
nlohmann::json to_json(const SlemSweepOptions& options);

struct SlemSweepRbm {
  int size = 0;
  int weight_bound = 0;
  int index = 0;
  double slem_gibbs = 0.0;
  double slem_flip = 0.0;
};

struct SlemSweepShare {
  int size = 0;
  int weight_bound = 0;
  int rbms = 0;
  int flip_better = 0;  // RBMs with SLEM(T) < SLEM(G)
  double mean_slem_gibbs = 0.0;
  double mean_slem_flip = 0.0;
  double share() const { return rbms > 0 ? static_cast<double>(flip_better) / rbms : 0.0; }
};

struct SlemSweepResult {
  std::vector<SlemSweepRbm> rbms;      // every RBM, in (size, c, index) order
  std::vector<SlemSweepShare> shares;  // one per (size, c), in the same order
};

// One RBM's job result as the job grid journals it (job_runner.hpp: GridSerializable).
nlohmann::json to_grid_json(const SlemSweepRbm& rbm);
void from_grid_json(const nlohmann::json& json, SlemSweepRbm& rbm);

// Dense SLEMs of G and T for every RBM, in parallel over RBMs (JobRunner).
OrPartDone<SlemSweepResult> run_slem_sweep(const SlemSweepOptions& options, const JobRunner& runner = JobRunner());
// size, c, rbms, share_flip_better, mean_slem_gibbs, mean_slem_flip.
Table slem_sweep_share_table(const SlemSweepResult& result);
// size, c, index, slem_gibbs, slem_flip.
Table slem_sweep_rbm_table(const SlemSweepResult& result);

// `rbmix experiment slem-sweep` (experiment.hpp).
struct SlemSweep {
  static constexpr std::string_view name = "slem-sweep";
  static constexpr std::string_view description = "003 Fig. 3: share of random RBMs where SLEM(T) < SLEM(G)";
  static constexpr std::string_view mnist_help = "";
  static constexpr Scale default_scale = Scale::paper;
  using Options = SlemSweepOptions;
  using Result = SlemSweepResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
