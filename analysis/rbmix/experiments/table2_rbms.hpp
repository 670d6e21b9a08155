#pragma once
// 003 Table 2's RBMs, shared by the experiments that sample them (autocorr, modified-sweep): a setting (data set,
// hidden units, batch, updates, trials, sampled sweeps) and the training that makes its RBMs, 20-PT10 with Gibbs
// sweeps (003 §4.2). A setting's number is its place in autocorr's full list, so the same trial seeds train the same
// RBMs in every experiment.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "rbmix/core/types.hpp"
#include "rbmix/jobs/job_progress.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/training/parameter_initialisation.hpp"

namespace rbmix::experiments {

struct Table2Setting {
  std::string name;
  MatrixD data;
  Eigen::Index hidden = 16;
  int batch = 0;  // 0: full batch
  std::int64_t updates = 20000;
  int trials = 25;
  Eigen::Index steps = 1000000;  // sampled sweeps per chain
  std::uint64_t number = 0;      // position in the full list: a setting keeps its seeds when others are left out
};

// The setting's sizes, not its data.
nlohmann::json to_json(const Table2Setting& setting);

// 003 Table 2's RBM for `setting`: trained by 20-PT10 with Gibbs sweeps (003 §4.2) from `initialisation`, sampled in
// float, seeded by `seed` (the trial's trial_seed), reporting its updates into `progress`. autocorr and
// modified-sweep train them.
Rbm train_table2_rbm(const Table2Setting& setting, double learning_rate, const ParameterInitialisation& initialisation,
                     std::uint64_t seed, const JobProgress& progress);

// Enters the grid job's stage "<rule> chain" in `progress` (job_progress.hpp) and returns the `on_sweep` of an
// energy trace of `sweeps` sweeps (burn-in included) that reports how far it has got.
std::function<void(Eigen::Index)> chain_progress(const UnitRule& rule, Eigen::Index sweeps,
                                                 const JobProgress& progress);

}  // namespace rbmix::experiments
