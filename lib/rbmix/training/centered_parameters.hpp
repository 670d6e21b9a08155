#pragma once
// Centered parameters (Melchior et al. 2016, Alg. 1; 002 Alg. 4). The energy is written around offsets μ (visible)
// and λ (hidden):
//   E(v,h) = −(h − λ)ᵀ W (v − μ) − bᵀ(v − μ) − cᵀ(h − λ),
// which is the plain RBM with the same W and b_plain = b − Wᵀλ, c_plain = c − Wμ (the constant terms cancel in
// p(v,h)). Training moves the offsets towards the batch means by sliding averages and re-parameterises the biases
// at the same time so that the model — the plain RBM — does not change (002 Alg. 4, "Re-parameterization"):
//   b ← b + ν Wᵀ(λ_batch − λ),  c ← c + ν W(μ_batch − μ),  μ ← μ + ν(μ_batch − μ),  λ ← λ + ν(λ_batch − λ).
// The centered gradient is the log-likelihood gradient with respect to (W, b, c) in this form:
//   ∇W = ⟨(h − λ)(v − μ)ᵀ⟩_d − ⟨(h − λ)(v − μ)ᵀ⟩_m = Δ⟨h vᵀ⟩ − Δ⟨h⟩ μᵀ − λ Δ⟨v⟩ᵀ,   ∇b = Δ⟨v⟩,   ∇c = Δ⟨h⟩.
// With μ = 0 and λ = 0 everything reduces to the plain RBM and its gradient.
#include "rbmix/model/rbm.hpp"
#include "rbmix/model/statistics.hpp"

namespace rbmix {

struct CenteredRbm {
  Rbm parameters;          // W, b, c of the centered energy
  VectorD visible_offset;  // μ
  VectorD hidden_offset;   // λ
};

// The centered form of `plain` around the offsets: the same model.
inline CenteredRbm center(const Rbm& plain, const VectorD& visible_offset, const VectorD& hidden_offset) {
  CenteredRbm centered{plain, visible_offset, hidden_offset};
  centered.parameters.visible_bias += plain.weights.transpose() * hidden_offset;
  centered.parameters.hidden_bias += plain.weights * visible_offset;
  return centered;
}

// The equivalent plain RBM, written into `plain` (no allocation once sized).
inline void to_plain(const CenteredRbm& centered, Rbm& plain) {
  const Rbm& parameters = centered.parameters;
  plain.weights = parameters.weights;
  plain.visible_bias.noalias() = parameters.visible_bias - parameters.weights.transpose() * centered.hidden_offset;
  plain.hidden_bias.noalias() = parameters.hidden_bias - parameters.weights * centered.visible_offset;
}

// Moves the offsets a fraction `rate` towards the batch means and re-parameterises the biases so the model stays
// the same (up to rounding).
inline void move_offsets(CenteredRbm& centered, const VectorD& visible_batch_mean, const VectorD& hidden_batch_mean,
                         double rate) {
  const VectorD visible_shift = rate * (visible_batch_mean - centered.visible_offset);
  const VectorD hidden_shift = rate * (hidden_batch_mean - centered.hidden_offset);
  centered.parameters.visible_bias.noalias() += centered.parameters.weights.transpose() * hidden_shift;
  centered.parameters.hidden_bias.noalias() += centered.parameters.weights * visible_shift;
  centered.visible_offset += visible_shift;
  centered.hidden_offset += hidden_shift;
}

// The centered gradient from positive and negative statistics, at the current offsets, written into `gradient`.
template <typename Scalar>
void centered_gradient(const BasicStatistics<Scalar>& positive, const BasicStatistics<Scalar>& negative,
                       const CenteredRbm& centered, Rbm& gradient) {
  statistics_difference(positive, negative, gradient);
  gradient.weights.noalias() -= gradient.hidden_bias * centered.visible_offset.transpose();
  gradient.weights.noalias() -= centered.hidden_offset * gradient.visible_bias.transpose();
}

inline Rbm centered_gradient(const Statistics& positive, const Statistics& negative, const CenteredRbm& centered) {
  Rbm gradient;
  centered_gradient(positive, negative, centered, gradient);
  return gradient;
}

}  // namespace rbmix
