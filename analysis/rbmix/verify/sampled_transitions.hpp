#pragma once
// The χ² test of a sampler's one-step transitions against the exact rows of K (docs/design.md §1): from every joint
// state of a tiny RBM many chains take one sweep, and the counts of next states are compared with the exact row of
// the same rule by Pearson's χ² test (chi_squared.hpp), one test per start state. The tests of a family are
// Bonferroni-corrected: a correct sampler fails any of them with probability at most the stated false-failure rate.
// The sampler is rbmix's BatchedChains running a rule (any ConcreteUnitRule, or UnitRule), or a user's own sweep.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/sampling/batched_chains.hpp"
#include "rbmix/verify/verification_result.hpp"

namespace rbmix::verify {

// counts[start][next] over joint states in JointStateSpace order (x = v + 2^m·h).
using TransitionCounts = std::vector<std::vector<std::uint64_t>>;

// A batch of chains that starts `chains_per_start` chains at each joint state, in index order: rows
// [x·chains_per_start, (x + 1)·chains_per_start) start at x.
struct StartStates {
  MatrixD visible;  // rows × n_visible
  MatrixD hidden;   // rows × n_hidden
};
StartStates every_start_state(const Rbm& rbm, Eigen::Index chains_per_start);
// The same for the `count` joint states from `first` on: rows [(x − first)·chains_per_start, …) start at x.
StartStates start_states(const Rbm& rbm, Eigen::Index chains_per_start, Eigen::Index first, Eigen::Index count);

// Adds the next states of a batch laid out as start_states(…, first, …) lays it out, after one step, to
// counts[start][next].
template <typename Scalar>
void add_transitions(const analysis::JointStateSpace& space, const Matrix<Scalar>& visible,
                     const Matrix<Scalar>& hidden, Eigen::Index chains_per_start, Eigen::Index first,
                     std::vector<std::vector<std::uint64_t>>& counts) {
  for (Eigen::Index b = 0; b < visible.rows(); ++b) {
    std::uint64_t v = 0, h = 0;
    for (int j = 0; j < space.n_visible(); ++j) v |= static_cast<std::uint64_t>(visible(b, j)) << j;
    for (int i = 0; i < space.n_hidden(); ++i) h |= static_cast<std::uint64_t>(hidden(b, i)) << i;
    ++counts[static_cast<std::size_t>(first + b / chains_per_start)][space.index(v, h)];
  }
}

// The counts of next states of a batch laid out as every_start_state lays it out, after one step.
template <typename Scalar>
TransitionCounts count_transitions(const analysis::JointStateSpace& space, const Matrix<Scalar>& visible,
                                   const Matrix<Scalar>& hidden, Eigen::Index chains_per_start) {
  TransitionCounts counts(space.size(), std::vector<std::uint64_t>(space.size(), 0));
  add_transitions(space, visible, hidden, chains_per_start, 0, counts);
  return counts;
}

// At most this many chains per call of a user's sampler: at 2^10 states and 20 000 chains per start one call would
// hand it 2·10^7 rows, and a numpy sampler's temporaries then took 8 GB, most of its time spent in page faults.
// Blocks of 2^18 chains still put 10 MB in each of a numpy step's temporaries, which the allocator maps and the
// kernel zeroes anew every call: a numpy Gibbs sweep over the 2·10^7 rows took 13.3 s of CPU in such blocks and
// 2.7 s in blocks of 20 000 (docs/performance.md, "The audit at 10 units").
inline constexpr Eigen::Index max_chains_per_sampler_call = Eigen::Index{1} << 15;

// One sweep of BatchedChains<Scalar> under `rule` (UnitRule or any ConcreteUnitRule) at inverse temperature β from
// every joint state; chain b draws from RandomStream(seed, first_stream + b).
template <typename Scalar, typename Rule>
TransitionCounts batched_chains_transition_counts(const Rbm& rbm, const Rule& rule, double inverse_temperature,
                                                  Eigen::Index chains_per_start, std::uint64_t seed,
                                                  std::uint64_t first_stream = 0) {
  const analysis::JointStateSpace space(rbm);
  const StartStates starts = every_start_state(rbm, chains_per_start);
  BatchedChains<Scalar> chains(starts.visible.rows(), rbm.n_visible(), rbm.n_hidden(), seed, first_stream);
  chains.visible() = starts.visible.cast<Scalar>();
  chains.hidden() = starts.hidden.cast<Scalar>();
  chains.sweep(rbm.cast<Scalar>(), rule, static_cast<Scalar>(inverse_temperature));
  return count_transitions(space, chains.visible(), chains.hidden(), chains_per_start);
}

// One sweep of a user's sampler from every joint state: `sweep(visible, hidden)` must advance every row (a chain:
// visible MatrixD rows × m, hidden rows × n, 0/1 entries) by one step of the operator under test. The start states
// go to it in blocks of whole start states of at most max_chains_per_sampler_call chains (one start state's chains
// when they are more).
template <typename Sweep>
TransitionCounts sampler_transition_counts(const Rbm& rbm, Eigen::Index chains_per_start, Sweep&& sweep) {
  require(chains_per_start > 0, "sampler_transition_counts: chains_per_start must be positive");
  const analysis::JointStateSpace space(rbm);
  const auto starts = static_cast<Eigen::Index>(space.size());
  const Eigen::Index block = std::max<Eigen::Index>(1, max_chains_per_sampler_call / chains_per_start);
  TransitionCounts counts(space.size(), std::vector<std::uint64_t>(space.size(), 0));
  for (Eigen::Index first = 0; first < starts; first += block) {
    StartStates states = start_states(rbm, chains_per_start, first, std::min(block, starts - first));
    sweep(states.visible, states.hidden);
    add_transitions(space, states.visible, states.hidden, chains_per_start, first, counts);
  }
  return counts;
}

// The smallest χ² p-value over the start states of `counts` against the rows of `exact_sweep`, and where.
struct RowTest {
  double smallest_p_value = 1.0;
  std::size_t start = 0;
};
RowTest smallest_row_p_value(const TransitionCounts& counts, const MatrixD& exact_sweep);

// The per-test threshold that keeps a family of `tests` tests below `false_failure_rate` (Bonferroni).
double bonferroni_threshold(double false_failure_rate, std::size_t tests);

// Passes when every start state's p-value is above bonferroni_threshold(false_failure_rate, family_size);
// family_size 0 means the rows of `exact_sweep`. The message names the worst start state, its p-value, the
// threshold and the next state whose count is furthest from its expectation.
VerificationResult check_transition_counts(const TransitionCounts& counts, const MatrixD& exact_sweep,
                                           double false_failure_rate, std::size_t family_size = 0);

struct TransitionTestOptions {
  double inverse_temperature = 1.0;
  Eigen::Index chains_per_start = 20000;
  std::uint64_t seed = 20240611;
  double false_failure_rate = 1e-6;  // of the whole check
};

// rbmix's BatchedChains running `rule`, in double and in float (one family), against the exact rows of the same
// rule: the sampler, the kernel and the exact builder agree on the rule.
template <ConcreteUnitRule Rule>
VerificationResult check_sampled_transitions(const Rbm& rbm, const Rule& rule,
                                             const TransitionTestOptions& options = {}) {
  const MatrixD exact = analysis::sweep_transition_matrix(rbm, rule, options.inverse_temperature);
  const std::size_t family = 2 * static_cast<std::size_t>(exact.rows());
  const auto chains = static_cast<std::uint64_t>(exact.rows() * options.chains_per_start);
  VerificationResult in_double =
      check_transition_counts(batched_chains_transition_counts<double>(rbm, rule, options.inverse_temperature,
                                                                       options.chains_per_start, options.seed),
                              exact, options.false_failure_rate, family);
  if (!in_double) return VerificationResult::fail("BatchedChains<double>: " + in_double.message);
  VerificationResult in_float =
      check_transition_counts(batched_chains_transition_counts<float>(rbm, rule, options.inverse_temperature,
                                                                      options.chains_per_start, options.seed, chains),
                              exact, options.false_failure_rate, family);
  if (!in_float) return VerificationResult::fail("BatchedChains<float>: " + in_float.message);
  return VerificationResult::pass("BatchedChains<double>: " + in_double.message +
                                  "; BatchedChains<float>: " + in_float.message);
}

// A user's own sampler (see sampler_transition_counts) against the exact rows of `rule` at options' β (the
// sampler must use the same β); options.seed is not used: the sampler draws its own numbers.
template <ConcreteUnitRule Rule, typename Sweep>
VerificationResult check_sampler_transitions(const Rbm& rbm, const Rule& rule, Sweep&& sweep,
                                             const TransitionTestOptions& options = {}) {
  const MatrixD exact = analysis::sweep_transition_matrix(rbm, rule, options.inverse_temperature);
  return check_transition_counts(sampler_transition_counts(rbm, options.chains_per_start, sweep), exact,
                                 options.false_failure_rate);
}

}  // namespace rbmix::verify
