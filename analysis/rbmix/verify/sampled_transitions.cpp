#include "rbmix/verify/sampled_transitions.hpp"

#include <cmath>
#include <sstream>

#include "rbmix/verify/chi_squared.hpp"

namespace rbmix::verify {

StartStates every_start_state(const Rbm& rbm, Eigen::Index chains_per_start) {
  return start_states(rbm, chains_per_start, 0, static_cast<Eigen::Index>(analysis::JointStateSpace(rbm).size()));
}

StartStates start_states(const Rbm& rbm, Eigen::Index chains_per_start, Eigen::Index first, Eigen::Index count) {
  require(chains_per_start > 0, "every_start_state: chains_per_start must be positive");
  const analysis::JointStateSpace space(rbm);
  require(first >= 0 && count >= 0 && first + count <= static_cast<Eigen::Index>(space.size()),
          "start_states: the start states lie outside the joint state space");
  StartStates states{MatrixD(count * chains_per_start, rbm.n_visible()),
                     MatrixD(count * chains_per_start, rbm.n_hidden())};
  // Column by column: the matrices are column-major, so each unit's chains of one start are one contiguous run.
  for (Eigen::Index k = 0; k < count; ++k) {
    const auto state = static_cast<std::uint64_t>(first + k);
    const auto fill = [&](MatrixD& layer, std::uint64_t part) {
      for (Eigen::Index unit = 0; unit < layer.cols(); ++unit)
        layer.col(unit)
            .segment(k * chains_per_start, chains_per_start)
            .setConstant(static_cast<double>((part >> unit) & 1U));
    };
    fill(states.visible, space.visible_part(state));
    fill(states.hidden, space.hidden_part(state));
  }
  return states;
}

RowTest smallest_row_p_value(const TransitionCounts& counts, const MatrixD& exact_sweep) {
  require(counts.size() == static_cast<std::size_t>(exact_sweep.rows()),
          "smallest_row_p_value: one row of counts per row of the exact matrix");
  RowTest test;
  for (Eigen::Index start = 0; start < exact_sweep.rows(); ++start) {
    const double p = chi_squared_p_value(counts[static_cast<std::size_t>(start)], exact_sweep.row(start).transpose());
    if (p < test.smallest_p_value || start == 0) test = {p, static_cast<std::size_t>(start)};
  }
  return test;
}

double bonferroni_threshold(double false_failure_rate, std::size_t tests) {
  require(false_failure_rate > 0.0 && false_failure_rate < 1.0 && tests > 0,
          "bonferroni_threshold: the false-failure rate must lie in (0, 1) and the family must not be empty");
  return false_failure_rate / static_cast<double>(tests);
}

VerificationResult check_transition_counts(const TransitionCounts& counts, const MatrixD& exact_sweep,
                                           double false_failure_rate, std::size_t family_size) {
  const std::size_t family = family_size == 0 ? static_cast<std::size_t>(exact_sweep.rows()) : family_size;
  const double threshold = bonferroni_threshold(false_failure_rate, family);
  const RowTest test = smallest_row_p_value(counts, exact_sweep);
  std::ostringstream message;
  message << "smallest χ² p-value " << test.smallest_p_value << " (one sweep from joint state " << test.start
          << ") against the threshold " << threshold << " (false-failure rate " << false_failure_rate << " over "
          << family << " tests, Bonferroni)";
  if (test.smallest_p_value > threshold) return VerificationResult::pass(message.str());
  // The next state whose count strays furthest from its expectation, in standard deviations.
  const std::vector<std::uint64_t>& row = counts[test.start];
  double total = 0.0;
  for (const std::uint64_t count : row) total += static_cast<double>(count);
  std::size_t worst = 0;
  double worst_score = -1.0;
  for (std::size_t next = 0; next < row.size(); ++next) {
    const double expected = total * exact_sweep(static_cast<Eigen::Index>(test.start), static_cast<Eigen::Index>(next));
    const double observed = static_cast<double>(row[next]);
    const double score =
        expected > 0.0 ? std::abs(observed - expected) / std::sqrt(expected) : (observed > 0.0 ? INFINITY : 0.0);
    if (score > worst_score) {
      worst_score = score;
      worst = next;
    }
  }
  message << ": the sampled transitions disagree with the exact row; next state " << worst << " was reached "
          << row[worst] << " times where "
          << total * exact_sweep(static_cast<Eigen::Index>(test.start), static_cast<Eigen::Index>(worst))
          << " were expected";
  return VerificationResult::fail(message.str());
}

}  // namespace rbmix::verify
