#include "rbmix/training/training_monitor.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "rbmix/core/error.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/model/classification_rbm.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/model/pseudo_likelihood.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/model_path.hpp"
#include "rbmix/training/binary_archive.hpp"

namespace rbmix {
namespace {

// The first field of the trajectory monitor's state since it anneals along strides (§11.9): a state without it
// was written by the monitor that annealed at every update.
constexpr std::string_view monitor_state_tag = "trajectory monitor, strided";

// The monitor's own stream domain ("moni"), apart from every domain training draws from.
constexpr auto monitor_stream_domain = static_cast<StreamDomain>(0x6d6f6e69ULL);

struct MonitorName {
  MonitorKind kind;
  std::string_view name;
};
constexpr MonitorName monitor_names[] = {{MonitorKind::automatic, "auto"},
                                         {MonitorKind::exact, "exact"},
                                         {MonitorKind::ais, "ais"},
                                         {MonitorKind::trajectory, "trajectory"},
                                         {MonitorKind::proxies, "proxies"},
                                         {MonitorKind::classification, "classification"}};

// The trajectory estimator's options from the monitor's and the run's.
TrajectoryLogPartitionOptions trajectory_options(const MonitorOptions& options, const UnitRule& rule,
                                                 bool single_precision, std::uint64_t seed) {
  TrajectoryLogPartitionOptions trajectory;
  trajectory.particles = options.trajectory_particles;
  trajectory.groups = options.trajectory_groups;
  trajectory.resampling_threshold = options.resampling_threshold;
  trajectory.sweeps_per_update = options.sweeps_per_update;
  trajectory.rule = rule;
  trajectory.single_precision = single_precision;
  trajectory.seed = seed;
  return trajectory;
}

// The likelihood fields of `point` from an estimate of log Z with its band (estimated_average_log_likelihood).
void set_estimated_log_likelihoods(const Rbm& rbm, const MatrixD& train, const MatrixD& test, double log_partition,
                                   double lower, double upper, EvaluationPoint& point) {
  const LogLikelihoodEstimate on_train = estimated_average_log_likelihood(rbm, train, log_partition, lower, upper);
  point.train_log_likelihood = on_train.value;
  point.train_log_likelihood_lower = on_train.lower;
  point.train_log_likelihood_upper = on_train.upper;
  if (test.size() == 0) return;
  const LogLikelihoodEstimate on_test = estimated_average_log_likelihood(rbm, test, log_partition, lower, upper);
  point.test_log_likelihood = on_test.value;
  point.test_log_likelihood_lower = on_test.lower;
  point.test_log_likelihood_upper = on_test.upper;
}

// Mean over the rows of ‖v − E[v | E[h|v]]‖²: the mean-field reconstruction, so it needs no draw.
double mean_reconstruction_error(const Rbm& rbm, const MatrixD& rows) {
  const MatrixD reconstruction = rbm.visible_probabilities(rbm.hidden_probabilities(rows));
  return (rows - reconstruction).rowwise().squaredNorm().mean();
}

}  // namespace

MonitorKind parse_monitor_kind(std::string_view text) {
  for (const auto& [kind, name] : monitor_names)
    if (text == name) return kind;
  throw InputError("unknown monitor '" + std::string(text) +
                   "' (expected auto, exact, ais, trajectory, proxies or classification)");
}

std::string to_string(MonitorKind kind) {
  for (const auto& [candidate, name] : monitor_names)
    if (candidate == kind) return std::string(name);
  return "unknown";
}

bool MonitorOptions::is_valid(std::string* why) const {
  const auto fail = [&](const std::string& reason) {
    if (why != nullptr) *why = reason;
    return false;
  };
  if (ais_particles < 2)
    return fail("the AIS monitor needs at least 2 particles (for its band), got " + std::to_string(ais_particles));
  if (ais_distributions < 1)
    return fail("the AIS monitor needs at least 1 distribution, got " + std::to_string(ais_distributions));
  if (proxy_rows < 1) return fail("the proxies need at least 1 row, got " + std::to_string(proxy_rows));
  if (trajectory_groups < 2)
    return fail("log Z along training needs at least 2 particle groups (for its band), got " +
                std::to_string(trajectory_groups));
  if (std::string reason; !trajectory_options(*this, GibbsRule{}, false, 0).is_valid(&reason)) return fail(reason);
  if (trajectory_stride < 1)
    return fail("log Z along training needs a stride of at least 1 update, got " + std::to_string(trajectory_stride));
  if (!(trajectory_step_size > 0.0 && std::isfinite(trajectory_step_size)))
    return fail("log Z along training needs a positive step size, got " + std::to_string(trajectory_step_size));
  return true;
}

MonitorKind resolve_monitor(const MonitorOptions& options, Eigen::Index n_visible, Eigen::Index n_hidden,
                            int label_classes, int max_enumerated_units) {
  // Validity first: the order in which require's arguments are evaluated is unspecified.
  std::string why;
  const bool valid = options.is_valid(&why);
  require(valid, "monitor: " + why);
  const Eigen::Index smaller = std::min(n_visible, n_hidden);
  const bool enumerable = smaller <= max_enumerated_units;
  if (label_classes > 0) {
    require(options.kind == MonitorKind::automatic || options.kind == MonitorKind::classification,
            "monitor " + to_string(options.kind) +
                ": a classification RBM is monitored by its classification error (--monitor classification)");
    return MonitorKind::classification;
  }
  switch (options.kind) {
    case MonitorKind::automatic:
      return enumerable ? MonitorKind::exact : MonitorKind::ais;
    case MonitorKind::exact:
      require(enumerable, "monitor exact: the exact log-likelihood enumerates 2^" + std::to_string(smaller) +
                              " states of the smaller layer, beyond the limit of " +
                              std::to_string(max_enumerated_units) + " units (use the AIS monitor)");
      return MonitorKind::exact;
    case MonitorKind::classification:
      throw InputError("monitor classification: the run has no labels to classify");
    case MonitorKind::ais:
    case MonitorKind::trajectory:
    case MonitorKind::proxies:
      return options.kind;
  }
  return options.kind;
}

MatrixD spread_rows(const MatrixD& data, Eigen::Index count) {
  if (data.rows() <= count) return data;
  MatrixD rows(count, data.cols());
  for (Eigen::Index k = 0; k < count; ++k) rows.row(k) = data.row(k * data.rows() / count);
  return rows;
}

TrainingMonitor::TrainingMonitor(const MonitorOptions& options, MonitorKind kind, std::uint64_t seed,
                                 const MatrixD& train, bool train_grey_levels, int label_classes,
                                 const UnitRule& rule, bool single_precision, int max_enumerated_units)
    : options_(options),
      kind_(kind),
      seed_(seed),
      train_grey_levels_(train_grey_levels),
      label_classes_(label_classes),
      rule_(rule),
      single_precision_(single_precision),
      max_enumerated_units_(max_enumerated_units) {
  require(kind != MonitorKind::automatic, "TrainingMonitor: resolve the monitor kind first (resolve_monitor)");
  // Without rows the trainer refuses the data itself, with its own message.
  if (kind_ == MonitorKind::ais && train.rows() > 0) base_visible_bias_ = base_rate_visible_bias(train);
  if (kind_ == MonitorKind::trajectory) reference_rows_ = spread_rows(train, options_.proxy_rows);
}

std::string TrainingMonitor::description(const Rbm& rbm) const {
  switch (kind_) {
    case MonitorKind::exact:
      return "exact log-likelihood (2^" + std::to_string(std::min(rbm.n_visible(), rbm.n_hidden())) +
             " states enumerated), with the proxies";
    case MonitorKind::ais:
      return "AIS log-likelihood (" + std::to_string(options_.ais_particles) + " particles x " +
             std::to_string(options_.ais_distributions) +
             " distributions per evaluation, band log Z +- 3 standard errors), with the proxies";
    case MonitorKind::trajectory:
      return "log-likelihood from log Z tracked along training (" + std::to_string(options_.trajectory_particles) +
             " particles in " + std::to_string(options_.trajectory_groups) + " groups, resampled below ESS " +
             std::to_string(options_.resampling_threshold) + " x particles, " +
             std::to_string(options_.sweeps_per_update) +
             " sweep(s) per update; band log Z +- 3 standard errors over the groups, or their lognormal band where "
             "wider)" +
             (std::min(rbm.n_visible(), rbm.n_hidden()) <= max_enumerated_units_ ? ", the exact value beside it" : "") +
             ", with the proxies";
    case MonitorKind::proxies:
      return "proxies only: pseudo-likelihood, reconstruction error, free-energy gap (no log-likelihood)";
    case MonitorKind::classification:
      return "classification error";
    case MonitorKind::automatic:
      break;
  }
  return "unresolved";
}

void TrainingMonitor::evaluate(const Rbm& rbm, const MatrixD& train, const MatrixD& test,
                               EvaluationPoint& point) const {
  evaluate_likelihood(rbm, train, test, point);
  if (kind_ == MonitorKind::classification) return;
  const MatrixD train_rows = spread_rows(train, options_.proxy_rows);
  if (!train_grey_levels_) point.train_pseudo_log_likelihood = mean_log_pseudo_likelihood(rbm, train_rows);
  point.train_reconstruction_error = mean_reconstruction_error(rbm, train_rows);
  if (test.size() > 0) {
    const MatrixD test_rows = spread_rows(test, options_.proxy_rows);
    point.test_pseudo_log_likelihood = mean_log_pseudo_likelihood(rbm, test_rows);
    point.test_reconstruction_error = mean_reconstruction_error(rbm, test_rows);
    if (!train_grey_levels_) point.free_energy_gap = rbm.free_energy(test_rows).mean() - rbm.free_energy(train_rows).mean();
  }
}

void TrainingMonitor::evaluate_likelihood(const Rbm& rbm, const MatrixD& train, const MatrixD& test,
                                          EvaluationPoint& point) const {
  const bool has_test = test.size() > 0;
  if (kind_ == MonitorKind::classification) {
    const ClassificationRbm classifier{rbm, label_classes_};
    const Eigen::Index inputs = classifier.n_inputs();
    point.train_error =
        classification_error(classifier, train.leftCols(inputs), one_hot_labels(train, label_classes_, "training data"));
    if (has_test)
      point.test_error =
          classification_error(classifier, test.leftCols(inputs), one_hot_labels(test, label_classes_, "test data"));
    return;
  }
  if (kind_ == MonitorKind::exact) {
    const double log_partition = exact_log_partition(rbm);
    point.train_log_likelihood = exact_average_log_likelihood(rbm, train, log_partition);
    if (has_test) point.test_log_likelihood = exact_average_log_likelihood(rbm, test, log_partition);
  } else if (kind_ == MonitorKind::trajectory) {
    require(tracked_.has_value() && updates_followed_ == point.update, [&] {
      return "trajectory monitor: asked for update " + std::to_string(point.update) + " but it followed " +
             std::to_string(updates_followed_) + " updates";
    });
    TrackedLogPartition tracked;
    if (reached_update_ == updates_followed_) {
      tracked = tracked_->estimate();
    } else {
      TrajectoryLogPartition reading = *tracked_;
      static_cast<void>(anneal_to(rbm, reading));
      tracked = reading.estimate();
    }
    set_estimated_log_likelihoods(rbm, train, test, tracked.log_partition, tracked.lower, tracked.upper, point);
    if (std::min(rbm.n_visible(), rbm.n_hidden()) <= max_enumerated_units_) {
      const double log_partition = exact_log_partition(rbm);
      point.train_log_likelihood_exact = exact_average_log_likelihood(rbm, train, log_partition);
      if (has_test) point.test_log_likelihood_exact = exact_average_log_likelihood(rbm, test, log_partition);
    }
  } else if (kind_ == MonitorKind::ais) {
    AisOptions ais;
    ais.particles = options_.ais_particles;
    ais.distributions = options_.ais_distributions;
    ais.base_visible_bias = base_visible_bias_;
    ais.seed = RandomStream(seed_, static_cast<std::uint64_t>(point.update), monitor_stream_domain)();
    const AisResult result = ais_log_partition(rbm, ais);
    set_estimated_log_likelihoods(rbm, train, test, result.log_partition, result.log_partition_lower,
                                  result.log_partition_upper, point);
  }
}

void TrainingMonitor::start_following(const Rbm& first) {
  if (!follows_updates()) return;
  tracked_.emplace(first, trajectory_options(options_, rule_, single_precision_,
                                             RandomStream(seed_, 0, monitor_stream_domain)()));
  updates_followed_ = 0;
  annealing_steps_ = 0;
  reached_ = first;
  reached_update_ = 0;
  reached_free_energies_ = first.free_energy(reference_rows_);
}

void TrainingMonitor::follow_update(const Rbm& next) {
  if (!follows_updates()) return;
  require(tracked_.has_value(), "trajectory monitor: follow_update before start_following");
  ++updates_followed_;
  if (updates_followed_ - reached_update_ < options_.trajectory_stride) return;
  const auto start = std::chrono::steady_clock::now();
  Annealed annealed = anneal_to(next, *tracked_);
  reached_free_energies_ = std::move(annealed.free_energies);
  annealing_steps_ += annealed.steps;
  reached_ = next;
  reached_update_ = updates_followed_;
  following_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TrainingMonitor::Annealed TrainingMonitor::anneal_to(const Rbm& current, TrajectoryLogPartition& particles) const {
  VectorD free_energies = current.free_energy(reference_rows_);
  const std::int64_t steps = anneal_in_sized_steps(particles, reached_, current, reached_free_energies_, free_energies,
                                                   options_.trajectory_step_size);
  return {std::move(free_energies), steps};
}

std::string TrainingMonitor::save_state() const {
  if (!tracked_) return {};
  BinaryWriter writer;
  writer.write_string(std::string(monitor_state_tag));
  writer.write_i64(options_.trajectory_stride);
  writer.write_f64(options_.trajectory_step_size);
  writer.write_i64(updates_followed_);
  writer.write_i64(reached_update_);
  writer.write_i64(annealing_steps_);
  writer.write_matrix(reached_.weights);
  writer.write_vector(reached_.visible_bias);
  writer.write_vector(reached_.hidden_bias);
  tracked_->save(writer);
  return std::move(writer).take_bytes();
}

void TrainingMonitor::load_state(const std::string& bytes, const std::string& source, std::int64_t updates_done) {
  if (!follows_updates()) return;  // a state kept by another run's trajectory monitor is not needed here
  BinaryReader reader(bytes, source);
  if (bytes.empty())
    reader.fail("it holds no state of the trajectory monitor (the run was started with another monitor)");
  require(tracked_.has_value(), "trajectory monitor: load_state before start_following");
  if (reader.read_string() != monitor_state_tag)
    reader.fail("its trajectory monitor's state was written by an older rbmix, which annealed at every update; "
                "start the run anew");
  const std::int64_t stride = reader.read_i64();
  const double step_size = reader.read_f64();
  if (stride != options_.trajectory_stride || step_size != options_.trajectory_step_size)
    reader.fail("its trajectory monitor annealed every " + std::to_string(stride) + " updates in steps of " +
                (std::ostringstream() << step_size).str() + ", this run every " +
                std::to_string(options_.trajectory_stride) + " in steps of " +
                (std::ostringstream() << options_.trajectory_step_size).str());
  const std::int64_t followed = reader.read_i64();
  if (followed != updates_done)
    reader.fail("its trajectory monitor followed " + std::to_string(followed) + " updates, but the run did " +
                std::to_string(updates_done));
  const std::int64_t reached = reader.read_i64();
  if (reached < 0 || reached > followed || followed - reached >= stride)
    reader.fail("its trajectory monitor's particles reached update " + std::to_string(reached) + ", not within the " +
                std::to_string(stride) + " updates before " + std::to_string(followed));
  annealing_steps_ = reader.read_i64();
  if (annealing_steps_ < 0) reader.fail("its trajectory monitor's count of annealing steps is negative");
  reached_.weights = reader.read_matrix<double>(reached_.n_hidden(), reached_.n_visible(), "the trajectory monitor's model");
  reached_.visible_bias = reader.read_vector<double>(reached_.n_visible(), "the trajectory monitor's visible biases");
  reached_.hidden_bias = reader.read_vector<double>(reached_.n_hidden(), "the trajectory monitor's hidden biases");
  reached_update_ = reached;
  reached_free_energies_ = reached_.free_energy(reference_rows_);
  tracked_->load(reader);
  if (!reader.at_end()) reader.fail("the trajectory monitor's state does not end properly");
  updates_followed_ = followed;
}

}  // namespace rbmix
