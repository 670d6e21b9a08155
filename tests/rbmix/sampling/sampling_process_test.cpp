#include "rbmix/sampling/sampling_process.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/training/test_models.hpp"
#include "rbmix/verify/chi_squared.hpp"
#include "support/brute_force.hpp"
#include "support/tied_rbm.hpp"

namespace rbmix {
namespace {

constexpr std::uint64_t kSeed = 20110131;

BinaryMatrix random_data(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  return testing::random_binary_rows(rows, cols, seed).cast<std::uint8_t>();
}

SamplerSettings stochastic(SamplerKind kind, const std::string& rule, Eigen::Index k, double epsilon, double alpha) {
  SamplerSettings settings;
  settings.kind = kind;
  settings.rule = parse_unit_rule(rule);
  settings.sweeps_per_sample = k;
  settings.fast_learning_rate = epsilon;
  settings.fast_decay = alpha;
  return settings;
}

// The same chains driven directly: chain c is a one-chain BatchedChains on stream c, k sweeps per sample, and the
// grey level E[x | E[h | x]].
EmittedSamples plain_chains(const Rbm& rbm, const UnitRule& rule, const BinaryMatrix& starts, Eigen::Index k,
                            Eigen::Index samples) {
  const Eigen::Index chains = starts.rows();
  EmittedSamples out{BinaryMatrix(samples * chains, rbm.n_visible()), MatrixF(samples * chains, rbm.n_visible())};
  for (Eigen::Index chain = 0; chain < chains; ++chain) {
    BatchedChains<double> plain(1, rbm.n_visible(), rbm.n_hidden(), kSeed, static_cast<std::uint64_t>(chain));
    plain.set_visible(starts.row(chain));
    for (Eigen::Index sample = 0; sample < samples; ++sample) {
      for (Eigen::Index sweep = 0; sweep < k; ++sweep) plain.sweep(rbm, rule);
      out.binary.row(sample * chains + chain) = plain.visible().cast<std::uint8_t>();
      out.grey.row(sample * chains + chain) =
          rbm.visible_probabilities(rbm.hidden_probabilities(plain.visible())).cast<float>();
    }
  }
  return out;
}

TEST(SamplingProcess, ZeroFastStepIsExactlyThePlainSampler) {
  const Rbm rbm = testing::random_rbm(6, 4, 2.0, 11);
  const BinaryMatrix starts = random_data(5, 6, 12);
  for (const std::string rule : {"gibbs", "flip"}) {
    const EmittedSamples plain = plain_chains(rbm, parse_unit_rule(rule), starts, 3, 40);
    for (const SamplerKind kind : {SamplerKind::gibbs, SamplerKind::rates_fpcd, SamplerKind::sample_penalization}) {
      std::optional<SufficientStatistics> rates;
      if (needs_rates(kind)) rates = compute_rates(rbm, random_data(50, 6, 13), "data");
      SamplingProcess process(rbm, stochastic(kind, rule, 3, 0.0, 0.9), rates, 5, kSeed);
      process.set_visible(starts);
      const EmittedSamples samples = process.run(40);
      EXPECT_EQ(samples.binary, plain.binary) << rule << " " << to_string(kind);
      EXPECT_EQ(samples.grey, plain.grey) << rule << " " << to_string(kind);
      if (has_fast_parameters(kind)) {
        EXPECT_TRUE(process.fast_parameters(4).weights.isZero());
        EXPECT_EQ(process.sampling_parameters(4).weights, rbm.weights);
      }
    }
  }
}

TEST(SamplingProcess, SameNumbersWhateverTheThreadCount) {
  // 64 chains × 2 layer passes × 64 × 32 units: enough work per sample for the chains to be split between threads.
  const Rbm rbm = testing::random_rbm(64, 32, 0.5, 21);
  const SufficientStatistics rates = compute_rates(rbm, random_data(40, 64, 22), "data");
  SamplerSettings herding;
  herding.kind = SamplerKind::herding;
  herding.fast_learning_rate = kHerdingLearningRate;
  for (const SamplerSettings& settings : {stochastic(SamplerKind::rates_fpcd, "flip", 1, 0.05, 1.0), herding}) {
    std::vector<EmittedSamples> runs;
    for (const int threads : {1, 2, 3}) {
      omp_set_num_threads(threads);
      SamplingProcess process(rbm, settings, rates, 64, kSeed, 100);
      runs.push_back(process.run(10));
    }
    for (const auto& run : runs) {
      EXPECT_EQ(run.binary, runs[0].binary);
      EXPECT_EQ(run.grey, runs[0].grey);
    }
  }
}

// The visible part of the fast update from the emitted samples alone: b_F ← α b_F + ε_F (R_b − x_t).
TEST(SamplingProcess, FastVisibleBiasFollowsTheEmittedSamples) {
  const Rbm rbm = testing::random_rbm(6, 4, 2.0, 31);
  const SufficientStatistics rates = compute_rates(rbm, random_data(60, 6, 32), "data");
  const double epsilon = 0.03, alpha = 0.9;
  SamplingProcess process(rbm, stochastic(SamplerKind::rates_fpcd, "gibbs", 1, epsilon, alpha), rates, 3, kSeed);
  const EmittedSamples samples = process.run(200);
  for (Eigen::Index chain = 0; chain < 3; ++chain) {
    VectorD fast_visible = VectorD::Zero(6);
    for (Eigen::Index t = 0; t < 200; ++t)
      fast_visible = alpha * fast_visible +
                     epsilon * (rates.visible - samples.binary.row(t * 3 + chain).cast<double>().transpose());
    EXPECT_LT((process.fast_parameters(chain).visible - fast_visible).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((process.sampling_parameters(chain).visible_bias - rbm.visible_bias - fast_visible).cwiseAbs().maxCoeff(),
              1e-12);
  }
}

// χ² against the exact rows (the loop of docs/algorithms/operators.md §2): with θ_F frozen at 0 (ε_F = 0) the first
// sample of a chain started at (x₀, h = 0) is the visible part of a draw from row (x₀, 0) of K^k. One test per (rule,
// start), Bonferroni-corrected: a correct sampler fails with probability ≤ kFalseFailureRate.
constexpr double kFalseFailureRate = 1e-6;
constexpr Eigen::Index kChainsPerStart = 5000;

TEST(SamplingProcess, FrozenFastParametersGiveTheExactRowsOfK) {
  const Rbm rbm = testing::tied_rbm();
  const analysis::JointStateSpace space(rbm);
  const Eigen::Index visible_states = 8, k = 2;
  const std::vector<std::string> rules{"gibbs", "flip"};
  const double threshold = kFalseFailureRate / static_cast<double>(rules.size() * visible_states);
  BinaryMatrix starts(visible_states * kChainsPerStart, 3);
  for (Eigen::Index start = 0; start < visible_states; ++start)
    starts.middleRows(start * kChainsPerStart, kChainsPerStart).rowwise() =
        analysis::JointStateSpace::bits(static_cast<std::uint64_t>(start), 3).transpose().cast<std::uint8_t>();
  const SufficientStatistics rates = compute_rates(rbm, random_data(20, 3, 41), "data");
  for (std::size_t r = 0; r < rules.size(); ++r) {
    const MatrixD sweep = analysis::sweep_transition_matrix(rbm, parse_unit_rule(rules[r]));
    const MatrixD k_sweeps = sweep * sweep;
    SamplingProcess process(rbm, stochastic(SamplerKind::rates_fpcd, rules[r], k, 0.0, 1.0), rates, starts.rows(),
                            kSeed, r * static_cast<std::uint64_t>(starts.rows()));
    process.set_visible(starts);
    const EmittedSamples samples = process.run(1);
    for (Eigen::Index start = 0; start < visible_states; ++start) {
      std::vector<std::uint64_t> counts(visible_states, 0);
      for (Eigen::Index chain = 0; chain < kChainsPerStart; ++chain) {
        const auto row = samples.binary.row(start * kChainsPerStart + chain);
        ++counts[static_cast<std::size_t>(row[0] + 2 * row[1] + 4 * row[2])];
      }
      VectorD exact = VectorD::Zero(visible_states);
      const auto from = static_cast<Eigen::Index>(space.index(static_cast<std::uint64_t>(start), 0));
      for (Eigen::Index to = 0; to < k_sweeps.cols(); ++to)
        exact[static_cast<Eigen::Index>(space.visible_part(static_cast<std::uint64_t>(to)))] += k_sweeps(from, to);
      EXPECT_GT(verify::chi_squared_p_value(counts, exact), threshold) << rules[r] << " from " << start;
    }
  }
}

// Total variation distance between the empirical distribution of visible states in rows [first, end) of `binary`
// and `target` (indexed v = Σ_j v_j 2^j).
double total_variation(const BinaryMatrix& binary, Eigen::Index first, const VectorD& target) {
  VectorD empirical = VectorD::Zero(target.size());
  for (Eigen::Index row = first; row < binary.rows(); ++row) {
    Eigen::Index state = 0;
    for (Eigen::Index j = 0; j < binary.cols(); ++j) state += Eigen::Index{binary(row, j)} << j;
    empirical[state] += 1.0;
  }
  empirical /= static_cast<double>(binary.rows() - first);
  return 0.5 * (empirical - target).cwiseAbs().sum();
}

// Sample penalization (R = 0) subtracts ε_F s(x, h) = ε_F (h xᵀ, x, h) after every sample. With α = 1 these
// penalties pile up on the units that were on and never on those that were off, so the fast biases and weights
// only decrease: the chain leaves the model and collapses onto the all-off state (whose s is zero), with the mean
// activity falling like 1/(ε_F t). 001 §4 says it converges to the uniform distribution; on 0/1 units it does not
// (measured below, window t ∈ [1000, 3000) of 100 chains, ε_F = 0.1: TV to the all-off state 0.03, mean
// activity 0.008, TV to the model 0.96 although the model starts 0.60 from uniform). A decay α = 0.9 keeps the
// samples near the model (TV 0.13).
TEST(SamplingProcess, SamplePenalizationWithoutDecayCollapsesOntoTheAllOffState) {
  const Rbm rbm = testing::random_rbm(4, 3, 4.0, 51);
  const VectorD model = testing::brute_force_visible_marginal(rbm);
  const VectorD uniform = VectorD::Constant(16, 1.0 / 16.0);
  VectorD all_off = VectorD::Zero(16);
  all_off[0] = 1.0;
  constexpr Eigen::Index chains = 100, samples = 3000, late = 1000;
  const auto late_rows = [&](double alpha) {
    SamplingProcess process(rbm, stochastic(SamplerKind::sample_penalization, "gibbs", 1, 0.1, alpha), std::nullopt,
                            chains, kSeed);
    const EmittedSamples emitted = process.run(samples);
    return BinaryMatrix(emitted.binary.bottomRows((samples - late) * chains));
  };
  const BinaryMatrix without_decay = late_rows(1.0);
  const BinaryMatrix with_decay = late_rows(0.9);
  // Measured (fixed seed): 0.023, 0.98 and 0.0057 without decay; 0.13 and 0.98 with α = 0.9. The bounds leave a
  // margin of about 4× so that another seed would pass as well.
  EXPECT_GT(0.5 * (model - uniform).cwiseAbs().sum(), 0.5);  // the model itself is far from uniform
  EXPECT_LT(total_variation(without_decay, 0, all_off), 0.1);
  EXPECT_GT(total_variation(without_decay, 0, model), 0.9);
  EXPECT_LT(without_decay.cast<double>().mean(), 0.03);
  EXPECT_LT(total_variation(with_decay, 0, model), 0.25);
  EXPECT_GT(total_variation(with_decay, 0, all_off), 0.9);
}

TEST(SamplingProcess, HerdingReportsItsFixedPointSearchesAndTheCap) {
  const Rbm rbm = testing::random_rbm(10, 6, 3.0, 61);
  const SufficientStatistics rates = compute_rates(rbm, random_data(100, 10, 62), "data");
  SamplerSettings settings;
  settings.kind = SamplerKind::herding;
  settings.fast_learning_rate = kHerdingLearningRate;
  SamplingProcess process(rbm, settings, rates, 4, kSeed);
  const EmittedSamples samples = process.run(2000);
  EXPECT_EQ(process.fixed_points().searches, 8000);
  EXPECT_EQ(process.fixed_points().cap_hits, 0);
  EXPECT_EQ(samples.grey, samples.binary.cast<float>());
  // Herding matches the rates' visible statistics at rate O(1/T): mean x − R_b = −b_F / T.
  const VectorD mean = samples.binary.cast<double>().colwise().mean().transpose();
  // Measured: 0.0014 after 2000 samples per chain (|b_F| stays below 3 or so).
  EXPECT_LT((mean - rates.visible).cwiseAbs().maxCoeff(), 0.01);

  settings.fixed_point_cap = 1;
  SamplingProcess capped(rbm, settings, rates, 4, kSeed);
  capped.run(50);
  EXPECT_EQ(capped.fixed_points().searches, 200);
  EXPECT_GT(capped.fixed_points().cap_hits, 0);
  EXPECT_EQ(capped.fixed_points().iterations, 200);
}

TEST(SamplingProcess, RefusesBadSettingsRatesAndStarts) {
  const Rbm rbm = testing::random_rbm(4, 3, 1.0, 71);
  const SufficientStatistics rates = compute_rates(rbm, random_data(10, 4, 72), "data");
  const auto make = [&](const SamplerSettings& settings, std::optional<SufficientStatistics> given) {
    SamplingProcess process(rbm, settings, std::move(given), 2, kSeed);
  };
  EXPECT_THROW(make(stochastic(SamplerKind::rates_fpcd, "gibbs", 0, 0.1, 1.0), rates), InputError);
  EXPECT_THROW(make(stochastic(SamplerKind::rates_fpcd, "gibbs", 1, std::nan(""), 1.0), rates), InputError);
  EXPECT_THROW(make(stochastic(SamplerKind::rates_fpcd, "gibbs", 1, -0.1, 1.0), rates), InputError);
  EXPECT_THROW(make(stochastic(SamplerKind::rates_fpcd, "gibbs", 1, 0.1, 1.5), rates), InputError);
  EXPECT_THROW(make(stochastic(SamplerKind::rates_fpcd, "gibbs", 1, 0.1, std::nan("")), rates), InputError);
  EXPECT_THROW(make(stochastic(SamplerKind::gibbs, "gibbs", 1, 0.1, 1.0), std::nullopt), InputError);
  EXPECT_THROW(make(stochastic(SamplerKind::herding, "gibbs", 1, 0.5, 1.0), rates), InputError);
  EXPECT_THROW(make(stochastic(SamplerKind::rates_fpcd, "gibbs", 1, 0.1, 1.0), std::nullopt), InputError);
  EXPECT_THROW(make(stochastic(SamplerKind::gibbs, "gibbs", 1, 0.0, 1.0), rates), InputError);
  EXPECT_THROW(make(stochastic(SamplerKind::sample_penalization, "gibbs", 1, 0.1, 0.9), rates), InputError);
  SufficientStatistics wrong = rates;
  wrong.visible = VectorD::Zero(5);
  EXPECT_THROW(make(stochastic(SamplerKind::rates_fpcd, "gibbs", 1, 0.1, 1.0), wrong), InputError);
  SufficientStatistics nan = rates;
  nan.weights(0, 0) = std::nan("");
  EXPECT_THROW(make(stochastic(SamplerKind::rates_fpcd, "gibbs", 1, 0.1, 1.0), nan), InputError);
  EXPECT_THROW(SamplingProcess(rbm, SamplerSettings{}, std::nullopt, 0, kSeed), InputError);
  SamplingProcess process(rbm, SamplerSettings{}, std::nullopt, 2, kSeed);
  EXPECT_THROW(process.set_visible(random_data(3, 4, 1)), InputError);
  BinaryMatrix two = random_data(2, 4, 1);
  two(0, 0) = 2;
  EXPECT_THROW(process.set_visible(two), InputError);
  EXPECT_THROW(parse_sampler_kind("metropolis"), InputError);
  for (const auto kind : {SamplerKind::gibbs, SamplerKind::rates_fpcd, SamplerKind::rates_herding, SamplerKind::herding,
                          SamplerKind::sample_penalization})
    EXPECT_EQ(parse_sampler_kind(to_string(kind)), kind);
}

}  // namespace
}  // namespace rbmix
