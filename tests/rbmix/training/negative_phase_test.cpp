#include "rbmix/training/negative_phase.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include "rbmix/model/exact.hpp"
#include "rbmix/training/test_models.hpp"
#include "support/test_names.hpp"

namespace rbmix {
namespace {

// Every statistic is a mean over `chains` independent chains of a quantity in [0, 1], so its standard deviation
// is at most 0.5/√chains = 0.0079 for 4 000 chains. A bound of 6 standard deviations on each of the
// 5·4 + 5 + 4 = 29 statistics fails by chance with probability below 29 · 2e-9 < 1e-7 per case (Bonferroni),
// provided the chains have mixed: the burn-in of 60 sweeps on a 5×4 model with |W| ≤ 1 leaves a bias far below it.
constexpr Eigen::Index kChains = 4000;
constexpr double kStatisticalTolerance = 6 * 0.5 / 63.2;
constexpr int kBurnInCalls = 60;

double largest_difference(const Statistics& a, const Statistics& b) {
  return std::max({(a.hidden_visible - b.hidden_visible).cwiseAbs().maxCoeff(),
                   (a.visible - b.visible).cwiseAbs().maxCoeff(), (a.hidden - b.hidden).cwiseAbs().maxCoeff()});
}

// The statistics of a negative phase in Scalar after `calls` calls at `rbm`, started on `batch`, in double.
template <typename Scalar>
Statistics statistics_after_calls(const TrainingOptions& options, const Rbm& rbm, const MatrixD& batch, int calls) {
  auto phase = make_negative_phase<Scalar>(options, rbm.n_visible(), rbm.n_hidden(), batch.rows());
  const BasicRbm<Scalar> model = rbm.cast<Scalar>();
  const Matrix<Scalar> states = batch.cast<Scalar>();
  phase->start_batch(states, model.hidden_probabilities(states));
  for (int call = 1; call < calls; ++call) phase->statistics(model);
  const BasicStatistics<Scalar>& last = phase->statistics(model);
  return {last.hidden_visible.template cast<double>(), last.visible.template cast<double>(),
          last.hidden.template cast<double>()};
}

struct SamplingCase {
  Algorithm algorithm;
  const char* rule;
  bool in_float;
};

class SampledNegativePhase : public ::testing::TestWithParam<SamplingCase> {};

// After burn-in, the chains of every sampling negative phase (any rule, double or float) are distributed as p_θ,
// so their statistics match the exact model statistics. CD-k starts at the data and is tested with k = 200.
TEST_P(SampledNegativePhase, AgreesWithExactModelStatisticsAfterBurnIn) {
  const SamplingCase& sampling = GetParam();
  const Rbm rbm = testing::random_rbm(5, 4, 1.0, 11);
  const MatrixD batch = testing::random_binary_rows(kChains, 5, 12);
  TrainingOptions options;
  apply_algorithm(options, sampling.algorithm);
  options.rule = parse_unit_rule(sampling.rule);
  options.sample_in_float = sampling.in_float;
  options.replicas = 3;
  options.fast_learning_rate = 0.0;  // FPCD with ε_F = 0 samples θ itself
  const bool restarts = sampling.algorithm == Algorithm::cd;
  options.sampling_steps = restarts ? kBurnInCalls : 1;
  const int calls = restarts ? 1 : kBurnInCalls;
  const Statistics negative = sampling.in_float ? statistics_after_calls<float>(options, rbm, batch, calls)
                                                : statistics_after_calls<double>(options, rbm, batch, calls);
  EXPECT_LT(largest_difference(negative, exact_model_statistics(rbm)), kStatisticalTolerance);
}

INSTANTIATE_TEST_SUITE_P(
    EveryAlgorithmAndRule, SampledNegativePhase,
    ::testing::Values(SamplingCase{Algorithm::cd, "gibbs", false}, SamplingCase{Algorithm::cd, "flip", false},
                      SamplingCase{Algorithm::pcd, "gibbs", false}, SamplingCase{Algorithm::pcd, "flip", false},
                      SamplingCase{Algorithm::pcd, "mix:0.5", false}, SamplingCase{Algorithm::pcd, "flip", true},
                      SamplingCase{Algorithm::fpcd, "gibbs", false}, SamplingCase{Algorithm::pt, "gibbs", false},
                      SamplingCase{Algorithm::pt, "flip", false}, SamplingCase{Algorithm::pt, "gibbs", true}),
    [](const auto& info) {
      return testing::test_name(to_string(info.param.algorithm) + "_" + info.param.rule +
                                (info.param.in_float ? "_float" : ""));
    });

// A strongly coupled model whose Gibbs chains barely move between its modes: parallel tempering still
// reproduces the exact statistics (the β = 0 replica feeds fresh states down the ladder).
TEST(ParallelTemperingNegativePhase, ReachesExactStatisticsOnABimodalModel) {
  Rbm rbm(4, 4);
  rbm.weights.setConstant(2.0);
  rbm.visible_bias.setConstant(-4.0);
  rbm.hidden_bias.setConstant(-4.0);
  TrainingOptions options;
  apply_algorithm(options, Algorithm::pt);
  options.replicas = 6;
  const MatrixD batch = MatrixD::Zero(kChains, 4);  // every chain starts in the "all off" mode
  auto phase = make_negative_phase<double>(options, 4, 4, kChains);
  phase->start_batch(batch, rbm.hidden_probabilities(batch));
  Statistics negative;
  for (int call = 0; call < kBurnInCalls; ++call) negative = phase->statistics(rbm);
  EXPECT_LT(largest_difference(negative, exact_model_statistics(rbm)), kStatisticalTolerance);
}

// The state a tempering phase in Scalar reaches after `calls` calls at `rbm` from `batch` (every replica's chains
// and streams and the swap streams, as a checkpoint stores them), by the replica-parallel path or the serial one,
// with a team of `threads`.
template <typename Scalar>
std::string tempering_state_after_calls(const TrainingOptions& options, const Rbm& rbm, const MatrixD& batch, int calls,
                                        bool replica_parallel, int threads) {
  const int team = omp_get_max_threads();
  omp_set_num_threads(threads);
  auto phase = make_negative_phase<Scalar>(options, rbm.n_visible(), rbm.n_hidden(), batch.rows(),
                                           {.replica_parallel_tempering = replica_parallel});
  const BasicRbm<Scalar> model = rbm.cast<Scalar>();
  const Matrix<Scalar> states = batch.cast<Scalar>();
  phase->start_batch(states, model.hidden_probabilities(states));
  BinaryWriter writer;
  for (int call = 0; call < calls; ++call) {
    const BasicStatistics<Scalar>& statistics = phase->statistics(model);
    writer.write_matrix(statistics.hidden_visible);
  }
  phase->save(writer);
  omp_set_num_threads(team);
  return writer.bytes();
}

// The replica-parallel path (each replica's sweeps whole on one thread, no product at β = 0) moves the chains
// through the same states as the serial path it replaced, with a team of one or two threads, for every rule, in
// double and float: the statistics of every call and the final state are the same bytes. The model is large enough
// (40 chains × 60 × 30) that the products are not tiny, and its biases spread the replicas' shares of ones across
// the 0/1 product's thresholds, so both product paths run.
TEST(ParallelTemperingNegativePhase, ReplicaParallelPathIsTheSerialPathBitForBit) {
  Rbm rbm = testing::random_rbm(60, 30, 1.0, 21);
  rbm.visible_bias.array() -= 1.5;
  const MatrixD batch = testing::random_binary_rows(40, 60, 22);
  TrainingOptions options;
  apply_algorithm(options, Algorithm::pt);
  options.replicas = 5;
  options.sampling_steps = 3;
  for (const char* rule : {"gibbs", "flip", "naive", "mix:0.3", "unit-modified:0.5"}) {
    options.rule = parse_unit_rule(rule);
    const std::string serial = tempering_state_after_calls<double>(options, rbm, batch, 4, false, 1);
    // Compared as a whole (EXPECT_TRUE): a failure names the rule, not thousands of bytes.
    EXPECT_TRUE(tempering_state_after_calls<double>(options, rbm, batch, 4, true, 1) == serial) << rule;
    EXPECT_TRUE(tempering_state_after_calls<double>(options, rbm, batch, 4, true, 2) == serial) << rule;
    const std::string serial_float = tempering_state_after_calls<float>(options, rbm, batch, 4, false, 1);
    EXPECT_TRUE(tempering_state_after_calls<float>(options, rbm, batch, 4, true, 2) == serial_float) << rule;
  }
}

TEST(ExactNegativePhase, IsTheExactModelStatistics) {
  const Rbm rbm = testing::random_rbm(6, 3, 2.0, 3);
  TrainingOptions options;
  apply_algorithm(options, Algorithm::exact);
  auto phase = make_negative_phase<double>(options, 6, 3, 4);
  const Statistics expected = exact_model_statistics(rbm);
  EXPECT_EQ(largest_difference(phase->statistics(rbm), expected), 0.0);
}

// MF-CD against its closed form written unit by unit (000 §2.2): h⁰_i = σ(c_i + Σ_j W_ij v_j),
// v¹_j = σ(b_j + Σ_i W_ij h⁰_i), h¹_i = σ(c_i + Σ_j W_ij v¹_j).
TEST(MeanFieldNegativePhase, EqualsTheClosedForm) {
  const Rbm rbm = testing::random_rbm(5, 3, 1.5, 5);
  const MatrixD batch = testing::random_binary_rows(7, 5, 6);
  TrainingOptions options;
  apply_algorithm(options, Algorithm::mfcd);
  auto phase = make_negative_phase<double>(options, 5, 3, 7);
  phase->start_batch(batch, rbm.hidden_probabilities(batch));
  const Statistics statistics = phase->statistics(rbm);

  auto sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  Statistics expected{MatrixD::Zero(3, 5), VectorD::Zero(5), VectorD::Zero(3)};
  for (Eigen::Index row = 0; row < 7; ++row) {
    VectorD h0(3), v1(5), h1(3);
    for (int i = 0; i < 3; ++i) {
      double x = rbm.hidden_bias[i];
      for (int j = 0; j < 5; ++j) x += rbm.weights(i, j) * batch(row, j);
      h0[i] = sigmoid(x);
    }
    for (int j = 0; j < 5; ++j) {
      double x = rbm.visible_bias[j];
      for (int i = 0; i < 3; ++i) x += rbm.weights(i, j) * h0[i];
      v1[j] = sigmoid(x);
    }
    for (int i = 0; i < 3; ++i) {
      double x = rbm.hidden_bias[i];
      for (int j = 0; j < 5; ++j) x += rbm.weights(i, j) * v1[j];
      h1[i] = sigmoid(x);
    }
    expected.hidden_visible += h1 * v1.transpose() / 7.0;
    expected.visible += v1 / 7.0;
    expected.hidden += h1 / 7.0;
  }
  // Same arithmetic in a different order: rounding only.
  EXPECT_LT(largest_difference(statistics, expected), 1e-14);
}

// FPCD's chains sample θ + θ_F: with ε_F = 0 the fast weights stay 0 and FPCD is PCD, number for number; with
// ε_F > 0 the fast weights learn from the gradient and steer the chains elsewhere.
TEST(FastPersistentNegativePhase, IsPersistentWhenTheFastRateIsZeroAndDiffersOtherwise) {
  const Rbm rbm = testing::random_rbm(5, 4, 1.0, 21);
  const MatrixD batch = testing::random_binary_rows(50, 5, 22);
  Rbm gradient = testing::random_rbm(5, 4, 1.0, 23);
  auto statistics_after_steps = [&](Algorithm algorithm, double fast_rate) {
    TrainingOptions options;
    apply_algorithm(options, algorithm);
    options.fast_learning_rate = fast_rate;
    auto phase = make_negative_phase<double>(options, 5, 4, 50);
    phase->start_batch(batch, rbm.hidden_probabilities(batch));
    Statistics statistics;
    for (int call = 0; call < 5; ++call) {
      statistics = phase->statistics(rbm);
      phase->after_step(gradient);
    }
    return statistics;
  };
  const Statistics persistent = statistics_after_steps(Algorithm::pcd, 0.0);
  EXPECT_EQ(largest_difference(statistics_after_steps(Algorithm::fpcd, 0.0), persistent), 0.0);
  EXPECT_GT(largest_difference(statistics_after_steps(Algorithm::fpcd, 1.0), persistent), 0.0);
}

// FPCD's fast weights after two steps with the same gradient g are θ_F = α ε_F g + ε_F g (001 §2: θ_F ← α θ_F +
// ε_F g from θ_F = 0). Its chains then sample θ + θ_F: a PCD phase with the same seed, handed θ, θ + ε_F g and
// θ + α ε_F g + ε_F g on its three calls, moves its chains through the same states number for number, so the
// visible statistics agree exactly. Taking α = 1 (ignoring the decay) samples θ + 2 ε_F g on the third call instead,
// which moves some of the 50 chains elsewhere.
TEST(FastPersistentNegativePhase, FastWeightsDecayByAlphaBetweenSteps) {
  const Rbm rbm = testing::random_rbm(5, 4, 1.0, 31);
  const MatrixD batch = testing::random_binary_rows(50, 5, 32);
  const Rbm gradient = testing::random_rbm(5, 4, 1.0, 33);
  constexpr double fast_rate = 0.7;
  constexpr double decay = 0.5;
  TrainingOptions fast;
  apply_algorithm(fast, Algorithm::fpcd);
  fast.fast_learning_rate = fast_rate;
  fast.fast_weight_decay = decay;
  TrainingOptions persistent;
  apply_algorithm(persistent, Algorithm::pcd);
  auto fast_phase = make_negative_phase<double>(fast, 5, 4, 50);
  auto persistent_phase = make_negative_phase<double>(persistent, 5, 4, 50);
  fast_phase->start_batch(batch, rbm.hidden_probabilities(batch));
  persistent_phase->start_batch(batch, rbm.hidden_probabilities(batch));

  const auto shifted = [&](const Rbm& fast_weights) {
    Rbm sum = rbm;
    sum.weights = rbm.weights + fast_weights.weights;
    sum.visible_bias = rbm.visible_bias + fast_weights.visible_bias;
    sum.hidden_bias = rbm.hidden_bias + fast_weights.hidden_bias;
    return sum;
  };
  Rbm after_one = gradient;
  after_one.weights = fast_rate * gradient.weights;
  after_one.visible_bias = fast_rate * gradient.visible_bias;
  after_one.hidden_bias = fast_rate * gradient.hidden_bias;
  Rbm after_two = gradient;
  after_two.weights = decay * after_one.weights + fast_rate * gradient.weights;
  after_two.visible_bias = decay * after_one.visible_bias + fast_rate * gradient.visible_bias;
  after_two.hidden_bias = decay * after_one.hidden_bias + fast_rate * gradient.hidden_bias;

  for (const Rbm& sampled : {rbm, shifted(after_one), shifted(after_two)}) {
    const Statistics expected = persistent_phase->statistics(sampled);
    const Statistics actual = fast_phase->statistics(rbm);
    EXPECT_EQ(actual.visible, expected.visible);
    fast_phase->after_step(gradient);
  }
}

// CD-1 from one data vector v⁰ against its exact expectation for any rule: the chain starts at (v⁰, h_start) with
// h_start ~ p(h|v⁰), the sweep draws h⁰ by the rule from h_start, then v¹ by the rule from v⁰, and the statistics
// are those of (v¹, σ(c + W v¹)). Enumerating h_start, h⁰ and v¹ gives the expectation exactly.
Statistics exact_cd1_expectation(const Rbm& rbm, const UnitRule& rule, const VectorD& start) {
  const Eigen::Index m = rbm.n_visible(), n = rbm.n_hidden();
  auto bits = [](std::uint64_t index, Eigen::Index units) {
    VectorD out(units);
    for (Eigen::Index k = 0; k < units; ++k) out[k] = static_cast<double>((index >> k) & 1U);
    return out;
  };
  auto layer_probability = [&](const VectorD& inputs, const VectorD& current, const VectorD& next, bool gibbs) {
    double p = 1.0;
    for (Eigen::Index k = 0; k < inputs.size(); ++k) {
      const double one = gibbs ? probability_of_one(UnitRule{GibbsRule{}}, inputs[k], current[k])
                               : probability_of_one(rule, inputs[k], current[k]);
      p *= next[k] == 1.0 ? one : 1.0 - one;
    }
    return p;
  };
  Statistics expected{MatrixD::Zero(n, m), VectorD::Zero(m), VectorD::Zero(n)};
  const VectorD hidden_inputs = rbm.hidden_bias + rbm.weights * start;
  for (std::uint64_t a = 0; a < (1U << n); ++a) {
    const VectorD h_start = bits(a, n);
    const double p_start = layer_probability(hidden_inputs, h_start, h_start, true);
    for (std::uint64_t b = 0; b < (1U << n); ++b) {
      const VectorD h0 = bits(b, n);
      const double p_h0 = p_start * layer_probability(hidden_inputs, h_start, h0, false);
      const VectorD visible_inputs = rbm.visible_bias + rbm.weights.transpose() * h0;
      for (std::uint64_t c = 0; c < (1U << m); ++c) {
        const VectorD v1 = bits(c, m);
        const double p = p_h0 * layer_probability(visible_inputs, start, v1, false);
        const VectorD h1 = logistic_array((rbm.hidden_bias + rbm.weights * v1).array()).matrix();
        expected.hidden_visible += p * h1 * v1.transpose();
        expected.visible += p * v1;
        expected.hidden += p * h1;
      }
    }
  }
  return expected;
}

TEST(ContrastiveDivergence, OneStepMatchesItsExactExpectationForEveryRule) {
  const Rbm rbm = testing::random_rbm(4, 3, 1.5, 31);
  VectorD start(4);
  start << 1, 0, 1, 1;
  const MatrixD batch = start.transpose().replicate(kChains, 1);
  for (const char* rule : {"gibbs", "flip", "mix:0.3", "unit-modified:0.5"}) {
    TrainingOptions options;
    apply_algorithm(options, Algorithm::cd);
    options.rule = parse_unit_rule(rule);
    auto phase = make_negative_phase<double>(options, 4, 3, kChains);
    phase->start_batch(batch, rbm.hidden_probabilities(batch));
    EXPECT_LT(largest_difference(phase->statistics(rbm), exact_cd1_expectation(rbm, options.rule, start)),
              kStatisticalTolerance)
        << rule;
  }
}

// The hidden side of the negative statistics is E[h|v] = σ(c + W v), not a sampled h: with one chain, ⟨h⟩ must be
// σ(c + W v) at the chain's own v (which ⟨v⟩ is), strictly inside (0, 1), and ⟨h vᵀ⟩ = ⟨h⟩ vᵀ. A sampled h would
// give 0s and 1s.
TEST(ContrastiveDivergence, HiddenStatisticsAreConditionalExpectationsNotSamples) {
  constexpr double kRoundingTolerance = 1e-12;
  const Rbm rbm = testing::random_rbm(4, 3, 1.5, 31);
  MatrixD batch(1, 4);
  batch << 1, 0, 1, 1;
  for (const char* rule : {"gibbs", "flip"}) {
    TrainingOptions options;
    apply_algorithm(options, Algorithm::cd);
    options.rule = parse_unit_rule(rule);
    auto phase = make_negative_phase<double>(options, 4, 3, 1);
    phase->start_batch(batch, rbm.hidden_probabilities(batch));
    const Statistics statistics = phase->statistics(rbm);
    const VectorD expected = rbm.hidden_probabilities(statistics.visible.transpose()).transpose();
    EXPECT_LT((statistics.hidden - expected).cwiseAbs().maxCoeff(), kRoundingTolerance) << rule;
    EXPECT_TRUE((statistics.hidden.array() > 0.0 && statistics.hidden.array() < 1.0).all()) << rule;
    EXPECT_LT((statistics.hidden_visible - statistics.hidden * statistics.visible.transpose()).cwiseAbs().maxCoeff(),
              kRoundingTolerance)
        << rule;
  }
}

}  // namespace
}  // namespace rbmix
