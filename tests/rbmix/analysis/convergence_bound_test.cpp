#include "rbmix/analysis/convergence_bound.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "rbmix/analysis/exact_total_variation.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/model/exact.hpp"
#include "rbmix/model/random_rbm.hpp"
#include "rbmix/training/trainer.hpp"
#include "support/input_error_message.hpp"
#include "support/ladder_models.hpp"
#include "support/rule_list.hpp"
#include "support/tied_rbm.hpp"

namespace rbmix::analysis {
namespace {

// The curves from hand-worked meeting times: L = 2, τ = 5 and 3, distances |X_s − Y_{s−2}| = 4, 3, 1 (s = 2, 3, 4)
// and 2 (s = 2). TV terms max(0, ⌈(τ − 2 − t)/2⌉): 2, 1, 1, 0 and 1, 0, 0, 0; Wasserstein terms Σ_{j ≥ 1} d_{t+2j}:
// 4 + 1, 3, 1, 0 and 2, 0, 0, 0.
TEST(ConvergenceBound, CurvesFromMeetingTimesAsWorkedByHand) {
  ConvergenceBound bound;
  bound.lag = 2;
  bound.meeting_times = {5, 3};
  bound.met = 2;
  fill_bound_curves(bound, {{4, 3, 1}, {2}});
  ASSERT_EQ(bound.total_variation.size(), 4);
  EXPECT_EQ(bound.total_variation, (VectorD(4) << 1.5, 0.5, 0.5, 0.0).finished());
  EXPECT_EQ(bound.wasserstein, (VectorD(4) << 3.5, 1.5, 0.5, 0.0).finished());
  // Standard error of two values a, b: |a − b|/2.
  EXPECT_DOUBLE_EQ(bound.total_variation_standard_error[0], 0.5);
  EXPECT_DOUBLE_EQ(bound.wasserstein_standard_error[0], 1.5);
  EXPECT_EQ(bound.mixing_time(0.5), 1);
  EXPECT_EQ(bound.mixing_time(0.25), 3);
}

// A censored pair leaves the bound unknown: no curves, no mixing time, the share met reported.
TEST(ConvergenceBound, PairsThatDidNotMeetGiveNoBound) {
  ConvergenceBound bound;
  bound.meeting_times = {7, std::nullopt, 4};
  bound.met = 2;
  EXPECT_FALSE(bound.bound_available());
  EXPECT_DOUBLE_EQ(bound.share_met(), 2.0 / 3.0);
  EXPECT_FALSE(bound.mixing_time(0.25));
}

Rbm zero_rbm() { return Rbm(4, 4); }

// The naive flip on the zero RBM flips every unit at every sweep: a period-2 chain that never converges. With an odd
// lag its lagged copies from the all-zeros start never meet, and that is reported; with an even lag they meet at once,
// and the exact ergodicity check keeps the meetings from being read as a bound.
TEST(ConvergenceBound, NonErgodicNaiveFlipGetsNoBound) {
  const StartDistribution zeros = parse_start_distribution("zeros");
  ConvergenceBoundOptions options;
  options.rule = NaiveFlipRule{};
  options.pairs = 20;
  options.max_sweeps = 300;
  options.lag = 1;
  const ConvergenceBound odd = convergence_bound(zero_rbm(), zeros, options);
  EXPECT_EQ(odd.met, 0);
  EXPECT_FALSE(odd.bound_available());
  EXPECT_EQ(odd.total_variation.size(), 0);
  options.lag = 2;
  const ConvergenceBound even = convergence_bound(zero_rbm(), zeros, options);
  EXPECT_TRUE(even.all_met());
  EXPECT_EQ(even.ergodicity, BoundErgodicity::refuted);
  EXPECT_FALSE(even.bound_available());
  EXPECT_FALSE(even.mixing_time(0.25));
  // The same operator under flip-the-state's tie rule is ergodic, and gets its bound.
  options.rule = FlipTheStateRule{};
  const ConvergenceBound flip = convergence_bound(zero_rbm(), zeros, options);
  EXPECT_EQ(flip.ergodicity, BoundErgodicity::checked);
  EXPECT_TRUE(flip.bound_available());
}

// Beyond the exact check's size, what the rule claims is reported.
TEST(ConvergenceBound, ReportsTheRulesClaimBeyondTheExactCheck) {
  const Rbm rbm = uniform_random_rbm(16, 8, 0.1, 0.1, 3);
  ConvergenceBoundOptions options;
  options.pairs = 4;
  options.max_sweeps = 500;
  EXPECT_EQ(convergence_bound(rbm, parse_start_distribution("uniform"), options).ergodicity, BoundErgodicity::claimed);
  options.rule = NaiveFlipRule{};
  EXPECT_EQ(convergence_bound(rbm, parse_start_distribution("uniform"), options).ergodicity, BoundErgodicity::unknown);
}

// The test models: random RBMs with large weights, RBMs with integer weights whose inputs are often exactly 0 (the
// tie rules matter), and RBMs trained on BAS 3×3 by the exact gradient.
std::vector<std::pair<std::string, Rbm>> tiny_models() {
  std::vector<std::pair<std::string, Rbm>> models;
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const Eigen::Index visible = 2 + static_cast<Eigen::Index>(seed % 3),
                       hidden = 2 + static_cast<Eigen::Index>(seed % 2);
    models.emplace_back("random " + std::to_string(seed), uniform_random_rbm(visible, hidden, 2.0, 1.0, seed));
  }
  models.emplace_back("tied", testing::tied_rbm());
  for (std::uint64_t seed = 0; seed < 7; ++seed) {
    Rbm rbm = uniform_random_rbm(3, 3, 1.49, 1.49, 100 + seed);
    rbm.weights = rbm.weights.array().round();
    rbm.visible_bias = rbm.visible_bias.array().round();
    rbm.hidden_bias = rbm.hidden_bias.array().round();
    models.emplace_back("integer " + std::to_string(seed), rbm);
  }
  for (const Eigen::Index hidden : {2, 3, 4}) {
    TrainingOptions training;
    apply_algorithm(training, Algorithm::exact);
    training.learning_rate = 0.1;
    training.momentum = 0.9;
    training.updates = 200;
    training.evaluation_interval = 200;
    Trainer trainer(training, to_real(bars_and_stripes(3)), {}, hidden);
    trainer.run();
    models.emplace_back("BAS 3x3, " + std::to_string(hidden) + " hidden", trainer.model());
  }
  return models;
}

// Monte Carlo standard errors the bound may fall below the truth by before the test calls it a bug: 3.
constexpr double kStandardErrors = 3.0;
// Where no pair contributes (t past the last meeting) the standard error is 0 and says nothing: a term that is
// positive with probability p is 0 in all R pairs with probability (1 − p)^R, below 1e-3 once p > ln(1000)/R. The
// truth may exceed the estimate by that much there (docs/algorithms/convergence-bounds.md §6.8).
constexpr double kUnseenTail = 6.91;  // ln(1000)

// bound + kStandardErrors standard errors + the unseen tail's allowance ≥ the exact distance at every t.
void expect_bound_above(const ConvergenceBound& bound, const VectorD& exact, Eigen::Index pairs) {
  for (Eigen::Index t = 0; t < exact.size(); ++t)
    ASSERT_GE(bound.total_variation[t] + kStandardErrors * bound.total_variation_standard_error[t] +
                  kUnseenTail / static_cast<double>(pairs),
              exact[t])
        << "at t = " << t;
}

// The bound lies above the exact distance d_TV(π₀Pᵗ, π) at every t, for ≥ 50 tiny RBMs, every built-in rule and
// L = 1, 5, 20, from the uniform start (the trained models also from their data). Operators whose pairs do not all meet
// (periodic ones) claim nothing and are skipped; every ergodic one must meet.
TEST(ConvergenceBound, BoundLiesAboveTheExactDistance) {
  const std::vector<std::pair<std::string, Rbm>> models = tiny_models();
  ASSERT_GE(models.size(), 50u);
  int checked = 0;
  for (const auto& [name, rbm] : models) {
    std::vector<StartDistribution> starts{parse_start_distribution("uniform")};
    if (name.starts_with("BAS")) starts.push_back({StartDistribution::Kind::data, to_real(bars_and_stripes(3)), "BAS"});
    for (const StartDistribution& start : starts)
      for (const UnitRule& rule : testing::every_builtin_rule())
        for (const Eigen::Index lag : {1, 5, 20}) {
          ConvergenceBoundOptions options;
          options.rule = rule;
          options.lag = lag;
          options.pairs = 128;
          options.max_sweeps = 4000;
          options.seed = static_cast<std::uint64_t>(checked) + 1;
          const ConvergenceBound bound = convergence_bound(rbm, start, options);
          SCOPED_TRACE(name + ", " + to_string(rule) + ", L = " + std::to_string(lag) + ", start " + to_string(start));
          if (bound.ergodicity == BoundErgodicity::refuted) continue;
          ASSERT_TRUE(bound.all_met()) << bound.met << " of 128 pairs met";
          const VectorD exact = exact_total_variation(rbm, rule, 1.0, start, bound.total_variation.size() - 1);
          ASSERT_NO_FATAL_FAILURE(expect_bound_above(bound, exact, options.pairs));
          ++checked;
        }
  }
  EXPECT_GT(checked, 1000);
}

// The same for the whole-sweep modified matrix (001 §3) of G and T, coupled through its dense rows, on the models of
// at most 10 units; a larger model is refused.
TEST(ConvergenceBound, ModifiedSweepBoundLiesAboveTheExactDistance) {
  int checked = 0;
  for (const auto& [name, rbm] : tiny_models()) {
    if (rbm.n_visible() + rbm.n_hidden() > max_modified_sweep_coupling_units) continue;
    for (const UnitRule& rule : {UnitRule{GibbsRule{}}, UnitRule{FlipTheStateRule{}}})
      for (const Eigen::Index lag : {1, 5, 20}) {
        ConvergenceBoundOptions options;
        options.rule = rule;
        options.modified_sweep = true;
        options.lag = lag;
        options.pairs = 128;
        options.max_sweeps = 4000;
        options.seed = static_cast<std::uint64_t>(checked) + 1;
        const StartDistribution start = parse_start_distribution("uniform");
        const ConvergenceBound bound = convergence_bound(rbm, start, options);
        SCOPED_TRACE(name + ", modified:" + to_string(rule) + ", L = " + std::to_string(lag));
        ASSERT_TRUE(bound.bound_available()) << bound.met << " of 128 pairs met, " << to_string(bound.ergodicity);
        const VectorD exact = exact_total_variation(rbm, rule, 1.0, start, bound.total_variation.size() - 1, true);
        ASSERT_NO_FATAL_FAILURE(expect_bound_above(bound, exact, options.pairs));
        ++checked;
      }
  }
  EXPECT_GT(checked, 200);
  ConvergenceBoundOptions options;
  options.modified_sweep = true;
  EXPECT_NE(testing::input_error_message([&] {
              convergence_bound(uniform_random_rbm(6, 5, 1.0, 1.0, 1), parse_start_distribution("uniform"), options);
            }).find("at most 10 units"),
            std::string::npos);
}

// Where exact mixing is fast the bound is not vacuous: for Gibbs with L = 20 on the random models, t_mix(1/4) read
// from the bound is within a few sweeps of the exact t_mix(1/4) (docs/algorithms/convergence-bounds.md §6.8 gives the
// ratios).
TEST(ConvergenceBound, BoundIsTightWhereMixingIsFast) {
  const std::vector<std::pair<std::string, Rbm>> models = tiny_models();
  for (std::size_t k = 0; k < 10; ++k) {
    const auto& [name, rbm] = models[k];
    ConvergenceBoundOptions options;
    options.lag = 20;
    options.pairs = 200;
    const StartDistribution start = parse_start_distribution("uniform");
    const ConvergenceBound bound = convergence_bound(rbm, start, options);
    ASSERT_TRUE(bound.bound_available()) << name;
    const VectorD exact = exact_total_variation(rbm, GibbsRule{}, 1.0, start, bound.total_variation.size() - 1);
    const Eigen::Index exact_time = first_time_within(exact, 0.25).value_or(exact.size());
    EXPECT_LE(*bound.mixing_time(0.25), 2 * exact_time + 2) << name << ": exact t_mix " << exact_time;
  }
}

// The numbers depend on the seed and the pair's index only: not on the thread count, and the first pairs of a larger
// run are those of a smaller one (64 pairs × 300 units: the coupled draws run in parallel).
TEST(ConvergenceBound, ThreadCountAndPairCountChangeNoNumber) {
  const Rbm rbm = uniform_random_rbm(300, 100, 0.05, 0.1, 7);
  const auto run = [&](Eigen::Index pairs, int threads) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    ConvergenceBoundOptions options;
    options.pairs = pairs;
    options.lag = 3;
    options.max_sweeps = 2000;
    const ConvergenceBound bound = convergence_bound(rbm, parse_start_distribution("uniform"), options);
    omp_set_num_threads(saved);
    return bound;
  };
  const ConvergenceBound one = run(64, 1), two = run(64, 2), few = run(8, 2);
  ASSERT_TRUE(one.all_met());
  EXPECT_EQ(one.meeting_times, two.meeting_times);
  EXPECT_EQ(one.total_variation, two.total_variation);
  EXPECT_EQ(one.wasserstein, two.wasserstein);
  EXPECT_TRUE(std::equal(few.meeting_times.begin(), few.meeting_times.end(), one.meeting_times.begin()));
}

// Coupled particle Metropolis on a path of 5 + 3 units (couplings up to ±3) with coarse proposals: `particles` each,
// one step per segment, one sweep at each, so that Ẑ spreads and the chains wait.
PathMetropolisBoundOptions coarse_path_metropolis(Eigen::Index pairs, Eigen::Index particles) {
  PathMetropolisBoundOptions options;
  options.coupling.pairs = pairs;
  options.coupling.max_sweeps = 400;
  options.proposals.particles = particles;
  options.proposals.steps = 3;
  options.proposals.sweeps_per_step = 1;
  return options;
}

// Coupled particle Metropolis along a path (5 + 3 units, couplings up to ±3, coarse proposals of 2 particles): every
// pair meets, and the bound + 3 standard errors lies above the distance of the chain's visible state from the last
// model's p(v) at every t. That distance is estimated from 20 000 independent chains; its estimate exceeds the truth
// by about the sampling floor ½ Σ_v √(2p(v)/(πn)) (0.014 here), so twice the floor is allowed on top.
TEST(PathMetropolisBound, BoundLiesAboveTheDistanceOfTheChainsSamples) {
  const ModelPath path = testing::small_trajectory_path(5, 3, 11, {1.0, 2.0, 3.0});
  const PathMetropolisBoundOptions options = coarse_path_metropolis(400, 2);
  const PathMetropolisBound result = path_metropolis_bound(path, options);
  ASSERT_TRUE(result.bound.bound_available()) << result.bound.met << " of 400 pairs met";
  EXPECT_GT(result.accepted, 0);
  EXPECT_LT(result.accepted, result.proposals - 400);  // some proposals are refused: the chains do wait

  const VectorD marginal = testing::visible_marginal(path.knots().back());
  const PathProposals proposals(path, options.proposals);
  constexpr int chains = 20000;
  const Eigen::Index times = result.bound.total_variation.size();
  MatrixD frequencies = MatrixD::Zero(times, marginal.size());
  for (int chain = 0; chain < chains; ++chain) {
    RandomStream stream(3, static_cast<std::uint64_t>(chain), StreamDomain::experiment);
    PathMetropolisState state = proposals.draw(stream);
    for (Eigen::Index t = 0; t < times; ++t) {
      if (t > 0) PathProposals::accept(state, proposals.draw(stream), stream.uniform());
      frequencies(t, static_cast<Eigen::Index>(testing::visible_state_index(state.visible))) += 1.0 / chains;
    }
  }
  const double floor = 0.5 * (2.0 * marginal.array() / (M_PI * chains)).sqrt().sum();
  for (Eigen::Index t = 0; t < times; ++t) {
    const double distance = 0.5 * (frequencies.row(t).transpose() - marginal).cwiseAbs().sum();
    EXPECT_LE(distance, result.bound.total_variation[t] + 3.0 * result.bound.total_variation_standard_error[t] +
                            2.0 * floor)
        << "t = " << t;
  }
}

// The mass check: log mean Ẑ of the proposals, formed without overflow, against the reference; a gap beyond the
// allowed one fails and says why with both values; a NaN reference or a negative allowance is refused.
TEST(PathMetropolisBound, MassCheckComparesTheProposalsMeanZWithTheReference) {
  const std::vector<double> log_values{1000.0, 1001.0, 999.0};
  const double log_mean = 1001.0 + std::log((1.0 + std::exp(-1.0) + std::exp(-2.0)) / 3.0);  // 1000.31
  const ProposalMassCheck far = check_proposal_mass(log_values, 1010.0, "exact", 2.0);
  EXPECT_NEAR(far.proposals_log_partition, log_mean, 1e-12);
  EXPECT_NEAR(far.gap(), 1010.0 - log_mean, 1e-12);
  EXPECT_FALSE(far.passed());
  EXPECT_THAT(far.failure(),
              ::testing::AllOf(::testing::HasSubstr("log Z = 1000.31"), ::testing::HasSubstr("exact gives 1010.00"),
                               ::testing::HasSubstr("9.7 nats more")));
  EXPECT_TRUE(check_proposal_mass(log_values, 1001.0, "exact", 2.0).passed());  // 0.69 nats
  EXPECT_TRUE(check_proposal_mass(log_values, 990.0, "exact", 2.0).passed());   // the proposals above the reference
  EXPECT_FALSE(check_proposal_mass(log_values, 1001.0, "exact", 0.5).passed());
  EXPECT_THROW(check_proposal_mass(log_values, std::nan(""), "exact", 2.0), InputError);
  EXPECT_THROW(check_proposal_mass(log_values, 1000.0, "exact", -1.0), InputError);
  EXPECT_THROW(check_proposal_mass({}, 1000.0, "exact", 2.0), InputError);
}

// On a tiny path the check compares with the exact log Z of the last model and passes; held to no gap at all it
// fails on this seed (the proposals' mean Ẑ lies below Z), and the bound is withheld with the reason, its curves
// empty; infinity turns the check off.
TEST(PathMetropolisBound, AFailedMassCheckWithholdsTheBound) {
  const ModelPath path = testing::small_trajectory_path(5, 3, 11, {1.0, 2.0, 3.0});
  PathMetropolisBoundOptions options = coarse_path_metropolis(40, 1);
  options.coupling.seed = 2;
  const PathMetropolisBound checked = path_metropolis_bound(path, options);
  ASSERT_TRUE(checked.bound.all_met());
  ASSERT_TRUE(checked.mass_check.performed());
  EXPECT_EQ(checked.mass_check.reference, "exact");
  EXPECT_DOUBLE_EQ(checked.mass_check.reference_log_partition, exact_log_partition(path.knots().back()));
  EXPECT_TRUE(checked.mass_check.passed()) << checked.mass_check.gap();
  EXPECT_TRUE(checked.bound.bound_available());

  options.allowed_mass_gap = 0.0;
  const PathMetropolisBound strict = path_metropolis_bound(path, options);
  ASSERT_GT(strict.mass_check.gap(), 0.0);
  EXPECT_FALSE(strict.mass_check.passed());
  EXPECT_FALSE(strict.bound.bound_available());
  EXPECT_THAT(strict.bound.withheld, ::testing::HasSubstr("the proposals' mean Z-hat gives log Z"));
  EXPECT_EQ(strict.bound.total_variation.size(), 0);
  EXPECT_EQ(strict.bound.meeting_times, checked.bound.meeting_times);  // the same run, judged otherwise

  options.allowed_mass_gap = std::numeric_limits<double>::infinity();
  const PathMetropolisBound unchecked = path_metropolis_bound(path, options);
  EXPECT_FALSE(unchecked.mass_check.performed());
  EXPECT_TRUE(unchecked.bound.bound_available());
}

TEST(ConvergenceBound, OptionsRefuseWhatTheyCannotUse) {
  const auto refusal = [](auto change) {
    ConvergenceBoundOptions options;
    change(options);
    return testing::input_error_message([&] { options.validate(); });
  };
  EXPECT_NE(refusal([](auto& o) { o.lag = 0; }).find("--lag"), std::string::npos);
  EXPECT_NE(refusal([](auto& o) { o.pairs = 1; }).find("--pairs"), std::string::npos);
  EXPECT_NE(refusal([](auto& o) { o.max_sweeps = o.lag; }).find("--max-sweeps"), std::string::npos);
  EXPECT_NE(refusal([](auto& o) { o.inverse_temperature = -1.0; }), "");
  EXPECT_NE(refusal([](auto& o) { o.maximal_coupling_distance = -2; }).find("--maximal-within"), std::string::npos);
}

}  // namespace
}  // namespace rbmix::analysis
