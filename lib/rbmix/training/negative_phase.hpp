#pragma once
// NegativePhase: the model side of the log-likelihood gradient (docs/algorithms/training.md §3). Training algorithms
// differ only here; the positive phase, the parameter step and the optimizer are shared by all of them (trainer.hpp).
//
// The concept: per mini-batch the trainer calls start_batch once, then statistics() once per inner step (d times
// for S-DCP, once otherwise) with the model to sample, then after_step with the gradient it applied.
// statistics(θ) returns ⟨E[h|v] vᵀ⟩, ⟨v⟩, ⟨E[h|v]⟩ over the negative samples v, with E[h|v] = σ(c + W v) under θ
// (Rao-Blackwellised hidden side). A sampling phase promises: its chains are driven by the unit rule of the
// options through BatchedChains (one stream per chain, so any thread count gives the same numbers); and, for
// the persistent ones, that its samples are distributed as p_θ in the limit of many sweeps at fixed θ.
//
// Implementations:
//   exact               enumeration of the smaller layer (exact_model_statistics);
//   CD-k                B chains set to (batch, h ~ p(h|v)) at start_batch, k sweeps per statistics() call,
//                       carrying over between the d inner steps (002 Alg. 3);
//   PCD-k               B persistent chains (one per batch row), set to the first batch once, never reset;
//   FPCD                PCD whose chains sample θ + θ_F; θ_F ← α θ_F + ε_F g after every step (001 §2);
//   t-PT k              B independent tempering systems of t replicas at β = uniform_inverse_temperatures(t),
//                       k sweeps at β each, then swaps of neighbours (β_0,β_1), (β_1,β_2), … in turn; β = 1 gives
//                       the sample;
//   MF-CD               deterministic: h⁰ = σ(c+Wv), v¹ = σ(b+Wᵀh⁰), h¹ = σ(c+Wv¹), statistics of (v¹, h¹) (000 §2.2).
// A classification RBM (options.label_classes > 0) keeps all of these: its label group, the last visible units, is
// drawn exactly from p(y | h) after every sweep and is the softmax p(y | h⁰) in MF-CD (sampling/softmax_group.hpp).
// The phase runs in the update's precision, Scalar: float when options.sample_in_float (the chains, the statistics
// and the model they sample are float; the trainer keeps the master parameters in double), double otherwise.
#include <memory>

#include "rbmix/model/rbm.hpp"
#include "rbmix/model/statistics.hpp"
#include "rbmix/training/binary_archive.hpp"
#include "rbmix/training/training_options.hpp"
#include "rbmix/training/update_paths.hpp"

namespace rbmix {

// What every negative phase has whatever its precision: the state a checkpoint keeps and the gradient it learns from.
class NegativePhase {
 public:
  virtual ~NegativePhase() = default;

  // Whether the phase learns from the gradient the trainer applies (FPCD's fast weights): only then does the
  // trainer write the gradient out and call after_step with it.
  virtual bool learns_from_gradient() const { return false; }
  // The gradient estimate the trainer has just applied.
  virtual void after_step(const Rbm& /*gradient*/) {}

  // The complete state (chains, streams, fast weights), so a resumed run continues bit for bit.
  virtual void save(BinaryWriter& writer) const = 0;
  virtual void load(BinaryReader& reader) = 0;
};

template <typename Scalar>
class BasicNegativePhase : public NegativePhase {
 public:
  // A new mini-batch (one sample per row) with its positive hidden probabilities p(h = 1 | v) = σ(c + W v) at the
  // current parameters.
  virtual void start_batch(const Matrix<Scalar>& batch, const Matrix<Scalar>& positive_hidden_probabilities) = 0;
  // Negative statistics for the model `rbm`, kept by the phase until its next call.
  virtual const BasicStatistics<Scalar>& statistics(const BasicRbm<Scalar>& rbm) = 0;
};

// The negative phase the options name, in Scalar, for an RBM of the given size trained with `batch_size` rows per
// batch. Its chains draw from streams derived from options.seed and take the products and tempering schedule
// `paths` name (update_paths.hpp).
template <typename Scalar>
std::unique_ptr<BasicNegativePhase<Scalar>> make_negative_phase(const TrainingOptions& options, Eigen::Index n_visible,
                                                                Eigen::Index n_hidden, Eigen::Index batch_size,
                                                                UpdatePaths paths = {});

}  // namespace rbmix
