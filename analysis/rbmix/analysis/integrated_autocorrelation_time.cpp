#include "rbmix/analysis/integrated_autocorrelation_time.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "rbmix/analysis/autocorrelation.hpp"
#include "rbmix/analysis/convergence_diagnostics.hpp"
#include "rbmix/core/error.hpp"

namespace rbmix::analysis {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
// Two-sided 95 % normal quantile for the bands.
constexpr double band_quantile = 1.959963984540054;
// Relative step of the central differences in the AR delta method: τ(φ) is smooth where the fit is stationary,
// so truncation (∝ step²) and rounding (∝ 1e-16/step) errors both stay near 1e-10 relative (near the boundary
// Σφ = 1 the step shrinks with the distance to it, and both stay below 1e-4).
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
  require(traces.largest_lag() >= max_order, "autoregressive_integrated_time: the autocovariance stops at lag " +
                                                 std::to_string(traces.largest_lag()) + ", before the largest order " +
                                                 std::to_string(max_order));

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
    // Within a hundredth of the distance to the non-stationary boundary Σφ = 1, where τ is infinite: a chain with τ
    // of 10^5 fits φ within 10^-5 of it, and a fixed step would step across (an interval of ±∞).
    const double step = std::min(difference_step * std::max(1.0, std::abs(best_coefficients[j])),
                                 0.01 * (1.0 - best_coefficients.sum()));
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
  estimate.trusted = estimate.warning.empty();
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
  for (; window <= traces.largest_lag(); ++window) {
    if (window > 0) time += 2.0 * correlation[window];
    if (static_cast<double>(window) >= window_factor * time) {
      found = true;
      break;
    }
  }
  window = std::min(window, traces.largest_lag());
  const double total = static_cast<double>(steps * traces.chains);
  const double standard_error = time * std::sqrt(2.0 * (2.0 * static_cast<double>(window) + 1.0) / total);
  IntegratedTimeEstimate estimate{"adaptive_window",
                                  time,
                                  time - band_quantile * standard_error,
                                  time + band_quantile * standard_error,
                                  window,
                                  false,
                                  ""};
  if (time <= 0.0)
    estimate.warning = "τ̂ ≤ 0: the sum was cut inside an antithetic (negatively correlated) stretch";
  else if (!found)
    estimate.warning = traces.complete() ? "no window M ≥ c τ̂(M) within the chain"
                                         : "no window M ≥ c τ̂(M) within the " + std::to_string(traces.largest_lag()) +
                                               " lags computed";
  estimate.trusted = estimate.warning.empty();
  return estimate;
}

namespace {

// Every chain constant (each may sit at its own value): no within-chain variance, τ undefined.
bool chains_are_constant(const MatrixD& traces) {
  return ((traces.rowwise() - traces.colwise().mean()).array() == 0.0).all();
}

// The variance of a windowed sum over lags −M..M: Var τ̂ ≈ 2(2M+1) τ²/S (Sokal 1997 eq. 3.19; Priestley 1981).
IntegratedTimeEstimate windowed_estimate(const char* method, double time, Eigen::Index cutoff, double total) {
  const double standard_error = std::abs(time) * std::sqrt(2.0 * (2.0 * static_cast<double>(cutoff) + 1.0) / total);
  return {method, time, time - band_quantile * standard_error, time + band_quantile * standard_error, cutoff,
          false,  ""};
}

// The estimate a sequence method gives where it cannot be formed from `traces`; nothing where it can.
std::optional<IntegratedTimeEstimate> unavailable_sequence(const char* method, const MatrixD& traces) {
  if (traces.rows() < 4)
    return IntegratedTimeEstimate{method,
                                  not_a_number,
                                  not_a_number,
                                  not_a_number,
                                  0,
                                  false,
                                  "each chain needs at least 4 steps to be split in two"};
  if (chains_are_constant(traces)) return untrusted_constant(method);
  return std::nullopt;
}

IntegratedTimeEstimate sequence_estimate(const char* method, const MatrixD& traces, const SequenceEstimate& sequence) {
  IntegratedTimeEstimate estimate =
      windowed_estimate(method, sequence.time, sequence.cutoff, static_cast<double>(traces.size()));
  if (!sequence.terminated) estimate.warning = "the pair sums stayed positive up to the end of the chain";
  estimate.trusted = estimate.warning.empty();
  return estimate;
}

Eigen::Index resolved_batch_size(const MatrixD& traces, Eigen::Index batch_size, const char* method) {
  require(batch_size >= 0, std::string(method) + ": the batch size must not be negative");
  // b = N^{2/3}: the bias of σ̂²_b, −2 Σ_k k γ(k)/b, falls faster than its relative standard deviation √(2b/N)
  // grows, so a slow tail that a √N batch (the mean-squared-error optimum's order) would cut off is still seen.
  if (batch_size == 0)
    batch_size = std::max<Eigen::Index>(
        1, static_cast<Eigen::Index>(std::floor(std::pow(static_cast<double>(traces.rows()), 2.0 / 3.0) + 1e-9)));
  require(traces.rows() / batch_size >= 2, std::string(method) + ": batches of " + std::to_string(batch_size) +
                                               " steps leave fewer than 2 per chain of " +
                                               std::to_string(traces.rows()));
  return batch_size;
}

// τ̂ from a long-run variance estimate σ̂²_b with ν degrees of freedom: τ̂ = σ̂²_b / σ̂², and the interval of
// σ̂²_b ~ σ²_∞ χ²_ν/ν (Flegal & Jones 2010 §3), the variance σ̂² being far more precise.
IntegratedTimeEstimate batch_estimate(const char* method, double long_run_variance, double variance,
                                      Eigen::Index batch_size, double degrees_of_freedom) {
  const double time = long_run_variance / variance;
  const boost::math::chi_squared law(degrees_of_freedom);
  return {method,
          time,
          time * degrees_of_freedom / boost::math::quantile(law, 0.975),
          time * degrees_of_freedom / boost::math::quantile(law, 0.025),
          batch_size,
          true,
          ""};
}

// Mean over chains of the sample variance (divisor N − 1).
double within_chain_variance(const MatrixD& traces) {
  return (traces.rowwise() - traces.colwise().mean()).array().square().sum() /
         static_cast<double>(traces.cols() * (traces.rows() - 1));
}

}  // namespace

Eigen::Index long_batch_size(Eigen::Index steps, Eigen::Index cutoff, double batch_in_cutoffs) {
  require(steps >= 4 && cutoff >= 0 && batch_in_cutoffs >= 0.0 && std::isfinite(batch_in_cutoffs),
          "long_batch_size: needs at least 4 steps, a cutoff ≥ 0 and a finite factor ≥ 0");
  const auto default_size = static_cast<Eigen::Index>(std::floor(std::pow(static_cast<double>(steps), 2.0 / 3.0) + 1e-9));
  const auto reach = static_cast<Eigen::Index>(std::ceil(batch_in_cutoffs * static_cast<double>(cutoff)));
  return std::min(std::max({Eigen::Index{1}, default_size, reach}), steps / 2);
}

IntegratedTimeEstimate initial_positive_sequence_integrated_time(const MatrixD& traces) {
  validate_traces(traces, "initial_positive_sequence_integrated_time");
  constexpr const char* method = "initial_positive_sequence";
  if (const auto unavailable = unavailable_sequence(method, traces)) return *unavailable;
  return sequence_estimate(method, traces, effective_sample_size(split_chains(traces), false));
}

IntegratedTimeEstimate initial_monotone_sequence_integrated_time(const MatrixD& traces) {
  validate_traces(traces, "initial_monotone_sequence_integrated_time");
  constexpr const char* method = "initial_monotone_sequence";
  if (const auto unavailable = unavailable_sequence(method, traces)) return *unavailable;
  return sequence_estimate(method, traces, effective_sample_size(split_chains(traces), true));
}

IntegratedTimeEstimate rank_normalised_integrated_time(const MatrixD& traces) {
  validate_traces(traces, "rank_normalised_integrated_time");
  constexpr const char* method = "rank_normalised";
  if (const auto unavailable = unavailable_sequence(method, traces)) return *unavailable;
  return sequence_estimate(method, traces, bulk_effective_sample_size(traces));
}

IntegratedTimeEstimate batch_means_integrated_time(const MatrixD& traces, Eigen::Index batch_size) {
  validate_traces(traces, "batch_means_integrated_time");
  const Eigen::Index size = resolved_batch_size(traces, batch_size, "batch_means_integrated_time");
  if (chains_are_constant(traces)) return untrusted_constant("batch_means");
  const Eigen::Index batches = traces.rows() / size;
  double sum_of_squares = 0.0;
  for (Eigen::Index chain = 0; chain < traces.cols(); ++chain) {
    VectorD means(batches);
    for (Eigen::Index batch = 0; batch < batches; ++batch)
      means[batch] = traces.col(chain).segment(batch * size, size).mean();
    sum_of_squares += (means.array() - means.mean()).square().sum();
  }
  const double degrees_of_freedom = static_cast<double>(traces.cols() * (batches - 1));
  return batch_estimate("batch_means", static_cast<double>(size) * sum_of_squares / degrees_of_freedom,
                        within_chain_variance(traces), size, degrees_of_freedom);
}

IntegratedTimeEstimate overlapping_batch_means_integrated_time(const MatrixD& traces, Eigen::Index batch_size) {
  validate_traces(traces, "overlapping_batch_means_integrated_time");
  const Eigen::Index size = resolved_batch_size(traces, batch_size, "overlapping_batch_means_integrated_time");
  if (chains_are_constant(traces)) return untrusted_constant("overlapping_batch_means");
  const Eigen::Index steps = traces.rows();
  const double n = static_cast<double>(steps), b = static_cast<double>(size);
  double long_run_variance = 0.0;
  VectorD prefix(steps + 1);
  for (Eigen::Index chain = 0; chain < traces.cols(); ++chain) {
    const double mean = traces.col(chain).mean();
    prefix[0] = 0.0;
    for (Eigen::Index t = 0; t < steps; ++t) prefix[t + 1] = prefix[t] + (traces(t, chain) - mean);
    double sum_of_squares = 0.0;
    for (Eigen::Index start = 0; start + size <= steps; ++start) {
      const double batch_mean = (prefix[start + size] - prefix[start]) / b;
      sum_of_squares += batch_mean * batch_mean;
    }
    // Flegal & Jones (2010) eq. 6: σ̂²_OBM = N b Σ_j (Ȳ_j − x̄)² / ((N − b)(N − b + 1)).
    long_run_variance += n * b * sum_of_squares / ((n - b) * (n - b + 1.0));
  }
  long_run_variance /= static_cast<double>(traces.cols());
  const double batches = std::floor(n / b);
  return batch_estimate("overlapping_batch_means", long_run_variance, within_chain_variance(traces), size,
                        1.5 * static_cast<double>(traces.cols()) * (batches - 1.0));
}

void TrustRule::validate() const {
  require(max_potential_scale_reduction >= 1.0, "trust rule: the largest R̂ must be at least 1");
  require(min_length_in_times > 0.0, "trust rule: the shortest chain in autocorrelation times must be positive");
  require(max_relative_half_width > 0.0, "trust rule: the widest relative half width must be positive");
  require(max_disagreement > 0.0, "trust rule: the largest disagreement must be positive");
  require(min_batch_in_times >= 0.0, "trust rule: the shortest batch in autocorrelation times must not be negative");
}

namespace {

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// "value > bound" with each number to as many significant digits as it takes to tell them apart (at least 4), so a
// reason never reads "R̂ = 1.01 > 1.01".
std::string exceeds(double value, double bound) {
  char value_text[40], bound_text[40];
  for (int digits = 4; digits <= 17; ++digits) {
    std::snprintf(value_text, sizeof value_text, "%.*g", digits, value);
    std::snprintf(bound_text, sizeof bound_text, "%.*g", digits, bound);
    if (std::string(value_text) != bound_text) break;
  }
  return std::string(value_text) + " > " + bound_text;
}

void add_reason(std::string& reasons, const std::string& reason) {
  if (!reasons.empty()) reasons += "; ";
  reasons += reason;
}

// The standard error of the estimator's own band (the normal band's half width over 1.96; for the χ² intervals of
// the batch means the same convention).
double standard_error(const IntegratedTimeEstimate& estimate) {
  return (estimate.band_upper - estimate.band_lower) / (2.0 * band_quantile);
}

bool is_batch_means(const std::string& method) {
  return method == "batch_means" || method == "overlapping_batch_means";
}

}  // namespace

std::string trust_verdict(const TrustSignals& signals, const TrustRule& rule) {
  std::string reasons = signals.method_warning;
  if (!(signals.potential_scale_reduction <= rule.max_potential_scale_reduction))
    add_reason(reasons, std::isnan(signals.potential_scale_reduction)
                            ? std::string("R̂ undefined (chains shorter than 4 steps)")
                            : (signals.nested ? "nested R̂ = " : "R̂ = ") +
                                  exceeds(signals.potential_scale_reduction, rule.max_potential_scale_reduction) +
                                  (signals.nested ? ": the superchains disagree" : ": the chains disagree"));
  if (std::isfinite(signals.length_in_times) && signals.length_in_times < rule.min_length_in_times)
    add_reason(reasons, "each chain is " + format_number(signals.length_in_times) + " τ̂ long, fewer than " +
                            format_number(rule.min_length_in_times));
  if (!(signals.relative_half_width <= rule.max_relative_half_width))
    add_reason(reasons, std::isnan(signals.relative_half_width)
                            ? std::string("no interval")
                            : "the interval is ±" + format_number(100.0 * signals.relative_half_width) +
                                  " %, wider than ±" + format_number(100.0 * rule.max_relative_half_width) + " %");
  if (signals.disagreement > rule.max_disagreement)
    add_reason(reasons, "disagrees with the cross-check by " + format_number(signals.disagreement) +
                            " standard errors (more than " + format_number(rule.max_disagreement) + ")");
  // A slow excursion that one chain made and the others did not moves τ̂ far more than the band, which assumes
  // every chain shows the same correlation, allows (docs/algorithms/mixing-metrics.md §6.6, rule 8).
  if (signals.chain_jackknife_half_width > rule.max_relative_half_width)
    add_reason(reasons, "leaving out groups of chains moves it by ±" +
                            format_number(100.0 * signals.chain_jackknife_half_width) + " % (jackknife), more than ±" +
                            format_number(100.0 * rule.max_relative_half_width) + " %: it rests on a few chains");
  if (std::isfinite(signals.batch_in_times) && signals.batch_in_times < rule.min_batch_in_times)
    add_reason(reasons, "its batches are " + format_number(signals.batch_in_times) + " τ̂ long, fewer than " +
                            format_number(rule.min_batch_in_times) + ": the batch means are biased low");
  return reasons;
}

const IntegratedTimeEstimate& MixingDiagnostics::recommended() const {
  for (const IntegratedTimeEstimate& estimate : estimates)
    if (estimate.method == recommended_integrated_time_method) return estimate;
  throw InputError("mixing diagnostics: no estimate by the recommended method");
}

std::string estimator_label(const std::string& method) {
  return method == "rank_normalised" ? method + " (tau of the ranks)" : method;
}

std::vector<std::size_t> recommended_first(const std::vector<IntegratedTimeEstimate>& estimates) {
  std::vector<std::size_t> order;
  for (std::size_t k = 0; k < estimates.size(); ++k)
    if (estimates[k].method == recommended_integrated_time_method)
      order.insert(order.begin(), k);
    else
      order.push_back(k);
  return order;
}

void use_nested_potential_scale_reduction(MixingDiagnostics& diagnostics, double nested_reduction,
                                          const TrustRule& rule) {
  for (TrustSignals& signals : diagnostics.signals) {
    signals.potential_scale_reduction = nested_reduction;
    signals.nested = true;
  }
  apply_trust_rule(diagnostics, rule);
}

void apply_trust_rule(MixingDiagnostics& diagnostics, const TrustRule& rule) {
  rule.validate();
  for (std::size_t k = 0; k < diagnostics.estimates.size(); ++k) {
    IntegratedTimeEstimate& estimate = diagnostics.estimates[k];
    estimate.warning = trust_verdict(diagnostics.signals[k], rule);
    estimate.trusted = estimate.warning.empty();
  }
}

namespace {

// The adaptive window from `covariance` of `traces`, and the autocovariance it was found in. The lag-window
// estimators read γ̂ up to the adaptive window (the AR order is far below it): more lags are computed only while
// the window is not found within those there are.
std::pair<TraceAutocovariance, IntegratedTimeEstimate> lag_window_estimates(const MatrixD& traces,
                                                                            TraceAutocovariance covariance) {
  IntegratedTimeEstimate window = adaptive_window_integrated_time(covariance);
  while (!covariance.complete() && window.cutoff == covariance.largest_lag()) {
    covariance = trace_autocovariance(traces, grown_lag(covariance.largest_lag(), traces.rows()));
    window = adaptive_window_integrated_time(covariance);
  }
  return {std::move(covariance), std::move(window)};
}

// Every estimator on the same traces, with the multi-chain diagnostics they share and the long batches: what
// mixing_diagnostics reports before it reads the signals.
struct Estimates {
  ConvergenceDiagnostics convergence;
  std::vector<IntegratedTimeEstimate> estimates;
  IntegratedTimeEstimate long_batch_means;
  Eigen::Index window_lag = 0;  // the largest lag of the autocovariance the lag-window estimators read
};

Estimates estimate_every_method(const MatrixD& traces) {
  Estimates out;
  const Eigen::Index steps = traces.rows();
  // The split chains, their rank-normalised scores and their autocovariances are each computed once and shared by
  // R̂, the ESS and the three sequence estimators: the numbers of the estimators called one by one.
  out.convergence = convergence_diagnostics(traces);

  const auto [covariance, window] = lag_window_estimates(traces, trace_autocovariance(traces, first_largest_lag(steps)));
  out.window_lag = covariance.largest_lag();
  out.estimates = {autoregressive_integrated_time(covariance), window};
  // The three sequence estimators have the same preconditions: checked once, over the whole trace.
  if (const auto unavailable = unavailable_sequence("initial_positive_sequence", traces)) {
    for (const char* method : {"initial_positive_sequence", "initial_monotone_sequence", "rank_normalised"}) {
      out.estimates.push_back(*unavailable);
      out.estimates.back().method = method;
    }
  } else {
    const SequenceEstimates sequences = effective_sample_sizes(split_chains(traces));
    out.estimates.push_back(sequence_estimate("initial_positive_sequence", traces, sequences.positive));
    out.estimates.push_back(sequence_estimate("initial_monotone_sequence", traces, sequences.monotone));
    out.estimates.push_back(sequence_estimate("rank_normalised", traces, out.convergence.bulk));
  }
  out.estimates.push_back(batch_means_integrated_time(traces));
  out.estimates.push_back(overlapping_batch_means_integrated_time(traces));
  // The long batches reach long_batch_in_cutoffs times as far as the monotone sequence did (all of each chain's
  // half when it never stopped); without a sequence (a constant trace) their estimate is the constant's NaN.
  const auto monotone = std::find_if(out.estimates.begin(), out.estimates.end(), [](const auto& estimate) {
    return estimate.method == "initial_monotone_sequence";
  });
  out.long_batch_means = batch_means_integrated_time(traces, long_batch_size(steps, monotone->cutoff));
  out.long_batch_means.method = "long_batch_means";
  // Batches shorter than the correlation the monotone sequence saw (min_batch_in_sequence_reach).
  for (IntegratedTimeEstimate& estimate : out.estimates)
    if (is_batch_means(estimate.method) && std::isfinite(estimate.time) && std::isfinite(monotone->time) &&
        static_cast<double>(estimate.cutoff) < min_batch_in_sequence_reach * static_cast<double>(monotone->cutoff))
      add_reason(estimate.warning, "its batches of " + std::to_string(estimate.cutoff) + " steps are shorter than " +
                                       format_number(min_batch_in_sequence_reach) +
                                       " × the lag the monotone sequence reached (" +
                                       std::to_string(monotone->cutoff) + "): they miss its slow correlation");
  return out;
}

// The traces without the chains [first, first + count).
MatrixD without_chains(const MatrixD& traces, Eigen::Index first, Eigen::Index count) {
  MatrixD kept(traces.rows(), traces.cols() - count);
  kept.leftCols(first) = traces.leftCols(first);
  kept.rightCols(traces.cols() - first - count) = traces.rightCols(traces.cols() - first - count);
  return kept;
}

// The groups of consecutive chains rule 8 leaves out in turn: group g holds chains [start(g), start(g + 1)).
struct ChainGroups {
  Eigen::Index chains = 0;
  Eigen::Index groups = 0;
  Eigen::Index start(Eigen::Index group) const { return group * chains / groups; }
  Eigen::Index size(Eigen::Index group) const { return start(group + 1) - start(group); }
};

// The autocovariance of each group's chains, up to `largest_lag`: of their columns of `traces`, or, with `split`,
// of their halves as split_chains lays them out (the first ⌊N/2⌋ steps and the last), copied a group at a time
// rather than the whole trace at once. Each group's FFTs are its own, so the groups run on the team and the pieces
// do not depend on the thread count.
std::vector<TraceAutocovariance> group_autocovariances(const MatrixD& traces, const ChainGroups& groups, bool split,
                                                       Eigen::Index largest_lag) {
  std::vector<TraceAutocovariance> pieces(static_cast<std::size_t>(groups.groups));
#pragma omp parallel for schedule(dynamic)
  for (Eigen::Index group = 0; group < groups.groups; ++group) {
    const Eigen::Index first = groups.start(group), size = groups.size(group);
    if (!split) {
      pieces[static_cast<std::size_t>(group)] = trace_autocovariance(traces.middleCols(first, size), largest_lag);
    } else {
      const Eigen::Index half = traces.rows() / 2;
      MatrixD halves(half, 2 * size);
      halves << traces.topRows(half).middleCols(first, size), traces.bottomRows(half).middleCols(first, size);
      pieces[static_cast<std::size_t>(group)] = trace_autocovariance(halves, largest_lag);
    }
  }
  return pieces;
}

// The autocovariance of every chain but group `left_out`'s, from the groups' own: γ̂ is a mean over chains, so it
// is their mean weighted by their chains (equal to the direct computation to within rounding).
TraceAutocovariance without_group(const std::vector<TraceAutocovariance>& pieces, std::size_t left_out) {
  TraceAutocovariance out{VectorD::Zero(pieces.front().mean_autocovariance.size()), VectorD(), pieces.front().steps,
                          0};
  std::vector<double> means;
  for (std::size_t group = 0; group < pieces.size(); ++group) {
    if (group == left_out) continue;
    out.mean_autocovariance += static_cast<double>(pieces[group].chains) * pieces[group].mean_autocovariance;
    out.chains += pieces[group].chains;
    means.insert(means.end(), pieces[group].chain_means.begin(), pieces[group].chain_means.end());
  }
  out.mean_autocovariance /= static_cast<double>(out.chains);
  out.chain_means = Eigen::Map<const VectorD>(means.data(), static_cast<Eigen::Index>(means.size()));
  return out;
}

// τ̂ of every method of `estimates` without each group of chains: row = group, column = the estimate's place. The
// autocovariances, where the time goes, are computed once per group and combined for each group left out; the
// sequences' lags grow as the full run's did until every group's sequences end within them. The rank-normalised
// estimate keeps the full run's scores (ranks among all draws): the jackknife of its sequence with the scores held
// fixed, which spares a sort of every draw per group.
std::vector<std::vector<double>> times_without_each_group(const MatrixD& traces,
                                                          const std::vector<IntegratedTimeEstimate>& estimates,
                                                          const ChainGroups& groups, Eigen::Index window_lag) {
  const auto g = static_cast<std::size_t>(groups.groups);
  const std::vector<TraceAutocovariance> whole = group_autocovariances(traces, groups, false, window_lag);
  const MatrixD scores = rank_normalise(traces);
  const bool sequences = !unavailable_sequence("initial_positive_sequence", traces);
  // The sequences without each group, of the values and of the rank scores; nullopt where they did not end within
  // the lags computed even once every lag was (then the estimate without that group is NaN).
  std::vector<std::optional<SequenceEstimates>> values(g), ranks(g);
  const Eigen::Index half = traces.rows() / 2;
  for (Eigen::Index lag = first_largest_lag(half); sequences; lag = grown_lag(lag, half)) {
    const std::vector<TraceAutocovariance> halves = group_autocovariances(traces, groups, true, lag);
    const std::vector<TraceAutocovariance> score_halves = group_autocovariances(scores, groups, true, lag);
    bool every_sequence_ends = true;
    for (std::size_t group = 0; group < g; ++group) {
      values[group] = sequence_estimates(without_group(halves, group));
      ranks[group] = sequence_estimates(without_group(score_halves, group));
      every_sequence_ends = every_sequence_ends && values[group] && ranks[group];
    }
    if (every_sequence_ends || halves.front().complete()) break;
  }

  std::vector<std::vector<double>> times(g);
  for (std::size_t group = 0; group < g; ++group) {
    const auto index = static_cast<Eigen::Index>(group);
    const MatrixD kept = without_chains(traces, groups.start(index), groups.size(index));
    // Without this group the window may reach farther than the full run's did: then more lags, for it alone.
    const auto [covariance, window] = lag_window_estimates(kept, without_group(whole, group));
    for (const IntegratedTimeEstimate& estimate : estimates) {
      const std::string& method = estimate.method;
      double time = not_a_number;
      if (method == "autoregressive") time = autoregressive_integrated_time(covariance).time;
      if (method == "adaptive_window") time = window.time;
      if (method == "initial_positive_sequence" && values[group]) time = values[group]->positive.time;
      if (method == "initial_monotone_sequence" && values[group]) time = values[group]->monotone.time;
      if (method == "rank_normalised" && ranks[group]) time = ranks[group]->monotone.time;
      if (method == "batch_means") time = batch_means_integrated_time(kept).time;
      if (method == "overlapping_batch_means") time = overlapping_batch_means_integrated_time(kept).time;
      times[group].push_back(time);
    }
  }
  return times;
}

// Per method, 1.96 × the delete-a-group jackknife standard error of τ̂ over G = min(chains, max_jackknife_groups)
// groups of consecutive chains, over τ̂ (Efron & Stein 1981; Busing, Meijer & van der Leeden 1999 for unequal
// groups, which the pseudo-values below weight by their size): how far the estimate moves with the chains it rests
// on. NaN for fewer than min_jackknife_chains chains, or where an estimate without some group is not finite.
std::vector<double> chain_jackknife_half_widths(const MatrixD& traces,
                                                const std::vector<IntegratedTimeEstimate>& estimates,
                                                Eigen::Index window_lag) {
  std::vector<double> widths(estimates.size(), not_a_number);
  const Eigen::Index chains = traces.cols();
  if (chains < min_jackknife_chains) return widths;
  const ChainGroups groups{chains, std::min(chains, max_jackknife_groups)};
  const std::vector<std::vector<double>> times_without =
      times_without_each_group(traces, estimates, groups, window_lag);
  // pseudo[k][g] = (n τ̂ − (n − m_g) τ̂_(−g)) / m_g, the pseudo-value of group g of m_g chains (n chains in all).
  std::vector<std::vector<double>> pseudo(estimates.size());
  const double n = static_cast<double>(chains);
  for (Eigen::Index group = 0; group < groups.groups; ++group) {
    const double size = static_cast<double>(groups.size(group));
    for (std::size_t k = 0; k < estimates.size(); ++k)
      pseudo[k].push_back((n * estimates[k].time - (n - size) * times_without[static_cast<std::size_t>(group)][k]) /
                          size);
  }
  for (std::size_t k = 0; k < estimates.size(); ++k) {
    const double time = estimates[k].time;
    if (!(time > 0.0) || !std::all_of(pseudo[k].begin(), pseudo[k].end(), [](double x) { return std::isfinite(x); }))
      continue;
    // The jackknife variance of the mean of G pseudo-values: their variance over G.
    const double count = static_cast<double>(groups.groups);
    double mean = 0.0;
    for (const double value : pseudo[k]) mean += value / count;
    double sum_of_squares = 0.0;
    for (const double value : pseudo[k]) sum_of_squares += (value - mean) * (value - mean);
    widths[k] = band_quantile * std::sqrt(sum_of_squares / (count * (count - 1.0))) / time;
  }
  return widths;
}

}  // namespace

MixingDiagnostics mixing_diagnostics(const MatrixD& traces, const TrustRule& rule) {
  validate_traces(traces, "mixing_diagnostics");
  require(traces.rows() >= min_mixing_steps, [&] {
    return "mixing_diagnostics: each chain needs at least " + std::to_string(min_mixing_steps) +
           " steps (the sequence estimators split it into halves of 4), got " + std::to_string(traces.rows());
  });
  if (const std::optional<MatrixD> scaled = traces_in_unit_range(traces)) return mixing_diagnostics(*scaled, rule);
  MixingDiagnostics out;
  out.steps = traces.rows();
  out.chains = traces.cols();
  Estimates every = estimate_every_method(traces);
  out.potential_scale_reduction = every.convergence.potential_scale_reduction;
  out.bulk_effective_sample_size = every.convergence.bulk.effective_sample_size;
  out.tail_effective_sample_size = every.convergence.tail_effective_sample_size;
  out.estimates = std::move(every.estimates);
  out.long_batch_means = std::move(every.long_batch_means);
  for (IntegratedTimeEstimate& estimate : out.estimates) {
    estimate.band_lower = estimate.lower;
    estimate.band_upper = estimate.upper;
  }
  const std::vector<double> jackknife_widths =
      chain_jackknife_half_widths(traces, out.estimates, every.window_lag);

  for (IntegratedTimeEstimate& estimate : out.estimates) {
    TrustSignals signals;
    signals.method_warning = estimate.warning;
    signals.potential_scale_reduction = out.potential_scale_reduction;
    signals.length_in_times = estimate.time > 0.0 ? static_cast<double>(out.steps) / estimate.time : not_a_number;
    // The batch means' bias is −2 Σ_k k ρ(k)/b ≈ −τ_exp τ/b (docs/algorithms/mixing-metrics.md §6.2): a slow mode
    // within batches of a few τ̂ pulls them low while their own interval stays honest about the noise only.
    signals.batch_in_times = is_batch_means(estimate.method) && estimate.time > 0.0
                                 ? static_cast<double>(estimate.cutoff) / estimate.time
                                 : not_a_number;
    // The cross-checks, on the estimators' own bands: the batch means for the lag-window estimators, the monotone
    // sequence for the batch means.
    for (const IntegratedTimeEstimate& reference : out.estimates) {
      const bool is_reference = is_batch_means(estimate.method) ? reference.method == "initial_monotone_sequence"
                                                                : is_batch_means(reference.method);
      if (!is_reference || !std::isfinite(reference.time) || !std::isfinite(estimate.time)) continue;
      const double spread = std::hypot(standard_error(estimate), standard_error(reference));
      if (spread > 0.0)
        signals.disagreement = std::max(signals.disagreement, std::abs(estimate.time - reference.time) / spread);
    }
    // The width check reads the estimator's own band, its noise: the long batches' interval is as wide as few
    // batches leave it whether or not a tail is there (one chain of 10^5 steps: ±40 %), and a tail that is there
    // shows as a disagreement with the batch means (docs/algorithms/mixing-metrics.md §6.6).
    signals.relative_half_width =
        estimate.time > 0.0 ? (estimate.upper - estimate.lower) / (2.0 * estimate.time) : not_a_number;
    signals.chain_jackknife_half_width = jackknife_widths[out.signals.size()];
    // The reported interval: the band joined with the long batches' interval (the header), where both are defined.
    if (std::isfinite(estimate.time) && std::isfinite(out.long_batch_means.time)) {
      estimate.lower = std::fmin(estimate.lower, out.long_batch_means.lower);
      estimate.upper = std::fmax(estimate.upper, out.long_batch_means.upper);
    }
    out.signals.push_back(signals);
  }
  // τ > 0: an end of a normal band at or below 0 says nothing (the relative half width above still counts it).
  for (IntegratedTimeEstimate& estimate : out.estimates)
    for (double* end : {&estimate.lower, &estimate.upper, &estimate.band_lower, &estimate.band_upper})
      if (!(*end > 0.0)) *end = not_a_number;
  apply_trust_rule(out, rule);
  return out;
}

std::vector<IntegratedTimeEstimate> integrated_autocorrelation_times(const MatrixD& traces) {
  return mixing_diagnostics(traces).estimates;
}

}  // namespace rbmix::analysis
