#pragma once
// Experiment pcd-study: Tieleman's comparison of training algorithms (000 §5; docs/algorithms/pcd-study.md §9.3). Three
// RBM parts, each trained with CD-1, CD-10, MF-CD and PCD (as many persistent chains as the batch), every sampling
// algorithm with Gibbs and with flip-the-state chains (003's operator in 000's setting), and one MRF part:
//   exact           a small RBM (000: 25 hidden), exact test log-likelihood (000 Fig. 1);
//   ais             a large RBM (000: 500 hidden), test log-likelihood from log Z tracked along training, or AIS at
//                   each evaluation (PcdStudyLikelihood; 000 Fig. 2);
//   classification  a classification RBM (000 §4.2: 500 hidden), test error rate (000 Fig. 3);
//   mrf             a fully visible MRF on 5×5 binary patches: PCD (Gibbs, flip) against pseudo-likelihood and the
//                   exact gradient, exact log-likelihood (000 §5.5).
// Every RBM run takes the same number of updates with the learning rate decaying linearly to 0 (000 §4.5); its
// update time alone is measured (evaluations and the trajectory monitor's following excluded), and the curves are
// plotted against it, as 000 does, and, for the ais part, against updates too. For
// each (part, algorithm, operator) every learning rate of the grid runs `trials` times; the rate with the best mean
// final validation score is chosen and its trials' test scores are reported (mean ± standard deviation). 000 picks
// the rate from 30 separate validation runs and reports 10 further test runs; rbmix reuses the same runs for both,
// with counts scaled to the machine (the options say which).
// Data: MNIST with --mnist (50 000 / 10 000 / 10 000; training rows re-binarised at every use, 000 §4.1; validation
// and test binarised once from the seed), else Artificial Modes 4×4 with p_mut 0.05 (4 classes) for the RBM parts
// and the MRF part (smoke scale). Results other than the times do not depend on the thread count.
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/experiments/experiment.hpp"
#include "rbmix/jobs/experiment_scale.hpp"
#include "rbmix/jobs/job_runner.hpp"
#include "rbmix/jobs/result_directory.hpp"
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/training/training_options.hpp"

namespace rbmix::experiments {

enum class PcdStudyPart { exact, ais, classification, mrf };
std::string to_string(PcdStudyPart part);
PcdStudyPart parse_pcd_study_part(const std::string& text);

// How the ais part (the large RBM) scores its models along training:
//   trajectory  log Z tracked along the training itself by the trajectory monitor (training_monitor.hpp;
//               docs/algorithms/log-partition-along-training.md §11.9): an evaluation costs a few sweeps, so a curve
//               has as many points as wanted; one AIS run on each final model (ais_particles × ais_distributions)
//               checks where the tracked curve ends.
//   ais         one AIS run per evaluation (ais_particles × ais_distributions), the cost of which limits the points.
enum class PcdStudyLikelihood { trajectory, ais };
std::string to_string(PcdStudyLikelihood likelihood);
PcdStudyLikelihood parse_pcd_study_likelihood(const std::string& text);

// One training algorithm of the comparison: "CD-1", "CD-10", "MF-CD", "PCD" (RBM parts); "exact", "PCD", "PL"
// (MRF part).
struct PcdStudyAlgorithm {
  std::string label;
  Algorithm algorithm = Algorithm::cd;
  int sweeps = 1;
};

struct PcdStudyOptions {
  std::filesystem::path mnist;  // empty: synthetic data
  std::vector<PcdStudyPart> parts{PcdStudyPart::exact, PcdStudyPart::ais, PcdStudyPart::classification,
                                  PcdStudyPart::mrf};
  std::vector<PcdStudyAlgorithm> algorithms{{"CD-1", Algorithm::cd, 1},
                                            {"CD-10", Algorithm::cd, 10},
                                            {"MF-CD", Algorithm::mfcd, 1},
                                            {"PCD", Algorithm::pcd, 1}};
  std::vector<UnitRule> rules{GibbsRule{}, FlipTheStateRule{}};
  std::vector<double> learning_rates{0.003, 0.01, 0.03};
  int exact_hidden = 25;
  int ais_hidden = 500;
  int classification_hidden = 500;
  Eigen::Index batch_size = 100;
  std::int64_t updates = 20000;
  int evaluations = 5;  // evaluation points after update 0, evenly spaced
  int trials = 3;
  PcdStudyLikelihood likelihood = PcdStudyLikelihood::trajectory;
  Eigen::Index ais_particles = 100;
  Eigen::Index ais_distributions = 10000;
  // The RBM updates (and the trajectory monitor's particles) in float (training_options.hpp: sample_in_float).
  bool sample_in_float = false;
  // MNIST sizes (000: 50 000 / 10 000 / 10 000); fewer rows make a run affordable on a small machine.
  Eigen::Index training_rows = 50000;
  Eigen::Index evaluation_rows = 10000;  // validation and test rows each
  // MRF part: patches (000 §4.1: every 5×5 patch of all 70 000 images, split 60/20/20).
  Eigen::Index patches = 100000;
  // The side of the MNIST patches: 000 §5.5's 5 gives a fully visible model of 25 units, whose exact gradient sums
  // over 2^25 states at every update (minutes per run); the smoke scale takes 3×3 patches (2^9 states).
  Eigen::Index patch_side = 5;
  std::vector<double> mrf_learning_rates{0.01, 0.03, 0.1};
  std::int64_t mrf_updates = 20000;
  std::uint64_t seed = 1;
  // Throws InputError naming what is out of range.
  void validate() const;
};

// Paper: the defaults above (MNIST needed); smoke: 8/16/16 hidden, 300 updates, batch 20, 2 trials, learning rates
// 0.05 and 0.1, AIS with 20 particles × 200 distributions, 400 MRF updates; synthetic data, or with MNIST its first
// 400 training rows, 200 validation and test rows each (fewer where the directory holds fewer images), and 1000 MRF
// patches of 3×3 pixels.
PcdStudyOptions pcd_study_options(Scale scale, std::uint64_t seed);
nlohmann::json to_json(const PcdStudyOptions& options);

struct PcdStudyPoint {
  std::int64_t update = 0;
  double seconds = 0.0;  // update time so far (not reproducible: wall clock)
  double validation = 0.0;
  double test = 0.0;
};

// The chosen learning rate's trials of one (part, algorithm, operator).
struct PcdStudyCurve {
  PcdStudyPart part = PcdStudyPart::exact;
  std::string algorithm;
  std::string rule;  // "" for PL and the exact gradient
  double learning_rate = 0.0;
  std::vector<PcdStudyPoint> mean;  // over the trials, at every evaluation
  double final_test_mean = 0.0;
  double final_test_standard_deviation = 0.0;
  double best_test_mean = 0.0;  // MRF: test LL of the early-stopped models
  int trials = 0;
  // The ais part tracked along training: the mean over the trials of the final models' test LL by one AIS run
  // each (NaN elsewhere), and the mean seconds the trajectory monitor took beside the update time (0 elsewhere).
  double final_ais_test_mean = std::numeric_limits<double>::quiet_NaN();
  double monitor_seconds = 0.0;
};

struct PcdStudyResult {
  std::vector<PcdStudyCurve> curves;
  double mrf_training_entropy = 0.0;  // −(best average log-likelihood) of the MRF training data
};

OrPartDone<PcdStudyResult> run_pcd_study(const PcdStudyOptions& options, const JobRunner& runner = JobRunner());

// part, algorithm, operator, learning_rate, trials, final_test_mean, final_test_sd, best_test_mean,
// final_ais_test_mean, seconds (update time of the last point), monitor_seconds.
Table pcd_study_summary_table(const PcdStudyResult& result);

// `rbmix experiment pcd-study` (experiment.hpp).
struct PcdStudy {
  static constexpr std::string_view name = "pcd-study";
  static constexpr std::string_view description =
      "000 §5: CD-1, CD-10, MF-CD, PCD (Gibbs and flip) on RBMs, a classifier and an MRF";
  static constexpr std::string_view mnist_help =
      "run on MNIST in this directory (needed for --scale paper): 50 000 / 10 000 / 10 000, training rows re-binarised "
      "at every use; MRF on 5×5 patches thresholded at 1/2. --scale smoke: at most 400 / 200 / 200 rows and 3×3 "
      "patches (an exact MRF gradient over 2^9, not 2^25, states), in seconds";
  static constexpr Scale default_scale = Scale::smoke;
  using Options = PcdStudyOptions;
  using Result = PcdStudyResult;
  static std::vector<ExperimentOption> own_options();
  static Options make_options(const ExperimentInputs& inputs);
  static nlohmann::json configuration(const Options& options);
  static OrPartDone<Result> run(const Options& options, const JobRunner& runner, std::ostream& log);
  static ExperimentReport report(const Options& options, const Result& result, ResultDirectory& out, std::ostream& log);
};

}  // namespace rbmix::experiments
