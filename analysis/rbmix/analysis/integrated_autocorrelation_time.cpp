#include "rbmix/analysis/integrated_autocorrelation_time.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix::analysis {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
// Two-sided 95 % normal quantile for the bands.
constexpr double band_quantile = 1.959963984540054;
// Relative step of the central differences in the AR delta method: τ(φ) is smooth where the fit is stationary,
// so truncation (∝ step²) and rounding (∝ 1e-16/step) errors both stay near 1e-10 relative.
constexpr double difference_step = 1e-5;

IntegratedTimeEstimate untrusted_constant(const char* method) {
  return {method,
          not_a_number,
          not_a_number,
          not_a_number,
          0,
          false,
          "every chain is constant: the autocorrelation time is undefined"};
}

// Adds emcee's length rule, and the impossibility of τ ≤ 0 (a truncated sum of a strongly antithetic chain),
// to the estimator's own verdict.
void apply_length_rule(IntegratedTimeEstimate& estimate, Eigen::Index steps) {
  if (estimate.time <= 0.0) {
    if (!estimate.warning.empty()) estimate.warning += "; ";
    estimate.warning += "τ̂ ≤ 0: the sum was cut inside an antithetic (negatively correlated) stretch";
  } else if (!(estimate.time * minimum_length_in_autocorrelation_times <= static_cast<double>(steps))) {
    if (!estimate.warning.empty()) estimate.warning += "; ";
    estimate.warning += "each chain has " + std::to_string(steps) + " steps, fewer than " +
                        std::to_string(static_cast<int>(minimum_length_in_autocorrelation_times)) +
                        " τ̂ = " + std::to_string(minimum_length_in_autocorrelation_times * estimate.time);
  }
  estimate.trusted = estimate.warning.empty();
}

// The autocorrelation ρ_1..ρ_p of the stationary AR(p) process with coefficients φ: the Yule–Walker equations
// ρ_k = Σ_j φ_j ρ_{|k−j|} (ρ_0 = 1) solved for ρ.
VectorD autoregressive_model_autocorrelation(const VectorD& coefficients) {
  const Eigen::Index order = coefficients.size();
  MatrixD system = MatrixD::Identity(order, order);
  VectorD right_side = coefficients;  // the j = k terms, which multiply ρ_0 = 1
  for (Eigen::Index k = 1; k <= order; ++k)
    for (Eigen::Index j = 1; j <= order; ++j)
      if (j != k) system(k - 1, std::abs(k - j) - 1) -= coefficients[j - 1];
  return system.partialPivLu().solve(right_side);
}

// τ = (1 − φᵀρ)/(1 − Σφ)² with ρ the model's own autocorrelation (SamplerCompare's ar.act1).
double autoregressive_time(const VectorD& coefficients) {
  const double persistence = 1.0 - coefficients.sum();
  if (persistence <= 0.0) return std::numeric_limits<double>::infinity();
  return (1.0 - coefficients.dot(autoregressive_model_autocorrelation(coefficients))) / (persistence * persistence);
}

}  // namespace

IntegratedTimeEstimate autoregressive_integrated_time(const TraceAutocovariance& traces) {
  const VectorD& covariance = traces.mean_autocovariance;
  if (!(covariance[0] > 0.0)) return untrusted_constant("autoregressive");
  const Eigen::Index steps = traces.steps;
  const double total = static_cast<double>(steps * traces.chains);
  // R's ar() default maximum order.
  const Eigen::Index max_order = std::max<Eigen::Index>(
      1, std::min<Eigen::Index>(steps - 1, static_cast<Eigen::Index>(std::floor(10.0 * std::log10(steps)))));

  // Levinson–Durbin: the Yule–Walker fits of every order 1..max_order and their innovation variances; AIC picks
  // the order (R: N log σ̂²_k + 2k), at least 1 as in SamplerCompare.
  VectorD coefficients = VectorD::Zero(max_order);
  VectorD best_coefficients;
  double innovation_variance = covariance[0];
  double best_variance = 0.0;
  double best_criterion = std::numeric_limits<double>::infinity();
  for (Eigen::Index order = 1; order <= max_order; ++order) {
    double numerator = covariance[order];
    for (Eigen::Index j = 1; j < order; ++j) numerator -= coefficients[j - 1] * covariance[order - j];
    const double reflection = numerator / innovation_variance;
    const VectorD previous = coefficients.head(order - 1);
    for (Eigen::Index j = 1; j < order; ++j)
      coefficients[j - 1] = previous[j - 1] - reflection * previous[order - j - 1];
    coefficients[order - 1] = reflection;
    innovation_variance *= 1.0 - reflection * reflection;
    if (!(innovation_variance > 0.0)) break;  // the series is perfectly predictable at this order
    const double criterion = total * std::log(innovation_variance) + 2.0 * static_cast<double>(order);
    if (criterion < best_criterion) {
      best_criterion = criterion;
      best_coefficients = coefficients.head(order);
      best_variance = innovation_variance;
    }
  }
  if (best_coefficients.size() == 0) return untrusted_constant("autoregressive");

  const Eigen::Index order = best_coefficients.size();
  IntegratedTimeEstimate estimate{
      "autoregressive", autoregressive_time(best_coefficients), not_a_number, not_a_number, order, false, ""};
  if (!std::isfinite(estimate.time)) {
    estimate.warning = "the fitted AR model is not stationary";
    return estimate;
  }
  // Delta method: Var τ̂ ≈ gᵀ Σ g with Σ = (σ̂²/N) Γ_p^{-1}, Γ_p the Toeplitz matrix of γ̂(0..p−1).
  MatrixD toeplitz(order, order);
  for (Eigen::Index i = 0; i < order; ++i)
    for (Eigen::Index j = 0; j < order; ++j) toeplitz(i, j) = covariance[std::abs(i - j)];
  const MatrixD coefficient_covariance = (best_variance / total) * toeplitz.inverse();
  VectorD gradient(order);
  for (Eigen::Index j = 0; j < order; ++j) {
    const double step = difference_step * std::max(1.0, std::abs(best_coefficients[j]));
    VectorD plus = best_coefficients, minus = best_coefficients;
    plus[j] += step;
    minus[j] -= step;
    gradient[j] = (autoregressive_time(plus) - autoregressive_time(minus)) / (2.0 * step);
  }
  const double standard_error = std::sqrt(std::max(0.0, gradient.dot(coefficient_covariance * gradient)));
  estimate.lower = estimate.time - band_quantile * standard_error;
  estimate.upper = estimate.time + band_quantile * standard_error;
  if (order == max_order)
    estimate.warning =
        "AIC chose the maximum order " + std::to_string(max_order) + ": the AR model may miss longer correlations";
  apply_length_rule(estimate, steps);
  return estimate;
}

IntegratedTimeEstimate adaptive_window_integrated_time(const TraceAutocovariance& traces, double window_factor) {
  require(window_factor > 0.0 && std::isfinite(window_factor),
          "adaptive_window_integrated_time: the window factor must be positive");
  const VectorD& covariance = traces.mean_autocovariance;
  if (!(covariance[0] > 0.0)) return untrusted_constant("adaptive_window");
  const Eigen::Index steps = traces.steps;
  const VectorD correlation = covariance / covariance[0];

  // τ̂(M) = 1 + 2 Σ_{1≤Δt≤M} ρ̂(Δt); the window is the first M with M ≥ c τ̂(M).
  double time = 1.0;
  Eigen::Index window = 0;
  bool found = false;
  for (; window < steps; ++window) {
    if (window > 0) time += 2.0 * correlation[window];
    if (static_cast<double>(window) >= window_factor * time) {
      found = true;
      break;
    }
  }
  window = std::min(window, steps - 1);
  const double total = static_cast<double>(steps * traces.chains);
  const double standard_error = time * std::sqrt(2.0 * (2.0 * static_cast<double>(window) + 1.0) / total);
  IntegratedTimeEstimate estimate{"adaptive_window",
                                  time,
                                  time - band_quantile * standard_error,
                                  time + band_quantile * standard_error,
                                  window,
                                  false,
                                  ""};
  if (!found) estimate.warning = "no window M ≥ c τ̂(M) within the chain";
  apply_length_rule(estimate, steps);
  return estimate;
}

IntegratedTimeEstimate initial_monotone_sequence_integrated_time(const TraceAutocovariance& traces) {
  const Eigen::Index steps = traces.steps;
  const Eigen::Index chains = traces.chains;
  // Stan's multi-chain autocorrelation: ρ_t = 1 − (W − mean_c γ̂_c(t)) / var⁺, with W the mean within-chain
  // variance and var⁺ = W (N−1)/N + the variance of the chain means (when there are several chains).
  const VectorD& mean_covariance = traces.mean_autocovariance;
  const VectorD& chain_means = traces.chain_means;
  const double n = static_cast<double>(steps);
  const double within = mean_covariance[0] * n / (n - 1.0);
  double pooled = within * (n - 1.0) / n;
  if (chains > 1) pooled += (chain_means.array() - chain_means.mean()).square().sum() / static_cast<double>(chains - 1);
  if (!(pooled > 0.0)) return untrusted_constant("initial_monotone_sequence");
  const auto correlation = [&](Eigen::Index lag) { return 1.0 - (within - mean_covariance[lag]) / pooled; };

  double pair_sum = 0.0;
  double previous_pair = std::numeric_limits<double>::infinity();
  Eigen::Index last_lag = 0;
  bool terminated = false;
  for (Eigen::Index lag = 0; lag + 1 < steps; lag += 2) {
    double pair = correlation(lag) + correlation(lag + 1);
    if (!(pair > 0.0)) {
      terminated = true;
      break;
    }
    pair = std::min(pair, previous_pair);
    previous_pair = pair;
    pair_sum += pair;
    last_lag = lag + 1;
  }
  IntegratedTimeEstimate estimate{
      "initial_monotone_sequence", 2.0 * pair_sum - 1.0, not_a_number, not_a_number, last_lag, false, ""};
  if (pair_sum == 0.0) {
    estimate.time = not_a_number;
    estimate.warning = "the first pair ρ_0 + ρ_1 is not positive";
  } else if (!terminated) {
    estimate.warning = "the pair sums stayed positive up to the end of the chain";
  }
  apply_length_rule(estimate, steps);
  return estimate;
}

std::vector<IntegratedTimeEstimate> integrated_autocorrelation_times(const MatrixD& traces) {
  return integrated_autocorrelation_times(trace_autocovariance(traces));
}

std::vector<IntegratedTimeEstimate> integrated_autocorrelation_times(const TraceAutocovariance& traces) {
  return {autoregressive_integrated_time(traces), adaptive_window_integrated_time(traces),
          initial_monotone_sequence_integrated_time(traces)};
}

}  // namespace rbmix::analysis
