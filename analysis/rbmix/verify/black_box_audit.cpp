#include "rbmix/verify/black_box_audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "rbmix/analysis/slem.hpp"
#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/model/tempering.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/verify/chi_squared.hpp"
#include "rbmix/verify/sampled_transitions.hpp"

namespace rbmix::verify {
namespace {

// The audit's two uses of the seed draw from separate streams, so that changing the bootstrap leaves (a) alone.
constexpr std::uint64_t invariance_stream = 0;
constexpr std::uint64_t bootstrap_stream = 1;

// Runs the step and refuses what it returns unless it is a batch of the same shape with 0/1 entries.
void take_step(const BatchStep& step, MatrixD& visible, MatrixD& hidden) {
  const Eigen::Index rows = visible.rows(), m = visible.cols(), n = hidden.cols();
  step(visible, hidden);
  const auto check = [rows](const MatrixD& states, Eigen::Index units, const char* layer) {
    require(states.rows() == rows && states.cols() == units, [&] {
      return std::string("sampler step: the ") + layer + " states came back " + std::to_string(states.rows()) +
             " × " + std::to_string(states.cols()) + ", expected " + std::to_string(rows) + " × " +
             std::to_string(units) + " (one chain per row)";
    });
    for (Eigen::Index c = 0; c < states.cols(); ++c)  // column-major: down each column
      for (Eigen::Index r = 0; r < states.rows(); ++r)
        require(states(r, c) == 0.0 || states(r, c) == 1.0, [&] {
          std::ostringstream message;
          message << "sampler step: " << layer << " state of chain " << r << ", unit " << c << " is " << states(r, c)
                  << ", not 0 or 1";
          return message.str();
        });
  };
  check(visible, m, "visible");
  check(hidden, n, "hidden");
}

std::uint64_t joint_index(const analysis::JointStateSpace& space, const MatrixD& visible, const MatrixD& hidden,
                          Eigen::Index row) {
  std::uint64_t v = 0, h = 0;
  for (int j = 0; j < space.n_visible(); ++j) v |= static_cast<std::uint64_t>(visible(row, j)) << j;
  for (int i = 0; i < space.n_hidden(); ++i) h |= static_cast<std::uint64_t>(hidden(row, i)) << i;
  return space.index(v, h);
}

// The joint state whose count strays furthest from its expectation, in standard deviations of a Poisson count.
std::size_t furthest_from_expectation(const std::vector<std::uint64_t>& counts, const VectorD& probabilities,
                                      double total) {
  std::size_t worst = 0;
  double worst_score = -1.0;
  for (std::size_t x = 0; x < counts.size(); ++x) {
    const double expected = total * probabilities(static_cast<Eigen::Index>(x));
    const double observed = static_cast<double>(counts[x]);
    const double score = expected > 0.0 ? std::abs(observed - expected) / std::sqrt(expected)
                                        : (observed > 0.0 ? INFINITY : 0.0);
    if (score > worst_score) {
      worst_score = score;
      worst = x;
    }
  }
  return worst;
}

// (a): one step from exact samples of π; returns the verdict and the p-value.
std::pair<VerificationResult, double> check_invariance(const Rbm& rbm, const BatchStep& step,
                                                       const AuditOptions& options, double threshold) {
  const analysis::JointStateSpace space(rbm);
  const VectorD pi = space.stationary_distribution(tempered(rbm, options.inverse_temperature));
  std::vector<double> cumulative(static_cast<std::size_t>(pi.size()));
  double sum = 0.0;
  for (Eigen::Index x = 0; x < pi.size(); ++x) cumulative[static_cast<std::size_t>(x)] = sum += pi(x);
  RandomStream stream(options.seed, invariance_stream, StreamDomain::experiment);
  MatrixD visible(options.invariance_chains, rbm.n_visible()), hidden(options.invariance_chains, rbm.n_hidden());
  for (Eigen::Index chain = 0; chain < options.invariance_chains; ++chain) {
    const double u = stream.uniform() * sum;
    const auto x = static_cast<std::uint64_t>(std::min<std::ptrdiff_t>(
        std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin(), pi.size() - 1));
    visible.row(chain) = analysis::JointStateSpace::bits(space.visible_part(x), space.n_visible()).transpose();
    hidden.row(chain) = analysis::JointStateSpace::bits(space.hidden_part(x), space.n_hidden()).transpose();
  }
  take_step(step, visible, hidden);
  std::vector<std::uint64_t> counts(space.size(), 0);
  for (Eigen::Index chain = 0; chain < visible.rows(); ++chain) ++counts[joint_index(space, visible, hidden, chain)];
  const double p = chi_squared_p_value(counts, pi);
  std::ostringstream message;
  message << "invariance: " << options.invariance_chains << " chains started from exact samples of π took one step; "
          << "χ² p-value " << p << " against the threshold " << threshold;
  if (p > threshold) return {VerificationResult::pass(message.str()), p};
  const auto total = static_cast<double>(options.invariance_chains);
  const std::size_t worst = furthest_from_expectation(counts, pi, total);
  message << ": π is not invariant; " << describe_joint_state(rbm, worst) << " was reached " << counts[worst]
          << " times where " << total * pi(static_cast<Eigen::Index>(worst)) << " were expected";
  return {VerificationResult::fail(message.str()), p};
}

std::vector<bool> reachable(const analysis::TransitionPattern& pattern, std::uint64_t from, bool reversed) {
  std::vector<bool> seen(static_cast<std::size_t>(pattern.rows()), false);
  std::vector<std::uint64_t> stack{from};
  seen[from] = true;
  while (!stack.empty()) {
    const std::uint64_t x = stack.back();
    stack.pop_back();
    for (Eigen::Index y = 0; y < pattern.rows(); ++y) {
      const bool edge = reversed ? pattern(y, static_cast<Eigen::Index>(x)) : pattern(static_cast<Eigen::Index>(x), y);
      if (edge && !seen[static_cast<std::size_t>(y)]) {
        seen[static_cast<std::size_t>(y)] = true;
        stack.push_back(static_cast<std::uint64_t>(y));
      }
    }
  }
  return seen;
}

// (b): the support graph of the observed transitions.
VerificationResult check_support_graph(const Rbm& rbm, const analysis::TransitionPattern& pattern,
                                       const analysis::ErgodicityReport& report) {
  std::ostringstream message;
  message << "support graph of the observed transitions: ";
  if (report.irreducible && report.period == 1) {
    message << "irreducible and aperiodic";
    return VerificationResult::pass(message.str());
  }
  if (!report.irreducible) {
    message << "reducible (" << report.communicating_classes << " communicating classes): ";
    const std::vector<bool> forward = reachable(pattern, 0, false);
    const auto unreached = std::find(forward.begin(), forward.end(), false);
    if (unreached != forward.end()) {
      message << "no chain path from " << describe_joint_state(rbm, 0) << " to "
              << describe_joint_state(rbm, static_cast<std::uint64_t>(unreached - forward.begin()));
    } else {
      const std::vector<bool> backward = reachable(pattern, 0, true);
      const auto stuck = std::find(backward.begin(), backward.end(), false);
      message << "no chain path from "
              << describe_joint_state(rbm, static_cast<std::uint64_t>(stuck - backward.begin())) << " back to "
              << describe_joint_state(rbm, 0);
    }
  } else {
    message << "periodic with period " << report.period << ": every observed cycle through "
            << describe_joint_state(rbm, 0) << " has a length that is a multiple of " << report.period;
  }
  return VerificationResult::fail(message.str());
}

MatrixD empirical_matrix(const TransitionCounts& counts) {
  const auto size = static_cast<Eigen::Index>(counts.size());
  MatrixD matrix(size, size);
  for (Eigen::Index x = 0; x < size; ++x) {
    const auto& row = counts[static_cast<std::size_t>(x)];
    double total = 0.0;
    for (const std::uint64_t count : row) total += static_cast<double>(count);
    for (Eigen::Index y = 0; y < size; ++y) matrix(x, y) = static_cast<double>(row[static_cast<std::size_t>(y)]) / total;
  }
  return matrix;
}

// SLEM(P̂) and a percentile interval from redrawing every row as multinomial(chains, P̂ row), one binomial per entry
// given the rest of the row (std::binomial_distribution: the draws are those of the standard library in use). With no
// replicates the interval is [NaN, NaN]: not measured.
SampledSlem bootstrap_slem(const MatrixD& estimate, Eigen::Index chains, const AuditOptions& options) {
  SampledSlem result;
  result.estimate = analysis::stochastic_matrix_slem(estimate).slem;
  result.lower = result.upper = std::numeric_limits<double>::quiet_NaN();
  if (options.bootstrap_replicates == 0) return result;
  RandomStream stream(options.seed, bootstrap_stream, StreamDomain::experiment);
  std::vector<double> replicates;
  MatrixD redrawn(estimate.rows(), estimate.cols());
  for (int replicate = 0; replicate < options.bootstrap_replicates; ++replicate) {
    redrawn.setZero();
    for (Eigen::Index x = 0; x < estimate.rows(); ++x) {
      auto remaining = static_cast<std::uint64_t>(chains);
      double remaining_probability = 1.0;
      // Once every chain of the row is placed, the rest of the row stays 0 (no draws: most rows are sparse).
      for (Eigen::Index y = 0; y < estimate.cols() && remaining > 0; ++y) {
        if (estimate(x, y) == 0.0 && y + 1 < estimate.cols()) continue;
        const double p = remaining_probability > 0.0 ? std::clamp(estimate(x, y) / remaining_probability, 0.0, 1.0)
                                                     : 0.0;
        const std::uint64_t count =
            y + 1 == estimate.cols() ? remaining : std::binomial_distribution<std::uint64_t>(remaining, p)(stream);
        redrawn(x, y) = static_cast<double>(count) / static_cast<double>(chains);
        remaining -= count;
        remaining_probability -= estimate(x, y);
      }
    }
    replicates.push_back(analysis::stochastic_matrix_slem(redrawn).slem);
  }
  std::sort(replicates.begin(), replicates.end());
  const double tail = (1.0 - options.interval_level) / 2.0;
  const auto at = [&](double share) {
    const auto k = static_cast<std::size_t>(std::lround(share * static_cast<double>(replicates.size() - 1)));
    return replicates[k];
  };
  result.lower = at(tail);
  result.upper = at(1.0 - tail);
  return result;
}

}  // namespace

bool AuditOptions::is_valid(std::string* why) const {
  const auto fail = [why](const char* reason) {
    if (why != nullptr) *why = reason;
    return false;
  };
  if (invariance_chains < 1) return fail("audit: invariance_chains must be at least 1");
  if (chains_per_start < 1) return fail("audit: chains_per_start must be at least 1");
  if (!(std::isfinite(inverse_temperature) && inverse_temperature >= 0.0))
    return fail("audit: the inverse temperature must be finite and >= 0");
  if (!(false_failure_rate > 0.0 && false_failure_rate < 1.0))
    return fail("audit: the false-failure rate must lie in (0, 1)");
  if (bootstrap_replicates < 0 || bootstrap_replicates == 1)
    return fail("audit: bootstrap_replicates must be 0 (no interval) or at least 2");
  if (!(interval_level > 0.0 && interval_level < 1.0)) return fail("audit: interval_level must lie in (0, 1)");
  return true;
}

void AuditOptions::validate() const {
  std::string why;
  require(is_valid(&why), why);
}

std::string describe_joint_state(const Rbm& rbm, std::uint64_t joint_state) {
  const analysis::JointStateSpace space(rbm);
  std::ostringstream text;
  text << "joint state " << joint_state << " (v = ";
  for (int j = 0; j < space.n_visible(); ++j) text << ((space.visible_part(joint_state) >> j) & 1U);
  text << ", h = ";
  for (int i = 0; i < space.n_hidden(); ++i) text << ((space.hidden_part(joint_state) >> i) & 1U);
  text << ")";
  return text.str();
}

AuditResult audit_sampler(const Rbm& rbm, const BatchStep& step, const AuditOptions& options) {
  options.validate();
  rbm.validate("audit: RBM");
  require(rbm.n_visible() + rbm.n_hidden() <= max_audit_units, [&] {
    return "audit: the RBM has " + std::to_string(rbm.n_visible() + rbm.n_hidden()) +
           " units; the audit enumerates the joint states and takes at most " + std::to_string(max_audit_units);
  });
  AuditResult result;
  const analysis::JointStateSpace space(rbm);
  result.states = space.size();
  const std::size_t family = 1 + (options.same_as ? static_cast<std::size_t>(space.size()) : 0);
  result.threshold = bonferroni_threshold(options.false_failure_rate, family);

  std::tie(result.invariance, result.invariance_p_value) = check_invariance(rbm, step, options, result.threshold);

  const TransitionCounts counts = sampler_transition_counts(
      rbm, options.chains_per_start, [&](MatrixD& visible, MatrixD& hidden) { take_step(step, visible, hidden); });
  result.steps_taken = static_cast<std::uint64_t>(options.invariance_chains) +
                       space.size() * static_cast<std::uint64_t>(options.chains_per_start);
  const auto size = static_cast<Eigen::Index>(space.size());
  analysis::TransitionPattern pattern(size, size);
  for (Eigen::Index x = 0; x < size; ++x)
    for (Eigen::Index y = 0; y < size; ++y)
      pattern(x, y) = counts[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)] > 0;
  result.empirical_ergodicity = analysis::analyse_ergodicity(analysis::PatternGraph(pattern));
  result.ergodicity = check_support_graph(rbm, pattern, result.empirical_ergodicity);
  result.empirical_slem = bootstrap_slem(empirical_matrix(counts), options.chains_per_start, options);

  if (options.same_as) {
    const MatrixD exact = analysis::sweep_transition_matrix(rbm, *options.same_as, options.inverse_temperature);
    result.same_as_slem = analysis::dense_slem(exact).slem;
    VerificationResult rows = check_transition_counts(counts, exact, options.false_failure_rate, family);
    rows.message = "rows against the exact rows of " + to_string(*options.same_as) + ": " + rows.message;
    result.same_as = rows;
  }

  std::ostringstream summary;
  const bool passed = result.invariance && result.ergodicity && (!result.same_as || *result.same_as);
  summary << "audit of a sampler on an RBM with " << rbm.n_visible() << " visible and " << rbm.n_hidden()
          << " hidden units (" << space.size() << " joint states, β = " << options.inverse_temperature << ", seed "
          << options.seed << "): " << (passed ? "passed" : "FAILED") << "; " << result.invariance.message << "; "
          << result.ergodicity.message << "; empirical SLEM " << result.empirical_slem.estimate;
  if (options.bootstrap_replicates > 0) {
    summary << " (" << options.interval_level * 100.0 << " % bootstrap interval [" << result.empirical_slem.lower
            << ", " << result.empirical_slem.upper << "])";
  } else {
    summary << " (no bootstrap interval: bootstrap_replicates = 0)";
  }
  if (result.same_as)
    summary << "; " << result.same_as->message << "; exact SLEM of " << to_string(*options.same_as) << " "
            << *result.same_as_slem;
  result.verdict = {passed, summary.str()};
  return result;
}

}  // namespace rbmix::verify
