#include "rbmix/training/negative_phase.hpp"

#include <omp.h>

#include <exception>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "rbmix/model/exact.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/sampling/softmax_group.hpp"
#include "rbmix/training/parallel_tempering.hpp"

namespace rbmix {
namespace {

// The label group of a classification RBM: the last label_classes visible units (options.label_classes > 0).
std::optional<SoftmaxGroup> label_group(const TrainingOptions& options, Eigen::Index n_visible) {
  if (options.label_classes == 0) return std::nullopt;
  const SoftmaxGroup group{n_visible - options.label_classes, options.label_classes};
  validate_softmax_group(group, n_visible);
  return group;
}

template <typename Scalar>
class ExactNegativePhase final : public BasicNegativePhase<Scalar> {
 public:
  void start_batch(const Matrix<Scalar>&, const Matrix<Scalar>&) override {}
  // Enumeration sums in double whatever the update's precision.
  const BasicStatistics<Scalar>& statistics(const BasicRbm<Scalar>& rbm) override {
    if constexpr (std::is_same_v<Scalar, double>) {
      statistics_ = exact_model_statistics(rbm);
    } else {
      const Statistics exact = exact_model_statistics(rbm.template cast<double>());
      statistics_ = {exact.hidden_visible.cast<Scalar>(), exact.visible.cast<Scalar>(), exact.hidden.cast<Scalar>()};
    }
    return statistics_;
  }
  void save(BinaryWriter&) const override {}
  void load(BinaryReader&) override {}

 private:
  BasicStatistics<Scalar> statistics_;
};

template <typename Scalar>
class MeanFieldNegativePhase final : public BasicNegativePhase<Scalar> {
 public:
  explicit MeanFieldNegativePhase(std::optional<SoftmaxGroup> label_group) : label_group_(label_group) {}

  void start_batch(const Matrix<Scalar>& /*batch*/, const Matrix<Scalar>& positive_hidden_probabilities) override {
    first_hidden_ = positive_hidden_probabilities;
  }
  // h⁰ is taken at θ^(t) for every inner step: MF-CD restarts from the data like CD.
  const BasicStatistics<Scalar>& statistics(const BasicRbm<Scalar>& rbm) override {
    Matrix<Scalar> visible = rbm.visible_probabilities(first_hidden_);
    // A label group's mean is its softmax p(y | h⁰), not K independent logistics.
    if (label_group_) softmax_group_probabilities(rbm, *label_group_, first_hidden_, visible);
    const Matrix<Scalar> hidden = rbm.hidden_probabilities(visible);
    batch_statistics(visible, hidden, statistics_);
    return statistics_;
  }
  void save(BinaryWriter&) const override {}
  void load(BinaryReader&) override {}

 private:
  std::optional<SoftmaxGroup> label_group_;
  Matrix<Scalar> first_hidden_;
  BasicStatistics<Scalar> statistics_;
};

// CD-k, PCD-k, FPCD and t-PT k: one class, since they differ only in whether the chains restart at each batch,
// in the number of replicas and in the fast weights.
template <typename Scalar>
class ChainNegativePhase final : public BasicNegativePhase<Scalar> {
 public:
  ChainNegativePhase(const TrainingOptions& options, Eigen::Index n_visible, Eigen::Index n_hidden,
                     Eigen::Index batch_size, UpdatePaths paths)
      : paths_(paths),
        rule_(options.rule),
        label_group_(label_group(options, n_visible)),
        sweeps_(options.sampling_steps),
        restart_at_batch_(options.negative_phase == NegativePhaseKind::contrastive_divergence),
        uses_fast_weights_(options.negative_phase == NegativePhaseKind::fast_persistent),
        fast_learning_rate_(options.fast_learning_rate.value_or(options.learning_rate)),
        fast_weight_decay_(options.fast_weight_decay),
        fast_weights_(n_visible, n_hidden) {
    const int replicas = options.negative_phase == NegativePhaseKind::parallel_tempering ? options.replicas : 1;
    inverse_temperatures_ = replicas > 1 ? uniform_inverse_temperatures(replicas) : std::vector<double>{1.0};
    for (int replica = 0; replica < replicas; ++replica) {
      replicas_.emplace_back(batch_size, n_visible, n_hidden, options.seed,
                             static_cast<std::uint64_t>(replica) * static_cast<std::uint64_t>(batch_size));
      replicas_.back().set_product_paths(paths_.products);
    }
    if (replicas > 1)
      for (Eigen::Index chain = 0; chain < batch_size; ++chain)
        swap_streams_.emplace_back(options.seed, static_cast<std::uint64_t>(chain), StreamDomain::tempering);
    if (replicas > 1) {
      zero_hidden_inputs_ = Matrix<Scalar>::Zero(batch_size, n_hidden);
      zero_visible_inputs_ = Matrix<Scalar>::Zero(batch_size, n_visible);
    }
  }

  void start_batch(const Matrix<Scalar>& batch, const Matrix<Scalar>& positive_hidden_probabilities) override {
    if (initialised_ && !restart_at_batch_) return;
    // The chains start at the data: v = batch and h ~ p(h|v), a joint state the unit rule can continue from
    // (the flip-the-state rule needs a current h).
    for (auto& replica : replicas_) {
      replica.set_visible(batch);
      replica.draw_from_probabilities(Layer::hidden, positive_hidden_probabilities);
    }
    initialised_ = true;
  }

  const BasicStatistics<Scalar>& statistics(const BasicRbm<Scalar>& rbm) override {
    if (uses_fast_weights_) add(rbm, fast_weights_, combined_model_);
    const BasicRbm<Scalar>& sampling_model = uses_fast_weights_ ? combined_model_ : rbm;
    if (replicas_.size() > 1) {
      sweep_replicas(sampling_model);
      swap_neighbours();
    } else {
      sweep_replica(sampling_model, 0);
    }
    // E[h|v] under θ itself: for FPCD the fast weights only steer where the chains go (001 §2).
    const Matrix<Scalar>& visible = replicas_.front().visible();
    rbm.binary_layer_inputs(Layer::hidden, visible, hidden_inputs_, Scalar(1), paths_.products);
    logistic(hidden_inputs_, hidden_probabilities_);
    binary_batch_statistics(visible, hidden_probabilities_, statistics_, paths_.products);
    return statistics_;
  }

  bool learns_from_gradient() const override { return uses_fast_weights_; }
  void after_step(const Rbm& gradient) override {
    if (!uses_fast_weights_) return;
    fast_weights_.weights = fast_weight_decay_ * fast_weights_.weights + fast_learning_rate_ * gradient.weights;
    fast_weights_.visible_bias =
        fast_weight_decay_ * fast_weights_.visible_bias + fast_learning_rate_ * gradient.visible_bias;
    fast_weights_.hidden_bias =
        fast_weight_decay_ * fast_weights_.hidden_bias + fast_learning_rate_ * gradient.hidden_bias;
  }

  void save(BinaryWriter& writer) const override {
    writer.write_u64(initialised_ ? 1 : 0);
    writer.write_u64(replicas_.size());
    for (auto& replica : replicas_) {
      writer.write_matrix(replica.visible());
      writer.write_matrix(replica.hidden());
      writer.write_streams(replica.streams());
    }
    writer.write_streams(swap_streams_);
    writer.write_matrix(fast_weights_.weights);
    writer.write_vector(fast_weights_.visible_bias);
    writer.write_vector(fast_weights_.hidden_bias);
  }

  void load(BinaryReader& reader) override {
    initialised_ = reader.read_flag("chain initialisation");
    if (reader.read_u64() != replicas_.size()) reader.fail("the number of tempering replicas differs");
    for (auto& replica : replicas_) {
      const Eigen::Index chains = replica.chains();
      replica.visible() = reader.read_state_matrix<Scalar>(chains, replica.visible().cols(), "chain visible states");
      replica.hidden() = reader.read_state_matrix<Scalar>(chains, replica.hidden().cols(), "chain hidden states");
      replica.streams() = reader.read_streams(static_cast<std::size_t>(chains), "chain streams");
    }
    swap_streams_ = reader.read_streams(swap_streams_.size(), "tempering swap streams");
    const Eigen::Index n_hidden = fast_weights_.n_hidden();
    const Eigen::Index n_visible = fast_weights_.n_visible();
    fast_weights_.weights = reader.read_matrix<double>(n_hidden, n_visible, "fast weights");
    fast_weights_.visible_bias = reader.read_vector<double>(n_visible, "fast visible bias");
    fast_weights_.hidden_bias = reader.read_vector<double>(n_hidden, "fast hidden bias");
  }

 private:
  // θ + θ_F in the update's precision (the fast weights learn in double, from the double gradient).
  static void add(const BasicRbm<Scalar>& slow, const Rbm& fast, BasicRbm<Scalar>& sum) {
    sum.weights = slow.weights + fast.weights.cast<Scalar>();
    sum.visible_bias = slow.visible_bias + fast.visible_bias.cast<Scalar>();
    sum.hidden_bias = slow.hidden_bias + fast.hidden_bias.cast<Scalar>();
  }

  // k sweeps of one replica at its β.
  void sweep_replica(const BasicRbm<Scalar>& sampling_model, std::size_t replica) {
    const auto beta = static_cast<Scalar>(inverse_temperatures_[replica]);
    BatchedChains<Scalar>& chains = replicas_[replica];
    for (int sweep = 0; sweep < sweeps_; ++sweep) {
      if (label_group_) {
        sweep_with_softmax_group(chains, sampling_model, rule_, *label_group_, beta);
      } else if (beta == Scalar(0) && paths_.replica_parallel_tempering) {
        // At β = 0 every total input β(c + W v) and β(b + Wᵀh) is 0 whatever the states, so the products are
        // skipped: the rule sees +0 where the product gave ±0, which no rule tells apart (their inputs enter through
        // comparisons, |x| and e^{−|x|}), and the draws are the same. (A model with an infinite parameter gave NaN
        // there; the trainer stops such a run as diverged.)
        chains.sample_from_inputs(Layer::hidden, zero_hidden_inputs_, rule_);
        chains.sample_from_inputs(Layer::visible, zero_visible_inputs_, rule_);
      } else {
        chains.sweep(sampling_model, rule_, beta);
      }
    }
  }

  // Every replica's k sweeps, then its energies E(v, h) at β = 1 for the swaps. The replicas are independent until
  // the swaps, so with a thread team each replica runs whole on one thread (largest β last: the hot replicas' denser
  // products take longest), its products and draws on that thread alone. One task per replica replaces some 800
  // thread-team starts per update of a team inside each 100-row product and draw, and a product on one thread sums
  // in one order: Eigen's dense product splits its sums differently with 1 and with 2 threads, so a replica on one
  // thread gives the same bits whatever the team (docs/performance.md, "Parallel tempering").
  void sweep_replicas(const BasicRbm<Scalar>& sampling_model) {
    const auto replicas = static_cast<std::ptrdiff_t>(replicas_.size());
    energies_.resize(replicas_.size());
    const auto advance = [&](std::size_t replica) {
      sweep_replica(sampling_model, replica);
      energies_[replica] = replicas_[replica].energies(sampling_model);
    };
    if (!paths_.replica_parallel_tempering || omp_get_max_threads() < 2) {
      for (std::size_t replica = 0; replica < replicas_.size(); ++replica) advance(replica);
      return;
    }
    // An exception cannot leave a parallel region: the first is kept and thrown after it.
    std::exception_ptr failure;
#pragma omp parallel
    {
      omp_set_num_threads(1);  // the nested products and draws of this thread's replicas
#pragma omp for schedule(dynamic, 1)
      for (std::ptrdiff_t task = 0; task < replicas; ++task) {
        try {
          advance(static_cast<std::size_t>(replicas - 1 - task));
        } catch (...) {
#pragma omp critical(rbmix_tempering_failure)
          if (!failure) failure = std::current_exception();
        }
      }
    }
    if (failure) std::rethrow_exception(failure);
  }

  // Neighbour exchanges (β_0,β_1), (β_1,β_2), … in turn for every tempering system, at the energies sweep_replicas
  // left; each system (chain index) draws from its own stream, so the outcome does not depend on the thread count.
  void swap_neighbours() {
    const std::size_t replicas = replicas_.size();
    const auto chains = static_cast<Eigen::Index>(swap_streams_.size());
    // A few comparisons per chain: serial, since a thread team would cost more than the work.
    for (Eigen::Index chain = 0; chain < chains; ++chain) {
      RandomStream& stream = swap_streams_[static_cast<std::size_t>(chain)];
      for (std::size_t lower = 0; lower + 1 < replicas; ++lower) {
        const std::size_t upper = lower + 1;
        const double probability = replica_swap_probability(inverse_temperatures_[lower], inverse_temperatures_[upper],
                                                            static_cast<double>(energies_[lower][chain]),
                                                            static_cast<double>(energies_[upper][chain]));
        if (stream.uniform() < probability) {
          replicas_[lower].visible().row(chain).swap(replicas_[upper].visible().row(chain));
          replicas_[lower].hidden().row(chain).swap(replicas_[upper].hidden().row(chain));
          std::swap(energies_[lower][chain], energies_[upper][chain]);
        }
      }
    }
  }

  UpdatePaths paths_;
  UnitRule rule_;
  std::optional<SoftmaxGroup> label_group_;
  int sweeps_;
  bool restart_at_batch_;
  bool uses_fast_weights_;
  double fast_learning_rate_;
  double fast_weight_decay_;
  Rbm fast_weights_;
  std::vector<double> inverse_temperatures_;
  std::vector<BatchedChains<Scalar>> replicas_;
  std::vector<RandomStream> swap_streams_;
  bool initialised_ = false;
  // Workspaces, kept so that an update allocates little.
  BasicRbm<Scalar> combined_model_;  // θ + θ_F
  Matrix<Scalar> hidden_inputs_;
  Matrix<Scalar> hidden_probabilities_;
  BasicStatistics<Scalar> statistics_;
  std::vector<Vector<Scalar>> energies_;
  // The total inputs of every unit at β = 0 (tempering only): zero, kept so the hottest replica forms no product.
  Matrix<Scalar> zero_hidden_inputs_;
  Matrix<Scalar> zero_visible_inputs_;
};

}  // namespace

template <typename Scalar>
std::unique_ptr<BasicNegativePhase<Scalar>> make_negative_phase(const TrainingOptions& options, Eigen::Index n_visible,
                                                                Eigen::Index n_hidden, Eigen::Index batch_size,
                                                                UpdatePaths paths) {
  options.validate();
  require(n_visible > 0 && n_hidden > 0, "make_negative_phase: the RBM needs at least one unit in each layer");
  require(batch_size > 0, "make_negative_phase: the batch size must be positive");
  switch (options.negative_phase) {
    case NegativePhaseKind::exact:
      return std::make_unique<ExactNegativePhase<Scalar>>();
    case NegativePhaseKind::mean_field:
      return std::make_unique<MeanFieldNegativePhase<Scalar>>(label_group(options, n_visible));
    case NegativePhaseKind::contrastive_divergence:
    case NegativePhaseKind::persistent:
    case NegativePhaseKind::fast_persistent:
    case NegativePhaseKind::parallel_tempering:
      return std::make_unique<ChainNegativePhase<Scalar>>(options, n_visible, n_hidden, batch_size, paths);
  }
  throw std::logic_error("make_negative_phase: unknown negative phase kind");  // every kind has its case above
}

template std::unique_ptr<BasicNegativePhase<float>> make_negative_phase<float>(const TrainingOptions&, Eigen::Index,
                                                                               Eigen::Index, Eigen::Index, UpdatePaths);
template std::unique_ptr<BasicNegativePhase<double>> make_negative_phase<double>(const TrainingOptions&, Eigen::Index,
                                                                                 Eigen::Index, Eigen::Index,
                                                                                 UpdatePaths);

}  // namespace rbmix
