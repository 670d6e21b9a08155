#include "rbmix/analysis/sweep_operator.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/analysis/transition_operator.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/verify/generators.hpp"
#include "support/rule_list.hpp"

namespace rbmix::analysis {
namespace {

// Pair mixes and dense products of the same probabilities differ only by summation order over ≤ 2^8 terms.
constexpr double kOperatorTolerance = 1e-13;

VectorD random_vector(Eigen::Index size, std::uint64_t seed) {
  RandomStream stream(seed, 0, StreamDomain::experiment);
  return VectorD::NullaryExpr(size, [&] { return stream.normal(); });
}

double max_difference(const VectorD& a, const VectorD& b) { return (a - b).cwiseAbs().maxCoeff(); }

RC_GTEST_PROP(SweepOperator, MatchesTheDenseMatrixForEveryRule, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(4, 3.0);
  const double beta = *rc::gen::element(1.0, 0.5, 0.0);
  for (const UnitRule& rule : testing::every_builtin_rule()) {
    const SweepOperator sweep(rbm, rule, beta);
    const MatrixD dense = sweep_transition_matrix(rbm, rule, beta);
    const VectorD x = random_vector(sweep.rows(), 3);
    RC_ASSERT(max_difference(apply(sweep, x), dense * x) < kOperatorTolerance);
    RC_ASSERT(max_difference(apply_adjoint(sweep, x), dense.transpose() * x) < kOperatorTolerance);
    RC_ASSERT(max_difference(sweep.diagonal(), dense.diagonal()) < kOperatorTolerance);
    for (const Layer layer : {Layer::hidden, Layer::visible}) {
      const MatrixD layer_matrix = layer_transition_matrix(rbm, rule, layer, beta);
      VectorD forward = x;
      sweep.apply_layer(layer, false, forward.data());
      RC_ASSERT(max_difference(forward, layer_matrix * x) < kOperatorTolerance);
      VectorD adjoint = x;
      sweep.apply_layer(layer, true, adjoint.data());
      RC_ASSERT(max_difference(adjoint, layer_matrix.transpose() * x) < kOperatorTolerance);
    }
  }
}

// One layer by its definition, state by state: each unit of the layer in index order mixes the two joint states
// that differ only in it, with the probabilities the table gives for the other layer's state.
VectorD layer_by_definition(const JointStateSpace& space, const UnitTransitionTable& table, Layer layer, bool adjoint,
                            VectorD values) {
  const bool hidden = layer == Layer::hidden;
  for (int unit = 0; unit < table.units(); ++unit) {
    const std::uint64_t bit = std::uint64_t{1} << (hidden ? space.n_visible() + unit : unit);
    for (std::uint64_t x0 = 0; x0 < space.size(); ++x0) {
      if (x0 & bit) continue;
      const std::uint64_t other = hidden ? space.visible_part(x0) : space.hidden_part(x0);
      const double up = table.probability(other, unit, 0, 1);
      const double stay = table.probability(other, unit, 1, 1);
      const auto i0 = static_cast<Eigen::Index>(x0);
      const auto i1 = static_cast<Eigen::Index>(x0 | bit);
      const double a = values[i0];
      const double b = values[i1];
      values[i0] = adjoint ? (1.0 - up) * a + (1.0 - stay) * b : (1.0 - up) * a + up * b;
      values[i1] = adjoint ? up * a + stay * b : (1.0 - stay) * a + stay * b;
    }
  }
  return values;
}

// 2^18 states on unequal layers: the hidden layer's pass runs in several tiles of the visible states, on the
// thread team, which the tiny models above never reach.
TEST(SweepOperator, TiledLayerPassesMatchTheDefinitionOnLargeUnequalLayers) {
  RandomStream stream(11, 0, StreamDomain::experiment);
  Rbm rbm(8, 10);
  rbm.weights = MatrixD::NullaryExpr(10, 8, [&] { return 3.0 * stream.normal(); });
  rbm.visible_bias = VectorD::NullaryExpr(8, [&] { return stream.normal(); });
  rbm.hidden_bias = VectorD::NullaryExpr(10, [&] { return stream.normal(); });
  const VectorD x = random_vector(Eigen::Index{1} << 18, 7);
  for (const UnitRule& rule : {UnitRule{GibbsRule{}}, UnitRule{FlipTheStateRule{}}}) {
    const SweepOperator sweep(rbm, rule);
    for (const Layer layer : {Layer::hidden, Layer::visible})
      for (const bool adjoint : {false, true}) {
        VectorD tiled = x;
        sweep.apply_layer(layer, adjoint, tiled.data());
        const VectorD expected = layer_by_definition(sweep.space(), sweep.table(layer), layer, adjoint, x);
        EXPECT_LT(max_difference(tiled, expected), kOperatorTolerance) << to_string(rule) << ", layer " << int(layer)
                                                                      << (adjoint ? ", adjoint" : "");
      }
  }
}

RC_GTEST_PROP(ModifiedOperator, MatchesTheModifiedDenseMatrix, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(3, 2.0);
  const MatrixD dense = sweep_transition_matrix(rbm, GibbsRule{});
  const double lambda = 0.8 * dense.diagonal().minCoeff();
  const SweepOperator sweep(rbm, GibbsRule{});
  const ModifiedOperator modified(sweep, lambda);
  const MatrixD expected = modified_matrix(dense, lambda);
  const VectorD x = random_vector(sweep.rows(), 5);
  RC_ASSERT(max_difference(apply(modified, x), expected * x) < kOperatorTolerance);
  RC_ASSERT(max_difference(apply_adjoint(modified, x), expected.transpose() * x) < kOperatorTolerance);
  RC_ASSERT(max_difference(modified.diagonal(), expected.diagonal()) < kOperatorTolerance);
}

TEST(ModifiedOperator, RejectsLambdaAboveTheMinimumDiagonal) {
  Rbm rbm(2, 2);
  rbm.weights(0, 0) = 1.0;
  const SweepOperator sweep(rbm, GibbsRule{});
  const double min_diagonal = sweep.diagonal().minCoeff();
  EXPECT_THROW(ModifiedOperator(sweep, 1.01 * min_diagonal), InputError);
  EXPECT_THROW(ModifiedOperator(sweep, -0.01), InputError);
  EXPECT_NO_THROW(ModifiedOperator(sweep, min_diagonal));
}

}  // namespace
}  // namespace rbmix::analysis
