#include "rbmix/analysis/exact_total_variation.hpp"

#include <gtest/gtest.h>

#include "rbmix/analysis/sweep_operator.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/model/random_rbm.hpp"
#include "support/input_error_message.hpp"
#include "support/tied_rbm.hpp"

namespace rbmix::analysis {
namespace {

// Closed form: with W = 0 every unit is independent and one Gibbs sweep draws every unit from its marginal, so from any
// start the distance is ½|π₀ − π|₁ at t = 0 and exactly 0 from t = 1 on.
TEST(ExactTotalVariation, GibbsOnIndependentUnitsMixesInOneSweep) {
  Rbm rbm(3, 2);
  rbm.visible_bias << 0.5, -1.0, 2.0;
  rbm.hidden_bias << -0.3, 0.8;
  const VectorD distances = exact_total_variation(rbm, GibbsRule{}, 1.0, parse_start_distribution("zeros"), 4);
  const VectorD stationary = JointStateSpace(rbm).stationary_distribution(rbm);
  EXPECT_NEAR(distances[0], 1.0 - stationary[0], 1e-15);
  for (Eigen::Index t = 1; t < distances.size(); ++t) EXPECT_NEAR(distances[t], 0.0, 1e-15);
}

// The dense matrix and the matrix-free sweep carry the start forward to the same distances, which never increase.
TEST(ExactTotalVariation, DenseAndMatrixFreeAgree) {
  const Rbm rbm = uniform_random_rbm(4, 3, 1.5, 0.5, 9);
  const VectorD stationary = JointStateSpace(rbm).stationary_distribution(rbm);
  const VectorD start = exact_start_distribution(parse_start_distribution("ones"), rbm, 1.0);
  const MatrixD dense = sweep_transition_matrix(rbm, FlipTheStateRule{});
  const VectorD from_dense = exact_total_variation(DenseOperator(dense), start, stationary, 30);
  const VectorD matrix_free = exact_total_variation(SweepOperator(rbm, FlipTheStateRule{}), start, stationary, 30);
  EXPECT_LT((from_dense - matrix_free).cwiseAbs().maxCoeff(), 1e-14);
  for (Eigen::Index t = 1; t < from_dense.size(); ++t) EXPECT_LE(from_dense[t], from_dense[t - 1] + 1e-15);
  EXPECT_GT(from_dense[0], 0.5);
}

TEST(ExactTotalVariation, FirstTimeWithinAndRefusals) {
  EXPECT_EQ(first_time_within((VectorD(4) << 0.9, 0.3, 0.25, 0.1).finished(), 0.25), 2);
  EXPECT_FALSE(first_time_within((VectorD(2) << 0.9, 0.3).finished(), 0.25));
  EXPECT_NE(testing::input_error_message([] {
              exact_total_variation(uniform_random_rbm(12, 9, 1.0, 1.0, 1), GibbsRule{}, 1.0,
                                    parse_start_distribution("zeros"), 3);
            }).find("21 units"),
            std::string::npos);
}

}  // namespace
}  // namespace rbmix::analysis
