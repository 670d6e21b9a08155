#include "rbmix/training/trajectory_log_partition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <vector>

#include "rbmix/core/error.hpp"
#include "rbmix/estimation/ais.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/sampling/model_path.hpp"

namespace rbmix {
namespace {

// The estimator's own stream domains ("traj", "resa"), apart from every domain training and the monitors draw from.
constexpr auto particle_stream_domain = static_cast<StreamDomain>(0x7472616aULL);
constexpr auto resampling_stream_domain = static_cast<StreamDomain>(0x72657361ULL);

// The model without couplings whose log Z and samples are exact: W = 0, the biases of `model`.
Rbm independent_model(const Rbm& model) {
  Rbm independent(model.n_visible(), model.n_hidden());
  independent.visible_bias = model.visible_bias;
  independent.hidden_bias = model.hidden_bias;
  return independent;
}

// The ancestors of systematic resampling (Kitagawa 1996): with one uniform u, the k-th of S offspring is the
// particle whose cumulative weight interval holds (u + k)/S. `weights` need not be normalised.
std::vector<Eigen::Index> systematic_ancestors(const Eigen::ArrayXd& weights, double uniform) {
  const auto count = weights.size();
  const double total = weights.sum();
  std::vector<Eigen::Index> ancestors(static_cast<std::size_t>(count));
  double cumulative = weights[0] / total;
  Eigen::Index ancestor = 0;
  for (Eigen::Index k = 0; k < count; ++k) {
    const double position = (uniform + static_cast<double>(k)) / static_cast<double>(count);
    while (position >= cumulative && ancestor + 1 < count) cumulative += weights[++ancestor] / total;
    ancestors[static_cast<std::size_t>(k)] = ancestor;
  }
  return ancestors;
}

// Rows first … first + ancestors.size() − 1 of `matrix` replaced by the rows their ancestors name (offsets within
// the block).
template <typename Scalar>
void copy_ancestor_rows(Matrix<Scalar>& matrix, Eigen::Index first, const std::vector<Eigen::Index>& ancestors) {
  const auto count = static_cast<Eigen::Index>(ancestors.size());
  const Matrix<Scalar> block = matrix.middleRows(first, count);
  for (Eigen::Index k = 0; k < count; ++k) matrix.row(first + k) = block.row(ancestors[static_cast<std::size_t>(k)]);
}

// The band's reach in standard errors, as AIS's (log_mean_with_band, ais.hpp).
constexpr double band_standard_errors = 3.0;

// The band of log Z from the groups' log Ẑ_g when they are near lognormal
// (docs/algorithms/log-partition-along-training.md §11.3): with m and s² the mean and variance of the log Ẑ_g,
// log E[Ẑ_g] = m + s²/2 ± 3 standard errors, the standard error sqrt(s²/G + s⁴/(2(G − 1))) of m and of s²/2 (normal
// theory). Where the many resamplings of small groups make the Ẑ_g heavy-tailed (Bérard, Del Moral & Doucet 2014),
// the mean of G of them falls below Z by up to s²/2, which the band of their mean cannot reach (its upper end is at
// most about log 4 above it).
LogMeanBand lognormal_band(const VectorD& group_log_partitions) {
  const auto groups = static_cast<double>(group_log_partitions.size());
  const double mean = group_log_partitions.mean();
  const double variance = (group_log_partitions.array() - mean).square().sum() / (groups - 1.0);
  const double centre = mean + variance / 2.0;
  const double standard_error = std::sqrt(variance / groups + variance * variance / (2.0 * (groups - 1.0)));
  return {centre, centre - band_standard_errors * standard_error, centre + band_standard_errors * standard_error};
}

}  // namespace

double independent_log_partition(const Rbm& independent) {
  return softplus_array(independent.visible_bias.array()).sum() + softplus_array(independent.hidden_bias.array()).sum();
}

class TrajectoryLogPartition::Particles {
 public:
  virtual ~Particles() = default;
  virtual std::unique_ptr<Particles> clone() const = 0;
  virtual void advance(const Rbm& next) = 0;
  virtual TrackedLogPartition estimate() const = 0;
  virtual VectorD draw_visible(double uniform) const = 0;
  virtual const TrajectoryLogPartitionOptions& options() const = 0;
  virtual void save(BinaryWriter& writer) const = 0;
  virtual void load(BinaryReader& reader) = 0;
};

namespace {

template <typename Scalar>
class ParticlesIn final : public TrajectoryLogPartition::Particles {
 public:
  ParticlesIn(const Rbm& first, const TrajectoryLogPartitionOptions& options)
      : options_(options),
        n_visible_(first.n_visible()),
        n_hidden_(first.n_hidden()),
        chains_(options.particles, first.n_visible(), first.n_hidden(),
                RandomStream(options.seed, 0, particle_stream_domain)()),
        log_weights_(VectorD::Zero(options.particles)) {
    const Rbm independent = independent_model(first);
    banked_ = VectorD::Constant(options.groups, independent_log_partition(independent));
    for (Eigen::Index group = 0; group < options.groups; ++group)
      resampling_streams_.emplace_back(options.seed, static_cast<std::uint64_t>(group), resampling_stream_domain);
    // The independent model's visible units are independent with P(v_j = 1) = σ(b_j): one Gibbs update of the
    // visible layer from its bias alone is an exact draw.
    const Matrix<Scalar> visible_inputs =
        independent.visible_bias.cast<Scalar>().transpose().replicate(options.particles, 1);
    chains_.sample_from_inputs(Layer::visible, visible_inputs, GibbsRule{});
    refresh_log_marginals(independent);
    if (first.weights.isZero(0.0)) {
      refresh_log_marginals(first);
      return;
    }
    for (int step = 1; step <= initial_bridge_steps; ++step) {
      Rbm bridge = first;
      bridge.weights *= static_cast<double>(step) / initial_bridge_steps;  // the last step is `first` to the bit
      advance(bridge);
    }
  }

  std::unique_ptr<TrajectoryLogPartition::Particles> clone() const override {
    return std::make_unique<ParticlesIn>(*this);
  }

  void advance(const Rbm& next) override {
    next.validate("trajectory model");
    require(next.n_visible() == n_visible_ && next.n_hidden() == n_hidden_, [&] {
      return "trajectory model: " + std::to_string(next.n_visible()) + " x " + std::to_string(next.n_hidden()) +
             " units, but the particles follow a " + std::to_string(n_visible_) + " x " + std::to_string(n_hidden_) +
             " model";
    });
    // log w += log p*_θ′(v) − log p*_θ(v) = F_θ(v) − F_θ′(v); log p*_θ(v) was kept when v was drawn.
    log_weights_ += log_marginals(next) - log_marginals_;
    resample_degenerate_groups();
    move(next);
    refresh_log_marginals(next);
  }

  TrackedLogPartition estimate() const override {
    TrackedLogPartition result;
    VectorD group_log_partitions(options_.groups);
    result.smallest_effective_sample_size = std::numeric_limits<double>::infinity();
    for (Eigen::Index group = 0; group < options_.groups; ++group) {
      const auto weights = group_log_weights(group);
      const double largest = weights.maxCoeff();
      group_log_partitions[group] = banked_[group] + largest + std::log((weights.array() - largest).exp().mean());
      result.smallest_effective_sample_size =
          std::min(result.smallest_effective_sample_size, effective_sample_size(weights));
    }
    result.resamplings = resamplings_;
    if (options_.groups == 1) {  // one Ẑ has no spread to read a band from
      result.log_partition = group_log_partitions[0];
      result.lower = -std::numeric_limits<double>::infinity();
      result.upper = std::numeric_limits<double>::infinity();
      result.relative_standard_error = std::numeric_limits<double>::infinity();
      return result;
    }
    // The union of the two bands of §11.3: the mean's, right where the Ẑ_g are near normal, and the lognormal one,
    // right where they are heavy-tailed; the estimate stays the mean, unbiased in Z.
    const LogMeanBand of_the_mean = log_mean_with_band(group_log_partitions);
    const LogMeanBand lognormal = lognormal_band(group_log_partitions);
    result.log_partition = of_the_mean.log_mean;
    result.lower = std::min(of_the_mean.lower, lognormal.lower);
    result.upper = std::max(of_the_mean.upper, lognormal.upper);
    result.relative_standard_error = std::expm1(of_the_mean.upper - of_the_mean.log_mean) / band_standard_errors;
    return result;
  }

  VectorD draw_visible(double uniform) const override {
    // Particle i of group g carries e^{banked_g + log w_i} of the sum whose mean over the groups is the estimate.
    const Eigen::Index size = options_.particles / options_.groups;
    Eigen::ArrayXd shares(options_.particles);
    for (Eigen::Index particle = 0; particle < options_.particles; ++particle)
      shares[particle] = banked_[particle / size] + log_weights_[particle];
    shares = (shares - shares.maxCoeff()).exp();
    const double target = uniform * shares.sum();
    double cumulative = 0.0;
    Eigen::Index chosen = 0;
    for (; chosen + 1 < options_.particles; ++chosen) {
      cumulative += shares[chosen];
      if (target < cumulative) break;
    }
    return chains_.visible().row(chosen).transpose().template cast<double>();
  }

  const TrajectoryLogPartitionOptions& options() const override { return options_; }

  void save(BinaryWriter& writer) const override {
    writer.write_string(identity());
    writer.write_matrix(chains_.visible());
    writer.write_matrix(chains_.hidden());
    writer.write_streams(chains_.streams());
    writer.write_streams(resampling_streams_);
    writer.write_vector(log_weights_);
    writer.write_vector(banked_);
    writer.write_vector(log_marginals_);
    writer.write_i64(resamplings_);
  }

  void load(BinaryReader& reader) override {
    if (const std::string stored = reader.read_string(); stored != identity())
      reader.fail("its log Z along training was tracked with " + stored + ", this run tracks it with " + identity());
    const Eigen::Index particles = options_.particles;
    chains_.visible() = reader.read_state_matrix<Scalar>(particles, n_visible_, "trajectory particles' visible states");
    chains_.hidden() = reader.read_state_matrix<Scalar>(particles, n_hidden_, "trajectory particles' hidden states");
    chains_.streams() = reader.read_streams(static_cast<std::size_t>(particles), "trajectory particle streams");
    resampling_streams_ = reader.read_streams(resampling_streams_.size(), "trajectory resampling streams");
    log_weights_ = reader.read_vector<double>(particles, "trajectory log-weights");
    banked_ = reader.read_vector<double>(options_.groups, "trajectory banked log means");
    log_marginals_ = reader.read_vector<double>(particles, "trajectory log marginals");
    resamplings_ = reader.read_i64();
    if (resamplings_ < 0) reader.fail("the trajectory resampling count is negative");
  }

 private:
  // What a saved state must match: the options that shape it or change its numbers, and the model's shape.
  std::string identity() const {
    return nlohmann::json{{"particles", options_.particles},
                          {"groups", options_.groups},
                          {"resampling_threshold", options_.resampling_threshold},
                          {"sweeps_per_update", options_.sweeps_per_update},
                          {"operator", to_string(options_.rule)},
                          {"float32", options_.single_precision},
                          {"visible", n_visible_},
                          {"hidden", n_hidden_}}
        .dump();
  }

  Eigen::VectorBlock<const VectorD> group_log_weights(Eigen::Index group) const {
    const Eigen::Index size = options_.particles / options_.groups;
    return log_weights_.segment(group * size, size);
  }

  // log p*_θ(v) = bᵀv + Σ_i softplus(c_i + W_i v) of the particles' visible states, in double whatever the sampling
  // precision: the increments are differences of nearly equal free energies. Leaves c + W v in hidden_inputs_.
  VectorD log_marginals(const Rbm& model) {
    const MatrixD* visible = nullptr;
    if constexpr (std::is_same_v<Scalar, double>) {
      visible = &chains_.visible();
    } else {
      visible_in_double_ = chains_.visible().template cast<double>();
      visible = &visible_in_double_;
    }
    model.binary_layer_inputs(Layer::hidden, *visible, hidden_inputs_);
    return *visible * model.visible_bias + softplus_array(hidden_inputs_.array()).rowwise().sum().matrix();
  }

  void refresh_log_marginals(const Rbm& model) { log_marginals_ = log_marginals(model); }

  // Each group whose ESS fell below the threshold banks log mean w, draws its ancestors systematically and restarts
  // its weights at 0; the particles' streams stay with their slots, so offspring of one ancestor move apart.
  void resample_degenerate_groups() {
    const Eigen::Index size = options_.particles / options_.groups;
    for (Eigen::Index group = 0; group < options_.groups; ++group) {
      auto weights = log_weights_.segment(group * size, size);
      if (effective_sample_size(weights) >= options_.resampling_threshold * static_cast<double>(size)) continue;
      const double largest = weights.maxCoeff();
      const Eigen::ArrayXd relative = (weights.array() - largest).exp();
      banked_[group] += largest + std::log(relative.mean());
      const std::vector<Eigen::Index> ancestors =
          systematic_ancestors(relative, resampling_streams_[static_cast<std::size_t>(group)].uniform());
      copy_ancestor_rows(chains_.visible(), group * size, ancestors);
      copy_ancestor_rows(chains_.hidden(), group * size, ancestors);
      copy_ancestor_rows(hidden_inputs_, group * size, ancestors);
      weights.setZero();
      ++resamplings_;
    }
  }

  // sweeps_per_update transitions that leave p_θ′(v) invariant: h by Gibbs (the first from the inputs c′ + W′v the
  // reweighting computed), then v by the rule.
  void move(const Rbm& next) {
    const BasicRbm<Scalar>* model = nullptr;
    const Matrix<Scalar>* hidden_inputs = nullptr;
    if constexpr (std::is_same_v<Scalar, double>) {
      model = &next;
      hidden_inputs = &hidden_inputs_;
    } else {
      model_in_precision_.weights = next.weights.cast<Scalar>();
      model_in_precision_.visible_bias = next.visible_bias.cast<Scalar>();
      model_in_precision_.hidden_bias = next.hidden_bias.cast<Scalar>();
      model = &model_in_precision_;
      hidden_inputs_in_precision_ = hidden_inputs_.cast<Scalar>();
      hidden_inputs = &hidden_inputs_in_precision_;
    }
    chains_.sample_from_inputs(Layer::hidden, *hidden_inputs, GibbsRule{});
    chains_.update_visible(*model, options_.rule);
    for (int sweep = 1; sweep < options_.sweeps_per_update; ++sweep) {
      chains_.update_hidden(*model, GibbsRule{});
      chains_.update_visible(*model, options_.rule);
    }
  }

  TrajectoryLogPartitionOptions options_;
  Eigen::Index n_visible_;
  Eigen::Index n_hidden_;
  BatchedChains<Scalar> chains_;
  std::vector<RandomStream> resampling_streams_;  // one per group
  VectorD log_weights_;                           // since each group's last resampling
  VectorD banked_;                                // per group: log Z_start + Σ log mean w at its resamplings
  VectorD log_marginals_;                         // log p*_θ(v) of the particles under the current model θ
  std::int64_t resamplings_ = 0;

  // Workspaces.
  MatrixD visible_in_double_;
  MatrixD hidden_inputs_;  // c + W v of the last log_marginals
  BasicRbm<Scalar> model_in_precision_;
  Matrix<Scalar> hidden_inputs_in_precision_;
};

}  // namespace

bool TrajectoryLogPartitionOptions::is_valid(std::string* why) const {
  const auto fail = [&](const std::string& reason) {
    if (why != nullptr) *why = reason;
    return false;
  };
  if (groups < 1) return fail("log Z along training needs at least 1 particle group, got " + std::to_string(groups));
  if (particles < groups || particles % groups != 0)
    return fail("log Z along training: the " + std::to_string(particles) +
                " particles must be a positive multiple of the " + std::to_string(groups) + " groups");
  if (!(resampling_threshold >= 0.0 && resampling_threshold <= 1.0))
    return fail("log Z along training: the resampling threshold must lie in [0, 1], got " +
                std::to_string(resampling_threshold));
  if (sweeps_per_update < 1)
    return fail("log Z along training needs at least 1 sweep per update, got " + std::to_string(sweeps_per_update));
  return true;
}

TrajectoryLogPartition::TrajectoryLogPartition(const Rbm& first, const TrajectoryLogPartitionOptions& options) {
  std::string why;
  require(options.is_valid(&why), why);
  first.validate("trajectory model");
  if (options.single_precision) {
    particles_ = std::make_unique<ParticlesIn<float>>(first, options);
  } else {
    particles_ = std::make_unique<ParticlesIn<double>>(first, options);
  }
}

TrajectoryLogPartition::~TrajectoryLogPartition() = default;
TrajectoryLogPartition::TrajectoryLogPartition(const TrajectoryLogPartition& other)
    : particles_(other.particles_->clone()) {}
TrajectoryLogPartition& TrajectoryLogPartition::operator=(const TrajectoryLogPartition& other) {
  if (this != &other) particles_ = other.particles_->clone();
  return *this;
}
TrajectoryLogPartition::TrajectoryLogPartition(TrajectoryLogPartition&&) noexcept = default;
TrajectoryLogPartition& TrajectoryLogPartition::operator=(TrajectoryLogPartition&&) noexcept = default;

void TrajectoryLogPartition::advance(const Rbm& next) { particles_->advance(next); }
TrackedLogPartition TrajectoryLogPartition::estimate() const { return particles_->estimate(); }
VectorD TrajectoryLogPartition::draw_visible(double uniform) const { return particles_->draw_visible(uniform); }
const TrajectoryLogPartitionOptions& TrajectoryLogPartition::options() const { return particles_->options(); }
void TrajectoryLogPartition::save(BinaryWriter& writer) const { particles_->save(writer); }
void TrajectoryLogPartition::load(BinaryReader& reader) { particles_->load(reader); }

std::int64_t anneal_in_sized_steps(TrajectoryLogPartition& particles, const Rbm& from, const Rbm& to,
                                   const VectorD& from_free_energies, const VectorD& to_free_energies,
                                   double step_size) {
  const Eigen::ArrayXd change = (to_free_energies - from_free_energies).array();
  const double spread = std::sqrt((change - change.mean()).square().mean());
  const double steps = std::max(1.0, std::ceil(spread / step_size));
  for (double step = 1.0; step < steps; step += 1.0) particles.advance(interpolate(from, to, step / steps));
  particles.advance(to);  // the last step is `to` to the bit
  return static_cast<std::int64_t>(steps);
}

}  // namespace rbmix
