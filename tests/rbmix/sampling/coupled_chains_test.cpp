#include "rbmix/sampling/coupled_chains.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/model/random_rbm.hpp"
#include "rbmix/verify/chi_squared.hpp"
#include "rbmix/verify/sampled_transitions.hpp"
#include "support/rule_list.hpp"
#include "support/test_names.hpp"
#include "support/tied_rbm.hpp"

namespace rbmix {
namespace {

// Every statistical test of this file is one family, Bonferroni-corrected so that correct code fails any of it with
// probability at most kFalseFailureRate (fixed seeds: a failure reproduces).
constexpr double kFalseFailureRate = 1e-6;
constexpr Eigen::Index kPairsPerStart = 3000;
constexpr std::uint64_t kSeed = 20261127;

// The second chain's start of every pair: the complement of the first's (every unit differs, so the maximal coupling
// acts on whole layers), or the first's with visible unit 0 flipped (one unit differs: most of each layer shares its
// draw and the rejection step acts on the rest).
enum class Partner { complement, one_unit_apart };

void make_partners(MatrixD& visible, MatrixD& hidden, Partner partner) {
  if (partner == Partner::complement) {
    visible = (1.0 - visible.array()).matrix();
    hidden = (1.0 - hidden.array()).matrix();
  } else {
    visible.col(0) = (1.0 - visible.col(0).array()).matrix();
  }
}

// One coupled sweep from every joint state x (first chain) and its partner (second chain), kPairsPerStart pairs each;
// returns the first and the second chains' counts of next states by start state, and the partners' state indices.
struct CoupledCounts {
  verify::TransitionCounts first;
  verify::TransitionCounts second;
  std::vector<std::uint64_t> second_start;  // the second chain's start state of block x
};

template <typename Scalar>
CoupledCounts coupled_counts(const Rbm& rbm, const UnitRule& rule, double beta, Eigen::Index maximal_within,
                             Partner partner, std::uint64_t first_stream) {
  const analysis::JointStateSpace space(rbm);
  const verify::StartStates starts = verify::every_start_state(rbm, kPairsPerStart);
  CoupledChains<Scalar> chains(starts.visible.rows(), rbm.n_visible(), rbm.n_hidden(), maximal_within, kSeed,
                               first_stream);
  chains.visible(CoupledChain::first) = starts.visible.cast<Scalar>();
  chains.hidden(CoupledChain::first) = starts.hidden.cast<Scalar>();
  MatrixD second_visible = starts.visible, second_hidden = starts.hidden;
  make_partners(second_visible, second_hidden, partner);
  chains.visible(CoupledChain::second) = second_visible.cast<Scalar>();
  chains.hidden(CoupledChain::second) = second_hidden.cast<Scalar>();
  CoupledCounts counts;
  for (Eigen::Index block = 0; block < starts.visible.rows(); block += kPairsPerStart) {
    std::uint64_t v = 0, h = 0;
    for (int j = 0; j < space.n_visible(); ++j) v |= static_cast<std::uint64_t>(second_visible(block, j)) << j;
    for (int i = 0; i < space.n_hidden(); ++i) h |= static_cast<std::uint64_t>(second_hidden(block, i)) << i;
    counts.second_start.push_back(space.index(v, h));
  }
  chains.coupled_sweep(rbm.cast<Scalar>(), rule, static_cast<Scalar>(beta));
  counts.first = verify::count_transitions(space, chains.visible(CoupledChain::first),
                                           chains.hidden(CoupledChain::first), kPairsPerStart);
  counts.second = verify::count_transitions(space, chains.visible(CoupledChain::second),
                                            chains.hidden(CoupledChain::second), kPairsPerStart);
  return counts;
}

// The exact sweep's rows reordered so that row x is the row of the second chain's start in block x.
MatrixD rows_of(const MatrixD& exact, const std::vector<std::uint64_t>& starts) {
  MatrixD rows(exact.rows(), exact.cols());
  for (std::size_t x = 0; x < starts.size(); ++x)
    rows.row(static_cast<Eigen::Index>(x)) = exact.row(static_cast<Eigen::Index>(starts[x]));
  return rows;
}

struct MarginalCase {
  UnitRule rule;
  double beta;
};
std::vector<MarginalCase> marginal_cases() {
  std::vector<MarginalCase> cases;
  for (const UnitRule& rule : testing::every_builtin_rule()) cases.push_back({rule, 1.0});
  cases.push_back({GibbsRule{}, 0.5});  // tempered
  cases.push_back({FlipTheStateRule{}, 0.5});
  return cases;
}
const std::vector<Eigen::Index> kCouplings{never_maximal_coupling, 2, always_maximal_coupling};
const std::vector<Partner> kPartners{Partner::complement, Partner::one_unit_apart};

std::size_t marginal_family_size() {
  const std::size_t states = analysis::JointStateSpace(testing::tied_rbm()).size();
  return marginal_cases().size() * kCouplings.size() * kPartners.size() * 2 * states;
}

// Each chain of a coupled pair is exactly the operator's chain: the counts of one coupled sweep from every joint
// state, for both chains, for every rule (tempered too), with shared uniforms, the hybrid and the maximal coupling,
// pass the χ² test against the exact rows of K built from the same rule (as the verify module checks BatchedChains).
TEST(CoupledChains, EachChainStepsAsTheOperator) {
  const Rbm rbm = testing::tied_rbm();
  std::uint64_t stream = 0;
  for (const MarginalCase& operator_case : marginal_cases()) {
    const MatrixD exact = analysis::sweep_transition_matrix(rbm, operator_case.rule, operator_case.beta);
    for (const Eigen::Index coupling : kCouplings)
      for (const Partner partner : kPartners) {
        const CoupledCounts counts =
            coupled_counts<double>(rbm, operator_case.rule, operator_case.beta, coupling, partner, stream);
        stream += static_cast<std::uint64_t>(kPairsPerStart) * exact.rows();
        SCOPED_TRACE(to_string(operator_case.rule) + " β = " + std::to_string(operator_case.beta) +
                     ", maximal within " + std::to_string(coupling) +
                     (partner == Partner::complement ? ", complement" : ", one unit apart"));
        const verify::VerificationResult first =
            verify::check_transition_counts(counts.first, exact, kFalseFailureRate, marginal_family_size());
        EXPECT_TRUE(first.passed) << "first chain: " << first.message;
        const verify::VerificationResult second = verify::check_transition_counts(
            counts.second, rows_of(exact, counts.second_start), kFalseFailureRate, marginal_family_size());
        EXPECT_TRUE(second.passed) << "second chain: " << second.message;
      }
  }
}

// The χ² check has the power to see a wrong marginal: the second chain's counts against the first chain's rows fail.
TEST(CoupledChains, MarginalCheckRejectsTheWrongRows) {
  const Rbm rbm = testing::tied_rbm();
  const MatrixD exact = analysis::sweep_transition_matrix(rbm, GibbsRule{}, 1.0);
  const CoupledCounts counts =
      coupled_counts<double>(rbm, GibbsRule{}, 1.0, always_maximal_coupling, Partner::complement, 0);
  EXPECT_FALSE(verify::check_transition_counts(counts.second, exact, kFalseFailureRate, marginal_family_size()).passed);
}

// The maximal coupling of two product distributions agrees with probability 1 − d_TV(P, Q) and no more: checked on
// three units by enumerating the 8 states, and each chain's draw has its own law (χ² over the 8 cells). Shared
// uniforms agree less often here (each unit with probability 1 − |p_k − q_k|, product 0.36 < 1 − d_TV).
TEST(CoupledChains, MaximalLayerCouplingAgreesAsOftenAsPossible) {
  const std::vector<double> p{0.2, 0.7, 0.5}, q{0.6, 0.7, 0.1};
  double overlap = 0.0;
  VectorD first_law(8), second_law(8);
  for (int state = 0; state < 8; ++state) {
    double probability_p = 1.0, probability_q = 1.0;
    for (int k = 0; k < 3; ++k) {
      const bool one = (state >> k) & 1;
      probability_p *= one ? p[k] : 1.0 - p[k];
      probability_q *= one ? q[k] : 1.0 - q[k];
    }
    first_law[state] = probability_p;
    second_law[state] = probability_q;
    overlap += std::min(probability_p, probability_q);
  }
  constexpr int draws = 400000;
  RandomStream stream(kSeed, 0);
  std::vector<Eigen::Index> differing;
  std::vector<std::uint64_t> first_counts(8, 0), second_counts(8, 0);
  int agreements = 0, shared_agreements = 0;
  double first[3], second[3];
  for (int draw = 0; draw < draws; ++draw) {
    draw_coupled_layer(p.data(), q.data(), first, second, 3, true, stream, differing);
    int first_state = 0, second_state = 0;
    for (int k = 0; k < 3; ++k) {
      first_state |= static_cast<int>(first[k]) << k;
      second_state |= static_cast<int>(second[k]) << k;
    }
    ++first_counts[static_cast<std::size_t>(first_state)];
    ++second_counts[static_cast<std::size_t>(second_state)];
    agreements += first_state == second_state;
    draw_coupled_layer(p.data(), q.data(), first, second, 3, false, stream, differing);
    shared_agreements += std::equal(first, first + 3, second);
  }
  // 6 binomial standard deviations: a two-sided tail of 2e-9 per proportion.
  const auto tolerance = [](double probability) { return 6.0 * std::sqrt(probability * (1 - probability) / draws); };
  EXPECT_NEAR(agreements / double(draws), overlap, tolerance(overlap));
  const double shared = (1 - 0.4) * 1.0 * (1 - 0.4);
  EXPECT_NEAR(shared_agreements / double(draws), shared, tolerance(shared));
  const double threshold = verify::bonferroni_threshold(kFalseFailureRate, 2);
  EXPECT_GT(verify::chi_squared_p_value(first_counts, first_law), threshold);
  EXPECT_GT(verify::chi_squared_p_value(second_counts, second_law), threshold);
}

// Met pairs stay met, for every rule and coupling and in both precisions: pairs started equal are equal after many
// sweeps on a model large enough that its products are blocked (where equal rows in different places of the matrix
// could round differently), and pairs started apart that meet stay together.
template <typename Scalar>
void expect_met_pairs_stay_met() {
  const Rbm large = uniform_random_rbm(300, 120, 0.5, 0.5, 3);
  const Rbm tiny = uniform_random_rbm(4, 3, 2.0, 1.0, 4);
  for (const UnitRule& rule : testing::every_builtin_rule())
    for (const Eigen::Index coupling : kCouplings) {
      SCOPED_TRACE(to_string(rule) + ", maximal within " + std::to_string(coupling));
      CoupledChains<Scalar> equal(6, large.n_visible(), large.n_hidden(), coupling, kSeed);
      for (Eigen::Index pair = 0; pair < equal.pairs(); ++pair)
        for (Eigen::Index j = 0; j < large.n_visible(); ++j)
          equal.visible(CoupledChain::first)(pair, j) = equal.visible(CoupledChain::second)(pair, j) =
              static_cast<Scalar>((pair + j) % 3 == 0);
      const BasicRbm<Scalar> large_model = large.cast<Scalar>();
      for (int sweep = 0; sweep < 20; ++sweep) {
        equal.coupled_sweep(large_model, rule);
        for (Eigen::Index pair = 0; pair < equal.pairs(); ++pair) ASSERT_EQ(equal.distance(pair), 0);
      }
      CoupledChains<Scalar> apart(32, tiny.n_visible(), tiny.n_hidden(), coupling, kSeed);
      apart.visible(CoupledChain::second).setOnes();
      apart.hidden(CoupledChain::second).setOnes();
      std::vector<bool> met(32, false);
      const BasicRbm<Scalar> tiny_model = tiny.cast<Scalar>();
      for (int sweep = 0; sweep < 200; ++sweep) {
        apart.coupled_sweep(tiny_model, rule);
        for (Eigen::Index pair = 0; pair < apart.pairs(); ++pair) {
          const auto index = static_cast<std::size_t>(pair);
          if (met[index]) {
            ASSERT_EQ(apart.distance(pair), 0) << "pair " << pair << " parted at sweep " << sweep;
          }
          met[index] = met[index] || apart.distance(pair) == 0;
        }
      }
    }
}
TEST(CoupledChains, MetPairsStayMetInDouble) { expect_met_pairs_stay_met<double>(); }
TEST(CoupledChains, MetPairsStayMetInFloat) { expect_met_pairs_stay_met<float>(); }

// A pair's numbers depend on its seed and index only: the first 5 pairs of 64 follow the same paths as 5 pairs alone,
// and a second run with other threads gives the same states bit for bit (64 × 300 units draw in parallel).
TEST(CoupledChains, PairsDependOnTheirIndexOnly) {
  const Rbm rbm = uniform_random_rbm(300, 120, 0.1, 0.1, 5);
  const auto run = [&](Eigen::Index pairs, int threads) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    CoupledChains<double> chains(pairs, rbm.n_visible(), rbm.n_hidden(), 60, kSeed);
    chains.hidden(CoupledChain::second).setOnes();
    for (int sweep = 0; sweep < 5; ++sweep) chains.sweep_first(rbm, UnitRule{FlipTheStateRule{}});
    for (int sweep = 0; sweep < 30; ++sweep) chains.coupled_sweep(rbm, UnitRule{FlipTheStateRule{}});
    omp_set_num_threads(saved);
    return std::pair{chains.visible(CoupledChain::second).topRows(5).eval(),
                     chains.hidden(CoupledChain::first).topRows(5).eval()};
  };
  const auto alone = run(5, 1);
  EXPECT_EQ(run(64, 1), alone);
  EXPECT_EQ(run(64, 2), alone);
}

}  // namespace
}  // namespace rbmix
