#pragma once
// Annealed importance sampling of log Z (Salakhutdinov & Murray 2008; docs/algorithms/estimation.md §5).
//
// Base model A: W = 0, c = 0, visible bias b_A (the base rate logit of the clipped data mean, or 0), so
//   log Z_A = Σ_j softplus(b_Aj) + n log 2.
// Intermediate unnormalised marginals, β_0 = 0 < β_1 < … < β_K = 1:
//   log p*_k(v) = (1 − β_k) b_Aᵀv + β_k bᵀv + Σ_i softplus(β_k (c_i + W_i v)).
// At β = 0 the softplus terms give n log 2, so p*_0 is exactly A's unnormalised marginal e^{b_Aᵀv} 2^n and no
// other constant appears; at β = 1, p*_K(v) = e^{−F(v)}, whose sum is Z.
// Each particle starts with v_1 ~ p_A, then for k = 1..K: log w += log p*_k(v_k) − log p*_{k−1}(v_k), and (k < K)
// v_{k+1} comes from one transition that leaves the marginal p_k(v) invariant. p_k is itself an RBM (W_k = β_k W,
// c_k = β_k c, b_k = β_k b + (1−β_k) b_A), so the particles are BatchedChains on it: h ~ σ(β_k(c + Wv)) by Gibbs
// (the weights use the marginal p*_k(v), so the chain must be Markov in v), then the visible layer by any unit rule
// (options.rule; Gibbs gives v ~ σ((1−β_k) b_A + β_k(b + Wᵀh))). Any such transition keeps E[w] = Z/Z_A.
// Then E[w] = Z/Z_A and log Ẑ = log Z_A + log mean w. Ẑ is unbiased, log Ẑ is biased low (Jensen), so the AIS
// estimate of a log-likelihood tends to be optimistic.
// Band (as S&M): log Z_A + log(mean w ± 3 standard errors of the mean); the lower end is −∞ when mean − 3 se ≤ 0.
// Particle p draws from RandomStream(seed, p, StreamDomain::chains): results do not depend on the thread count.
// The log weights are accumulated in double; the sampling and the inputs run in float or double (options).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix {

enum class AisSchedule {
  linear,                // β_k = k/K
  salakhutdinov_murray,  // steps of 1e-3 up to 0.5, 1e-4 up to 0.9, 1e-5 up to 1: K = 14 500
};

AisSchedule parse_ais_schedule(const std::string& text);  // "linear" | "sm"
std::string to_string(AisSchedule schedule);

struct AisOptions {
  Eigen::Index particles = 100;        // 002's default
  Eigen::Index distributions = 10000;  // K of the linear schedule (ignored by salakhutdinov_murray)
  AisSchedule schedule = AisSchedule::linear;
  std::uint64_t seed = 1;
  VectorD base_visible_bias;     // b_A; empty means 0 (a uniform base)
  bool single_precision = true;  // sample in float (see analysis/rbmix/experiments/ais_check_experiment.cpp for the measurement)
  UnitRule rule = GibbsRule{};   // the operator of the visible updates
  // Optional: called after each intermediate distribution with the distributions done of K (a progress line).
  std::function<void(Eigen::Index distributions_done)> on_distribution;

  bool is_valid(std::string* why) const;
};

struct AisResult {
  double log_partition = 0.0;          // log Ẑ
  double log_partition_lower = 0.0;    // log Z_A + log(mean w − 3 se), −∞ when not positive
  double log_partition_upper = 0.0;    // log Z_A + log(mean w + 3 se)
  double base_log_partition = 0.0;     // log Z_A
  double effective_sample_size = 0.0;  // (Σw)² / Σw², between 1 and the particle count
  Eigen::Index distributions = 0;      // K
  VectorD log_weights;                 // one per particle
};

// β_0 = 0, …, β_K = 1 of a schedule.
std::vector<double> ais_inverse_temperatures(AisSchedule schedule, Eigen::Index distributions);

// b_A = logit(data mean clipped to [clip, 1 − clip]) from 0/1 data, one sample per row.
VectorD base_rate_visible_bias(const MatrixD& data, double clip = 1e-3);

// Throws InputError for invalid options or a model that does not validate, or a b_A of the wrong length.
AisResult ais_log_partition(const Rbm& rbm, const AisOptions& options);

// Reverse AIS (Burda, Grosse & Salakhutdinov 2015): the same annealing run from the model (β = 1) down to the
// base, starting at the rows of `start` (one particle per row), so that mean w estimates Z_A/Z and
// log Ẑ = log Z_A − log mean w. Started from exact samples of the model, E[w] = Z_A/Z exactly and, by Jensen,
// log Ẑ over-estimates log Z on average: with forward AIS (which under-estimates) it brackets log Z. Started
// from data rows it is an approximation (data are not model samples). options.particles is ignored.
AisResult reverse_ais_log_partition(const Rbm& rbm, const MatrixD& start, const AisOptions& options);

// log mean_i e^{x_i} over the entries of `log_values` (at least 2) with S&M's band log(mean ± 3 standard errors of
// the mean), the lower end −∞ where mean − 3 se ≤ 0; formed relative to the largest entry, so that nothing overflows
// or underflows. AIS summarises its weights by it, the trajectory estimator its independent groups.
struct LogMeanBand {
  double log_mean = 0.0;
  double lower = 0.0;
  double upper = 0.0;
};
LogMeanBand log_mean_with_band(const VectorD& log_values);
// (Σ w)² / Σ w² of the weights e^{x_i}, between 1 and the count.
double effective_sample_size(const Eigen::Ref<const VectorD>& log_weights);

// The average log-likelihood of the rows of `data`, mean(−F(v)) − log Ẑ, with the band the log Z band implies
// (a high log Z gives the low log-likelihood).
struct LogLikelihoodEstimate {
  double value = 0.0;
  double lower = 0.0;
  double upper = 0.0;
};
LogLikelihoodEstimate ais_average_log_likelihood(const Rbm& rbm, const MatrixD& data, const AisResult& ais);
// The same from any estimate of log Z with its band [lower, upper].
LogLikelihoodEstimate estimated_average_log_likelihood(const Rbm& rbm, const MatrixD& data, double log_partition,
                                                       double lower, double upper);

}  // namespace rbmix
