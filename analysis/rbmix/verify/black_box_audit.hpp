#pragma once
// A black-box audit of a sampler rbmix did not write (docs/design.md §1): the sampler is only a step that advances a
// batch of chains by one transition, drawing its own random numbers. On a tiny RBM, whose joint states can be
// enumerated, the audit measures three things:
//   (a) invariance: chains started from exact samples of π ∝ e^{−βE} take one step, and the histogram of their joint
//       states is compared with π by Pearson's χ² (chi_squared.hpp). A step that leaves π invariant passes whatever
//       else it does; one that updates a layer from stale units of the other does not.
//   (b) ergodicity and speed: from every joint state, chains_per_start chains take one step (sampled_transitions.hpp
//       lays them out); the counts give the empirical matrix P̂. Its support graph (x → y when some chain went from x
//       to y) must be irreducible and aperiodic (ergodicity.hpp), and SLEM(P̂) (by Arnoldi on the deflated matrix,
//       dense below 128 states) comes with a percentile interval from a parametric bootstrap over the rows: each row
//       redrawn as multinomial(chains_per_start, P̂ row); bootstrap_replicates = 0 skips it. The interval measures the
//       sampling error of P̂; SLEM(P̂) is biased, so it is an estimate, not a bound.
//   (c) with same_as: the rows of counts against that rule's exact rows, one χ² test per start state
//       (check_transition_counts), as check_sampler_transitions does for a sampler whose rule is known.
// False failures: the χ² tests of (a) and (c) are one Bonferroni family, so a sampler that is exactly the operator it
// claims fails them with probability at most false_failure_rate. The support graph of (b) can only miss edges, so a
// correct ergodic sampler is called reducible or periodic only when every observed path between two states needs a
// transition that none of its chains_per_start draws took (with the defaults, transitions of probability below
// about 1e-3 on every such path); such a verdict names the states involved.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "rbmix/analysis/ergodicity.hpp"
#include "rbmix/model/rbm.hpp"
#include "rbmix/sampling/unit_rule.hpp"
#include "rbmix/verify/verification_result.hpp"

namespace rbmix::verify {

// The sampler under audit: advances every row (one chain: `visible` rows × m, `hidden` rows × n, entries 0 or 1) by
// one step in place, with its own random numbers. It may throw; the audit lets the exception through.
using BatchStep = std::function<void(MatrixD& visible, MatrixD& hidden)>;

// Joint states up to 2^10: 2^10 start states × chains_per_start chain steps, and P̂ a dense 2^10 × 2^10 matrix whose
// SLEM Arnoldi finds in about 0.1 s per bootstrap replicate (docs/python.md, "The audit", gives the measured times).
inline constexpr int max_audit_units = 10;

struct AuditOptions {
  Eigen::Index invariance_chains = 200000;  // chains of (a)
  Eigen::Index chains_per_start = 20000;    // chains of (b) and (c) from each joint state
  std::optional<UnitRule> same_as;          // (c): the operator the sampler claims to be
  double inverse_temperature = 1.0;         // β of π (and of same_as); the sampler must use the same
  std::uint64_t seed = 20240611;            // the exact start samples of (a) and the bootstrap of (b)
  double false_failure_rate = 1e-6;         // of the χ² family of (a) and (c)
  // 100 percentile replicates: at 2^10 states each costs about 0.16 s of one core (its multinomial rows and Arnoldi),
  // so the audit with the defaults stays near 30 s there; 0 skips the interval.
  int bootstrap_replicates = 100;
  double interval_level = 0.95;  // of the SLEM interval
  bool is_valid(std::string* why) const;
  void validate() const;  // InputError with the reason unless is_valid
};

struct SampledSlem {
  double estimate = 1.0;  // SLEM(P̂)
  double lower = 1.0;     // bootstrap percentile interval at interval_level
  double upper = 1.0;
};

struct AuditResult {
  VerificationResult verdict;                  // passed when every part passed; the message lists each part
  VerificationResult invariance;               // (a)
  VerificationResult ergodicity;               // (b), the support graph
  std::optional<VerificationResult> same_as;   // (c), when asked
  double invariance_p_value = 1.0;             // of (a)
  double threshold = 0.0;                      // per χ² test: false_failure_rate / family size (Bonferroni)
  analysis::ErgodicityReport empirical_ergodicity;
  SampledSlem empirical_slem;
  std::optional<double> same_as_slem;          // the exact SLEM of the claimed operator
  std::uint64_t states = 0;                    // 2^{m+n}
  std::uint64_t steps_taken = 0;               // chain steps the sampler was asked for, in all
};

// Throws InputError for an RBM with more than max_audit_units units or invalid parameters, invalid options, or a
// step that changes the shape of its batch or leaves an entry other than 0 and 1 (naming the row and column).
AuditResult audit_sampler(const Rbm& rbm, const BatchStep& step, const AuditOptions& options = {});

// "joint state x (v = 0110, h = 01)": units in index order, as JointStateSpace numbers them.
std::string describe_joint_state(const Rbm& rbm, std::uint64_t joint_state);

}  // namespace rbmix::verify
