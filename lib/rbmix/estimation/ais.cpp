#include "rbmix/estimation/ais.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rbmix/core/entry_checks.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/core/thread_count_tuner.hpp"
#include "rbmix/sampling/batched_chains.hpp"

namespace rbmix {
namespace {

// S&M's band: mean weight ± this many standard errors.
constexpr double band_standard_errors = 3.0;

// Appends β from `start` (exclusive) to `stop` (inclusive) in steps of `step`, rounding the step count so that
// floating-point drift cannot add or drop a point.
void append_segment(std::vector<double>& betas, double start, double stop, double step) {
  const auto count = static_cast<Eigen::Index>(std::llround((stop - start) / step));
  for (Eigen::Index k = 1; k <= count; ++k)
    betas.push_back(start + (stop - start) * static_cast<double>(k) / static_cast<double>(count));
}

// The AIS particles, in the sampling precision: BatchedChains on the intermediate RBMs (one chain per particle).
template <typename Scalar>
class AnnealedParticles {
 public:
  // Particles start at the rows of `start`, or drawn from p_A when it is empty.
  AnnealedParticles(const Rbm& rbm, const VectorD& base_bias, const MatrixD& start, const AisOptions& options)
      : rbm_(rbm.cast<Scalar>()),
        base_bias_(base_bias.cast<Scalar>()),
        rule_(options.rule),
        chains_(options.particles, rbm.n_visible(), rbm.n_hidden(), options.seed) {
    if (start.rows() > 0) {
      chains_.set_visible(start);
    } else {
      // v ~ p_A: p_0 is the base RBM (W = 0, c = 0, b = b_A), whose visible units are independent with
      // P(v_j = 1) = σ(b_Aj): one Gibbs update of its visible layer is an exact draw.
      visible_inputs_ = base_bias_.transpose().replicate(options.particles, 1);
      chains_.sample_from_inputs(Layer::visible, visible_inputs_, GibbsRule{});
    }
    refresh_terms();
  }

  // log p*_β(v) − log p*_{β_previous}(v) for every particle, at the current v.
  void add_log_weight_increments(double beta, double previous_beta, VectorD& log_weights) const {
    const auto scale = static_cast<Scalar>(beta);
    const auto previous_scale = static_cast<Scalar>(previous_beta);
    const Vector<Scalar> softplus_difference =
        (softplus_array(scale * hidden_inputs_.array()) - softplus_array(previous_scale * hidden_inputs_.array()))
            .rowwise()
            .sum()
            .matrix();
    log_weights += ((beta - previous_beta) * (target_visible_term_ - base_visible_term_) +
                    softplus_difference.template cast<double>().array())
                       .matrix();
  }

  // One transition of v that leaves the marginal p_β(v) invariant: h ~ p_β(h|v) by a Gibbs update, then the visible
  // layer by the options' operator, which leaves p_β(v|h) invariant. The weights are those of the marginal p*(v), so
  // the chain must be Markov in v: an operator that kept h from the previous step (flip-the-state) would make the
  // estimate biased. With Gibbs this is the usual sweep.
  // p_β ∝ p*_A^{1−β} p*^β is itself an RBM, with W_β = βW, c_β = βc and b_β = βb + (1 − β) b_A. Its layer inputs
  // are formed from the target's: β(c + W v), whose c + W v refresh_terms has already computed for the weights, and
  // β(b + Wᵀh) + (1 − β) b_A. So a step costs two products and no pass over a scaled copy of W.
  void transition(double beta) {
    const auto scale = static_cast<Scalar>(beta);
    hidden_inputs_ *= scale;  // the weights are done with c + W v; refresh_terms recomputes it for the new v
    chains_.sample_from_inputs(Layer::hidden, hidden_inputs_, GibbsRule{});
    rbm_.binary_layer_inputs(Layer::visible, chains_.hidden(), visible_inputs_, scale);
    visible_inputs_.rowwise() += ((Scalar(1) - scale) * base_bias_).transpose();
    chains_.sample_from_inputs(Layer::visible, visible_inputs_, rule_);
    refresh_terms();
  }

 private:
  // c + W v (unscaled: the log weights need it at two inverse temperatures), bᵀv and b_Aᵀv at the current v.
  void refresh_terms() {
    rbm_.binary_layer_inputs(Layer::hidden, chains_.visible(), hidden_inputs_);
    target_visible_term_ = (chains_.visible() * rbm_.visible_bias).template cast<double>().array();
    base_visible_term_ = (chains_.visible() * base_bias_).template cast<double>().array();
  }

  BasicRbm<Scalar> rbm_;
  Vector<Scalar> base_bias_;
  UnitRule rule_;
  BatchedChains<Scalar> chains_;
  Matrix<Scalar> hidden_inputs_;        // c + W v (β(c + W v) during a transition)
  Matrix<Scalar> visible_inputs_;       // β(b + Wᵀh) + (1 − β) b_A, kept so that a step allocates nothing
  Eigen::ArrayXd target_visible_term_;  // bᵀv
  Eigen::ArrayXd base_visible_term_;    // b_Aᵀv
};

// One annealing run along `betas` (increasing for AIS, decreasing for reverse AIS): at each step the weight gains
// log p*_{β_k}(v) − log p*_{β_{k−1}}(v), then (except after the last) v moves by a sweep that leaves p_{β_k}
// invariant. Any invariant sweep keeps E[w] = Z_last / Z_first.
template <typename Scalar>
VectorD annealed_log_weights(const Rbm& rbm, const VectorD& base_bias, const std::vector<double>& betas,
                             const MatrixD& start, const AisOptions& options) {
  AnnealedParticles<Scalar> particles(rbm, base_bias, start, options);
  VectorD log_weights = VectorD::Zero(options.particles);
  // Each step runs on the team that a ThreadCountTuner picks by timing the steps, as training's updates do
  // (thread_count_tuner.hpp): on a busy machine the threaded step can be slower than one thread. Only the team's
  // size changes, so the weights do not.
  ThreadCountTuner tuner;
  for (std::size_t k = 1; k < betas.size(); ++k) {
    tuner.run([&] {
      particles.add_log_weight_increments(betas[k], betas[k - 1], log_weights);
      if (k + 1 < betas.size()) particles.transition(betas[k]);
    });
    if (options.on_distribution) options.on_distribution(static_cast<Eigen::Index>(k));
  }
  return log_weights;
}

// The base bias b_A the options ask for, checked against the model.
VectorD checked_base_bias(const Rbm& rbm, const AisOptions& options) {
  std::string why;
  require(options.is_valid(&why), why);
  rbm.validate("AIS model");
  const VectorD base_bias =
      options.base_visible_bias.size() == 0 ? VectorD::Zero(rbm.n_visible()) : options.base_visible_bias;
  require(base_bias.size() == rbm.n_visible(), "AIS base visible bias has " + std::to_string(base_bias.size()) +
                                                   " entries but the model has " + std::to_string(rbm.n_visible()) +
                                                   " visible units");
  return base_bias;
}

// Runs the annealing and summarises the weights. Forward, mean w estimates Z/Z_A; reverse, it estimates Z_A/Z,
// so log Z = log Z_A − log mean w and the band's ends swap.
AisResult run_annealing(const Rbm& rbm, const VectorD& base_bias, const MatrixD& start, const AisOptions& options,
                        bool reverse) {
  std::vector<double> betas = ais_inverse_temperatures(options.schedule, options.distributions);
  if (reverse) std::reverse(betas.begin(), betas.end());
  AisResult result;
  result.distributions = static_cast<Eigen::Index>(betas.size()) - 1;
  result.log_weights = options.single_precision ? annealed_log_weights<float>(rbm, base_bias, betas, start, options)
                                                : annealed_log_weights<double>(rbm, base_bias, betas, start, options);
  result.base_log_partition =
      softplus_array(base_bias.array()).sum() + static_cast<double>(rbm.n_hidden()) * std::log(2.0);

  const LogMeanBand mean_weight = log_mean_with_band(result.log_weights);
  const double sign = reverse ? -1.0 : 1.0;
  result.log_partition = result.base_log_partition + sign * mean_weight.log_mean;
  result.log_partition_upper = result.base_log_partition + (reverse ? -mean_weight.lower : mean_weight.upper);
  result.log_partition_lower = result.base_log_partition + (reverse ? -mean_weight.upper : mean_weight.lower);
  result.effective_sample_size = effective_sample_size(result.log_weights);
  return result;
}

}  // namespace

LogMeanBand log_mean_with_band(const VectorD& log_values) {
  require(log_values.size() >= 2, "log_mean_with_band: a standard error needs at least 2 values");
  // Values relative to the largest, so that the sums neither overflow nor underflow.
  const double largest = log_values.maxCoeff();
  const Eigen::ArrayXd values = (log_values.array() - largest).exp();
  const auto count = static_cast<double>(values.size());
  const double mean = values.mean();
  const double standard_error = std::sqrt((values - mean).square().sum() / (count - 1.0) / count);
  const double low = mean - band_standard_errors * standard_error;
  return {largest + std::log(mean), low > 0.0 ? largest + std::log(low) : -std::numeric_limits<double>::infinity(),
          largest + std::log(mean + band_standard_errors * standard_error)};
}

double effective_sample_size(const Eigen::Ref<const VectorD>& log_weights) {
  const Eigen::ArrayXd weights = (log_weights.array() - log_weights.maxCoeff()).exp();
  return weights.sum() * weights.sum() / weights.square().sum();
}

AisSchedule parse_ais_schedule(const std::string& text) {
  if (text == "linear") return AisSchedule::linear;
  if (text == "sm") return AisSchedule::salakhutdinov_murray;
  throw InputError("AIS schedule: expected 'linear' or 'sm', got '" + text + "'");
}

std::string to_string(AisSchedule schedule) { return schedule == AisSchedule::linear ? "linear" : "sm"; }

bool AisOptions::is_valid(std::string* why) const {
  const auto fail = [&](const std::string& reason) {
    if (why != nullptr) *why = reason;
    return false;
  };
  if (particles < 2)
    return fail("AIS needs at least 2 particles (for the standard error), got " + std::to_string(particles));
  if (schedule == AisSchedule::linear && distributions < 1)
    return fail("AIS needs at least 1 intermediate distribution, got " + std::to_string(distributions));
  if (!base_visible_bias.allFinite()) return fail("AIS base visible bias contains NaN or Inf");
  return true;
}

std::vector<double> ais_inverse_temperatures(AisSchedule schedule, Eigen::Index distributions) {
  std::vector<double> betas{0.0};
  if (schedule == AisSchedule::linear) {
    require(distributions >= 1, "AIS: at least 1 intermediate distribution");
    append_segment(betas, 0.0, 1.0, 1.0 / static_cast<double>(distributions));
  } else {
    append_segment(betas, 0.0, 0.5, 1e-3);
    append_segment(betas, 0.5, 0.9, 1e-4);
    append_segment(betas, 0.9, 1.0, 1e-5);
  }
  return betas;
}

VectorD base_rate_visible_bias(const MatrixD& data, double clip) {
  require(data.rows() >= 1, "base_rate_visible_bias: no data");
  require(clip > 0.0 && clip < 0.5, "base_rate_visible_bias: the clip must lie in (0, 0.5)");
  const Eigen::ArrayXd mean = data.colwise().mean().transpose().array().max(clip).min(1.0 - clip);
  return (mean / (1.0 - mean)).log().matrix();
}

AisResult ais_log_partition(const Rbm& rbm, const AisOptions& options) {
  const VectorD base_bias = checked_base_bias(rbm, options);
  return run_annealing(rbm, base_bias, MatrixD(0, rbm.n_visible()), options, false);
}

AisResult reverse_ais_log_partition(const Rbm& rbm, const MatrixD& start, const AisOptions& options) {
  AisOptions reverse_options = options;
  reverse_options.particles = start.rows();
  const VectorD base_bias = checked_base_bias(rbm, reverse_options);
  require(start.cols() == rbm.n_visible(), "reverse AIS: start states have " + std::to_string(start.cols()) +
                                               " units but the model has " + std::to_string(rbm.n_visible()));
  require(all_binary(start), "reverse AIS: start states must be 0/1");
  return run_annealing(rbm, base_bias, start, reverse_options, true);
}

LogLikelihoodEstimate ais_average_log_likelihood(const Rbm& rbm, const MatrixD& data, const AisResult& ais) {
  return estimated_average_log_likelihood(rbm, data, ais.log_partition, ais.log_partition_lower,
                                          ais.log_partition_upper);
}

LogLikelihoodEstimate estimated_average_log_likelihood(const Rbm& rbm, const MatrixD& data, double log_partition,
                                                       double lower, double upper) {
  require(data.cols() == rbm.n_visible(), "estimated log-likelihood: data have " + std::to_string(data.cols()) +
                                              " columns but the model has " + std::to_string(rbm.n_visible()) +
                                              " visible units");
  require(data.rows() >= 1, "estimated log-likelihood: no data");
  const double mean_negative_free_energy = -rbm.free_energy(data).mean();
  return {mean_negative_free_energy - log_partition, mean_negative_free_energy - upper,
          mean_negative_free_energy - lower};
}

}  // namespace rbmix
