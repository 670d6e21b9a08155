#pragma once
// Experiment dcp-small: 002 §4.2.1 (ALGORITHMS.md §8, D1). RBMs with 4 hidden units are trained full batch on
// Bars & Stripes 3×3 and Shifting Bar 9/1 with CD-12, PCD-12, CG (centered CD-12), S-DCP and CS-DCP (d = 3,
// K' = 4: the same 12 sweeps per update), η ∈ {0.3, 0.5}, 25 trials, no momentum or weight decay. The average
// log-likelihood of the data (002's "ATLL": the small data sets are their own test sets) is computed exactly; per
// curve the mean over trials is reported against epochs (= updates, full batch) with the best possible value, and
// the first epoch at which the mean curve has gone 90 % of the way from its start to its maximum.
#include <string>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/training/training_options.hpp"

namespace rbmix::experiments {

struct DcpDataSet {
  std::string name;
  BinaryMatrix data;
  double best_log_likelihood = 0.0;  // −entropy of the data
};

struct DcpSmallConfig {
  std::vector<DcpDataSet> data_sets;
  std::vector<Algorithm> algorithms{Algorithm::cd, Algorithm::pcd, Algorithm::cg, Algorithm::sdcp, Algorithm::csdcp};
  std::vector<double> learning_rates{0.3, 0.5};
  UnitRule rule = GibbsRule{};
  int hidden = 4;
  int sweeps = 12;       // K of CD/PCD/CG
  int inner_steps = 3;   // d of S-DCP / CS-DCP
  int inner_sweeps = 4;  // K'
  int trials = 25;
  std::int64_t epochs = 10000;
  std::int64_t evaluation_interval = 50;
  std::uint64_t seed = 1;
  int threads = 0;
};

// "paper" as above; "smoke": 3 trials, 200 epochs, evaluation every 20.
DcpSmallConfig dcp_small_config(const std::string& scale, std::uint64_t seed);

struct DcpCurve {
  std::size_t data_set = 0;
  Algorithm algorithm = Algorithm::cd;
  double learning_rate = 0.0;
  std::vector<double> mean_log_likelihood;  // over trials, at every evaluation
  double maximum = 0.0;                     // of the mean curve
  double final = 0.0;
  std::int64_t epoch_to_90_percent = 0;
  int diverged_trials = 0;
};

struct DcpSmallResult {
  std::vector<std::int64_t> evaluation_epochs;
  std::vector<DcpCurve> curves;
};

DcpSmallResult run_dcp_small(const DcpSmallConfig& config);

// The first epoch at which `curve` (sampled at `epochs`) reaches start + 0.9 (max − start).
std::int64_t epoch_to_fraction_of_maximum(const std::vector<double>& curve, const std::vector<std::int64_t>& epochs,
                                          double fraction);

}  // namespace rbmix::experiments
