#include "rbmix/training/particle_independent_metropolis.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "rbmix/model/exact.hpp"
#include "rbmix/verify/chi_squared.hpp"
#include "support/input_error_message.hpp"
#include "support/ladder_models.hpp"

namespace rbmix {
namespace {

using ::testing::HasSubstr;

using testing::visible_marginal;
using testing::visible_state_index;

// A path of 5 + 3 units through three models of growing couplings (weights up to ±3 at the end), which one sweep
// per model does not follow: the proposals' particles lag the last model's distribution.
ModelPath coupled_path() { return testing::small_trajectory_path(5, 3, 11, {1.0, 2.0, 3.0}); }

// Coarse proposals: one particle, one step per segment, one sweep at each.
PathMetropolisOptions coarse_proposals() {
  PathMetropolisOptions options;
  options.particles = 1;
  options.steps = 3;
  options.sweeps_per_step = 1;
  return options;
}

// E[Ẑ] = Z: the mean of 20 000 proposals' Ẑ/Z (two particles, coarse steps, so Ẑ spreads widely) lies within 5 of
// its standard errors of 1. A false failure once in about 2 million runs where the mean is near normal.
void expect_unbiased_estimates_of_z(const ModelPath& path) {
  PathMetropolisOptions options = coarse_proposals();
  options.particles = 2;
  const PathProposals proposals(path, options);
  const double exact = exact_log_partition(path.knots().back());
  RandomStream stream(5, 0, StreamDomain::experiment);
  constexpr int draws = 20000;
  VectorD ratios(draws);
  for (int draw = 0; draw < draws; ++draw) ratios[draw] = std::exp(proposals.draw(stream).log_partition - exact);
  const double mean = ratios.mean();
  const double standard_error = std::sqrt((ratios.array() - mean).square().sum() / (draws - 1.0) / draws);
  EXPECT_GT(standard_error, 0.005);  // Ẑ/Z spreads by about 1: the check below has something to see
  EXPECT_LT(std::abs(mean - 1.0), 5.0 * standard_error) << "mean " << mean << " +- " << standard_error;
}

TEST(PathProposals, EstimateZWithoutBias) { expect_unbiased_estimates_of_z(coupled_path()); }

// With base visible biases b_A the temperature path starts at AIS's base-rate model (W = 0, b_A, c = 0), and its
// model at β has AIS's unnormalised marginal log p*_β(v) = ((1 − β) b_A + β b)ᵀv + Σ_i softplus(β (c_i + W_i·v))
// (docs/algorithms/estimation.md §5.2) on every state; the proposals along it estimate Z without bias.
TEST(PathProposals, ABaseRateTemperaturePathIsAisPath) {
  const Rbm model = coupled_path().knots().back();
  VectorD base(5);
  base << -2.0, 1.0, 0.5, -0.3, 2.0;
  const ModelPath path = temperature_path(model, base);
  EXPECT_TRUE(path.knots().front().weights.isZero(0.0));
  EXPECT_EQ(path.knots().front().visible_bias, base);
  EXPECT_TRUE(path.knots().front().hidden_bias.isZero(0.0));
  EXPECT_EQ(temperature_path(model).knots().front().visible_bias, VectorD::Zero(5));
  for (const double beta : {0.0, 0.25, 0.8, 1.0}) {
    const Rbm at_beta = path.at(beta);
    for (int state = 0; state < 32; ++state) {
      VectorD visible(5);
      for (int unit = 0; unit < 5; ++unit) visible[unit] = (state >> unit) & 1;
      const Eigen::ArrayXd inputs = beta * (model.hidden_bias + model.weights * visible).array();
      const double log_unnormalised = ((1.0 - beta) * base + beta * model.visible_bias).dot(visible) +
                                      (inputs.max(0.0) + (-inputs.abs()).exp().log1p()).sum();
      EXPECT_NEAR(-at_beta.free_energy(visible.transpose())[0], log_unnormalised, 1e-12) << "beta " << beta;
    }
  }
  expect_unbiased_estimates_of_z(path);
  EXPECT_THAT(testing::input_error_message([&] { temperature_path(model, VectorD::Zero(4)); }),
              HasSubstr("base visible biases: 4 values for a model of 5 visible units"));
  base[2] = std::nan("");
  EXPECT_THAT(testing::input_error_message([&] { temperature_path(model, base); }),
              HasSubstr("base visible biases: not all finite"));
}

// The chain's states are draws of the last model once it has converged, although its proposals are not: 6 000
// chains after 40 proposals each against p(v) by χ² (p > 1e-6: a false failure once in a million runs), while the
// proposals themselves are refused by the same test (their bias is what the acceptance step corrects).
TEST(PathMetropolis, ChainsDrawTheLastModelWhereProposalsDoNot) {
  const ModelPath path = coupled_path();
  PathMetropolisOptions options = coarse_proposals();
  options.particles = 2;  // so that the particle drawn in proportion to its weight matters too
  const PathProposals proposals(path, options);
  const VectorD marginal = visible_marginal(path.knots().back());
  constexpr int chains = 6000;
  constexpr int steps = 40;
  std::vector<std::uint64_t> chain_counts(static_cast<std::size_t>(marginal.size()), 0);
  std::vector<std::uint64_t> proposal_counts(chain_counts.size(), 0);
  for (int chain = 0; chain < chains; ++chain) {
    RandomStream stream(7, static_cast<std::uint64_t>(chain), StreamDomain::experiment);
    PathMetropolisState state = proposals.draw(stream);
    ++proposal_counts[visible_state_index(state.visible)];
    for (int step = 0; step < steps; ++step)
      PathProposals::accept(state, proposals.draw(stream), stream.uniform());
    ++chain_counts[visible_state_index(state.visible)];
  }
  EXPECT_GT(verify::chi_squared_p_value(chain_counts, marginal), 1e-6);
  EXPECT_LT(verify::chi_squared_p_value(proposal_counts, marginal), 1e-6);
}

TEST(PathMetropolis, AcceptsByTheRatioOfTheEstimates) {
  PathMetropolisState state{2.0, VectorD::Zero(2)};
  const PathMetropolisState higher{2.5, VectorD::Ones(2)};
  const PathMetropolisState lower{1.0, VectorD::Ones(2)};
  PathMetropolisState kept = state;
  EXPECT_FALSE(PathProposals::accept(kept, lower, std::exp(-1.0) + 1e-9));  // u just above Ẑ′/Ẑ = e^{−1}
  EXPECT_EQ(kept, state);
  EXPECT_TRUE(PathProposals::accept(kept, lower, std::exp(-1.0) - 1e-9));
  EXPECT_EQ(kept, lower);
  EXPECT_TRUE(PathProposals::accept(state, higher, 0.999999));  // a higher Ẑ is always accepted
  EXPECT_EQ(state, higher);
}

TEST(PathMetropolisOptions, RefuseWhatCannotRunNamingTheOption) {
  const ModelPath path = coupled_path();
  const auto refusal = [&](const PathMetropolisOptions& options) {
    return testing::input_error_message([&] { options.validate(path); });
  };
  PathMetropolisOptions options;
  options.particles = 0;
  EXPECT_THAT(refusal(options), HasSubstr("at least 1 particle"));
  options = {};
  options.steps = 2;
  EXPECT_THAT(refusal(options), HasSubstr("at least one step per segment of the path (3), got 2"));
  options = {};
  options.sweeps_per_step = 0;
  EXPECT_THAT(refusal(options), HasSubstr("at least 1 sweep per step"));
  options = {};
  options.resampling_threshold = std::nan("");
  EXPECT_THAT(refusal(options), HasSubstr("resampling threshold must lie in [0, 1]"));
}

}  // namespace
}  // namespace rbmix
