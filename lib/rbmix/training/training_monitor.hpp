#pragma once
// TrainingMonitor: what a training run measures at each evaluation, chosen so that it works at any model size.
//   exact           the average log-likelihood of the training and test rows by enumerating the smaller layer
//                   (model/exact.hpp); cheap only while that layer has at most max_enumerated_units units.
//   ais             the same averages from one AIS estimate of log Z per evaluation (estimation/ais.hpp: few
//                   particles and distributions, 16 × 1000 by default), with the band log Ẑ ± 3 standard errors
//                   implies; the base model has the base rate of the training rows (as Salakhutdinov & Murray 2008).
//   trajectory      the same averages from log Z tracked along the training itself
//                   (trajectory_log_partition.hpp; docs/algorithms/log-partition-along-training.md):
//                   particles follow the training's path (reweighted, resampled, moved by the run's operator),
//                   annealing along it every trajectory_stride updates, so an evaluation costs no annealing of its
//                   own; the band is that of the independent particle groups.
//                   Where the smaller layer has at most max_enumerated_units units the exact averages stand beside.
//   proxies         no log-likelihood, only the proxies below.
//   classification  a classification RBM: the classification errors (model/classification_rbm.hpp).
// Every kind but classification also records the cheap proxies, which track training but are not the
// likelihood: the mean log pseudo-likelihood (model/pseudo_likelihood.hpp; Besag 1986), the mean squared
// mean-field reconstruction error ‖v − E[v | E[h|v]]‖² (Hinton 2010 §5: a proxy, not what is learned), and the free-energy gap mean F(test) − mean F(train), whose
// growth signals overfitting (Hinton 2010 §6). The proxies are evaluated on at most proxy_rows rows of each set,
// evenly spaced, so their cost is bounded whatever the data size.
// automatic picks classification for a classification RBM, exact where it is cheap, AIS otherwise; an explicit kind
// that cannot run is refused with the reason (resolve_monitor), so a learning curve never holds a column of NaN.
// The monitor draws only from RandomStream(seed, update) in its own domain (the trajectory monitor from the seed
// RandomStream(seed, 0) of that domain gives its particles): it leaves the training's own streams untouched, so a
// run's parameters are the same whichever monitor watches it, and the same seed gives the same curve.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rbmix/core/types.hpp"
#include "rbmix/training/trajectory_log_partition.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/training/learning_curve.hpp"

namespace rbmix {

enum class MonitorKind { automatic, exact, ais, trajectory, proxies, classification };

// "auto" | "exact" | "ais" | "trajectory" | "proxies" | "classification"
MonitorKind parse_monitor_kind(std::string_view text);
std::string to_string(MonitorKind kind);

struct MonitorOptions {
  MonitorKind kind = MonitorKind::automatic;
  // AIS per evaluation: few particles and distributions keep an evaluation at 784 × 100 to 0.3–0.4 s, a few hundred
  // updates of batch 20 (measured on a loaded 2-core machine); the band says how far to trust each point.
  Eigen::Index ais_particles = 16;
  Eigen::Index ais_distributions = 1000;
  // Rows of each set the proxies use: the pseudo-likelihood costs m·n softplus per row, so 250 rows of a 784 × 100
  // model cost about as much as one AIS evaluation (0.3–0.6 s on one loaded core).
  Eigen::Index proxy_rows = 250;
  // log Z along training (trajectory_log_partition.hpp): particles in independent groups (the band needs several),
  // the resampling threshold on ESS / particles of a group, and the sweeps that move the particles after each of
  // their annealing steps.
  Eigen::Index trajectory_particles = 100;
  Eigen::Index trajectory_groups = 10;
  double resampling_threshold = 0.3;
  int sweeps_per_update = 1;
  // The particles anneal from the model they last reached to the current one every trajectory_stride updates (and,
  // on a copy, before each evaluation between), in linear interpolations of the parameters, as many as make the
  // spread of one step's free-energy change over the training rows at most trajectory_step_size nats
  // (docs/algorithms/log-partition-along-training.md §11.9). Annealing along each noisy update adds the variance of
  // every back-and-forth of stochastic gradient descent to the weights; a stride sees only the net change. Measured
  // on Salakhutdinov & Murray's CD-25 run (momentum 0.9): one step per update left log Ẑ 157 nats low by update 2 000.
  std::int64_t trajectory_stride = 1000;
  double trajectory_step_size = 0.1;

  bool is_valid(std::string* why) const;
};

// The kind a run with these shapes uses: automatic resolved, an explicit kind checked. Throws InputError naming
// why an explicit kind cannot run (exact on a layer beyond the enumeration limit, a likelihood on a classification
// RBM, classification without labels).
MonitorKind resolve_monitor(const MonitorOptions& options, Eigen::Index n_visible, Eigen::Index n_hidden,
                            int label_classes, int max_enumerated_units);

// At most `count` rows of `data`, evenly spaced (all of them when there are fewer), so that a sorted data set
// still contributes rows from every part: the rows of the proxies and of the trajectory monitor's step sizes.
MatrixD spread_rows(const MatrixD& data, Eigen::Index count);

class TrainingMonitor {
 public:
  // `train` holds the trainer's training rows; `train_grey_levels` says they are grey levels
  // (resample_binarisation), on which the pseudo-likelihood and the free-energy gap are not defined;
  // `label_classes` is the size of the label group of a classification RBM (0 for none).
  // `rule` and `single_precision` are the run's: the trajectory monitor moves its particles by that operator in
  // that precision; `max_enumerated_units` bounds where it shows the exact values beside its own.
  TrainingMonitor(const MonitorOptions& options, MonitorKind kind, std::uint64_t seed, const MatrixD& train,
                  bool train_grey_levels, int label_classes, const UnitRule& rule = GibbsRule{},
                  bool single_precision = false, int max_enumerated_units = 0);

  MonitorKind kind() const { return kind_; }
  // One line for people: what the learning curve's likelihood columns hold.
  std::string description(const Rbm& rbm) const;

  // Fills the likelihood or error and proxy fields of `point` (point.update set) for `rbm`; `train` and `test`
  // (test may be empty) are the trainer's rows.
  void evaluate(const Rbm& rbm, const MatrixD& train, const MatrixD& test, EvaluationPoint& point) const;
  // The likelihood or error fields alone, for a caller that reads no proxy: the pseudo-likelihood of the proxy rows
  // costs about a second at 784 × 500.
  void evaluate_likelihood(const Rbm& rbm, const MatrixD& train, const MatrixD& test, EvaluationPoint& point) const;

  // The trajectory monitor follows every update: start_following at the run's first model (again after a warm
  // start), then follow_update with the model after each update. Its particles anneal at every trajectory_stride-th
  // update; an evaluation between two anneals a copy of them the rest of the way, so the schedule, and every
  // number, is the same whatever the evaluation interval. The other kinds follow nothing.
  bool follows_updates() const { return kind_ == MonitorKind::trajectory; }
  void start_following(const Rbm& first);
  void follow_update(const Rbm& next);
  std::int64_t updates_followed() const { return updates_followed_; }
  // The annealing steps the particles took since start_following (a copy's for an evaluation not counted): each
  // costs about one sweep of the particles.
  std::int64_t annealing_steps() const { return annealing_steps_; }
  // Wall-clock seconds follow_update spent annealing since this monitor was made: what the monitor adds to the
  // update time of a run (not reproducible, not in the state).
  double following_seconds() const { return following_seconds_; }

  // What the monitor carries from update to update, for checkpoints: empty for the kinds that carry nothing.
  // load_state refuses, by an InputError naming `source`, a state of another monitor, other options or another
  // update than `updates_done`.
  std::string save_state() const;
  void load_state(const std::string& bytes, const std::string& source, std::int64_t updates_done);

 private:
  MonitorOptions options_;
  MonitorKind kind_;
  std::uint64_t seed_;
  bool train_grey_levels_;
  int label_classes_;
  VectorD base_visible_bias_;  // b_A of AIS
  UnitRule rule_;
  bool single_precision_;
  int max_enumerated_units_;
  // Anneals `particles` from reached_ (the model of update reached_update_) to `current`, the model of
  // updates_followed_; returns current's free energies of the reference rows and the steps taken.
  struct Annealed {
    VectorD free_energies;
    std::int64_t steps = 0;
  };
  Annealed anneal_to(const Rbm& current, TrajectoryLogPartition& particles) const;

  std::optional<TrajectoryLogPartition> tracked_;  // the trajectory monitor's particles
  std::int64_t updates_followed_ = 0;
  Rbm reached_;  // the model the particles last annealed to
  std::int64_t reached_update_ = 0;
  std::int64_t annealing_steps_ = 0;
  double following_seconds_ = 0.0;
  // Training rows (at most proxy_rows, evenly spaced) whose free-energy changes set the annealing steps, and their
  // free energies under reached_. They depend on the path alone, never on the particles, so each group's Ẑ stays
  // unbiased.
  MatrixD reference_rows_;
  VectorD reached_free_energies_;
};

}  // namespace rbmix
