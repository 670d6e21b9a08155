#include "rbmix/analysis/slem.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <limits>
#include <numeric>
#include <vector>

#include "rbmix/analysis/sweep_operator.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/random/random_stream.hpp"
#include "rbmix/verify/generators.hpp"

namespace rbmix::analysis {
namespace {

// Eigenvalues of well-conditioned 2^k-state stochastic matrices come out of the QR iteration to ~1e-13; zero
// eigenvalues of a rank-one or nilpotent part can be as large as ~1e-8 (eigenvalues of a Jordan block are
// perturbed by ε^{1/k}), so closed-form zeros get the looser bound.
constexpr double kEigenvalueTolerance = 1e-10;
constexpr double kZeroEigenvalueTolerance = 1e-6;
// docs/algorithms/operators.md §2: dense and matrix-free SLEM must agree to 1e-8.
constexpr double kCrossCheckTolerance = 1e-8;

// With W = 0 every unit is an independent two-state chain with fixed input x = β·bias, and K is the Kronecker
// product of the units' 2×2 matrices; its eigenvalues are products of the units' eigenvalues {1, μ_u} with
// μ_u = 1 − P(0→1) − P(1→0). Gibbs: μ = 1 − σ(x) − σ(−x) = 0, so SLEM(G) = 0. Flip-the-state with x ≠ 0:
// P(towards the likelier state) = 1 and P(back) = e^{−|x|}, so μ = −e^{−|x|}; with x = 0 both are 1/2 and μ = 0.
// T^α is affine in the rule, so μ = −α e^{−|x|}. Hence SLEM(T^α) = α · max over units with bias ≠ 0 of
// e^{−β|bias|} (0 if every bias is 0) — note units with a zero bias contribute 0, not e^0 = 1.
double independent_units_slem(const Rbm& rbm, double flip_weight, double inverse_temperature) {
  double slem = 0.0;
  for (const VectorD* bias : {&rbm.visible_bias, &rbm.hidden_bias})
    for (Eigen::Index k = 0; k < bias->size(); ++k)
      if ((*bias)[k] != 0.0) slem = std::max(slem, flip_weight * std::exp(-inverse_temperature * std::abs((*bias)[k])));
  return slem;
}

RC_GTEST_PROP(Slem, IndependentUnitsMatchTheClosedForm, ()) {
  Rbm rbm = *verify::arbitrary_tiny_rbm(3, 3.0);
  rbm.weights.setZero();
  if (*rc::gen::arbitrary<bool>()) rbm.visible_bias[0] = 0.0;  // a tie
  const double beta = *rc::gen::element(1.0, 0.5);
  const double gibbs = dense_slem(sweep_transition_matrix(rbm, GibbsRule{}, beta)).slem;
  RC_ASSERT(gibbs < kZeroEigenvalueTolerance);
  for (const double alpha : {1.0, 0.5}) {
    const double expected = independent_units_slem(rbm, alpha, beta);
    const double flip = dense_slem(sweep_transition_matrix(rbm, MixtureRule{alpha}, beta)).slem;
    RC_ASSERT(std::abs(flip - expected) < (expected == 0.0 ? kZeroEigenvalueTolerance : kEigenvalueTolerance));
  }
}

TEST(Slem, NaiveFlipWithoutWeightsOrBiasesHasModulusOneTwice) {
  const Rbm rbm(2, 2);  // every unit flips every sweep: eigenvalue −1
  EXPECT_NEAR(dense_slem(sweep_transition_matrix(rbm, NaiveFlipRule{})).slem, 1.0, kEigenvalueTolerance);
}

// The largest |dense − matrix-free| SLEM over G, T and T^0.5 (infinite if Spectra did not converge).
double dense_and_matrix_free_disagreement(const Rbm& rbm) {
  const VectorD stationary = JointStateSpace(rbm).stationary_distribution(rbm);
  double worst = 0.0;
  for (const char* name : {"gibbs", "flip", "mix:0.5", "unit-modified:0.5"}) {
    const UnitRule rule = parse_unit_rule(name);
    const SlemResult dense = dense_slem(sweep_transition_matrix(rbm, rule));
    const SlemResult matrix_free = matrix_free_slem(SweepOperator(rbm, rule), stationary);
    worst = std::max(worst, matrix_free.converged ? std::abs(dense.slem - matrix_free.slem)
                                                  : std::numeric_limits<double>::infinity());
  }
  return worst;
}

// Random 3 + 3 RBMs (64 states, above the Krylov dimension 30), and one fixed 4 + 4 RBM (256 states).
RC_GTEST_PROP(Slem, DenseAndMatrixFreeAgree, ()) {
  RC_ASSERT(dense_and_matrix_free_disagreement(*verify::arbitrary_rbm(3, 3, 3.0)) < kCrossCheckTolerance);
}

TEST(Slem, DenseAndMatrixFreeAgreeOnA256StateRbm) {
  Rbm rbm(4, 4);
  for (Eigen::Index i = 0; i < 4; ++i)
    for (Eigen::Index j = 0; j < 4; ++j) rbm.weights(i, j) = std::sin(3.0 * static_cast<double>(i * 4 + j) + 1.0) * 2.5;
  rbm.visible_bias << 0.5, -0.25, 0.0, 1.0;
  EXPECT_LT(dense_and_matrix_free_disagreement(rbm), kCrossCheckTolerance);
}

// 001 §3: A' = (A − λI)/(1 − λ) maps each eigenvalue μ to (μ − λ)/(1 − λ). Every eigenvalue of A' must be the
// image of a distinct eigenvalue of A.
RC_GTEST_PROP(ModifiedMatrix, MapsEveryEigenvalue, ()) {
  const Rbm rbm = *verify::arbitrary_tiny_rbm(3, 2.0);
  const MatrixD matrix = sweep_transition_matrix(rbm, GibbsRule{});
  const double lambda = *rc::gen::element(0.5, 1.0) * matrix.diagonal().minCoeff();
  const Eigen::MatrixXd original = matrix;
  const Eigen::MatrixXd modified = modified_matrix(matrix, lambda);
  const Eigen::VectorXcd before = Eigen::EigenSolver<Eigen::MatrixXd>(original, false).eigenvalues();
  const Eigen::VectorXcd after = Eigen::EigenSolver<Eigen::MatrixXd>(modified, false).eigenvalues();
  std::vector<bool> used(static_cast<std::size_t>(after.size()), false);
  for (Eigen::Index k = 0; k < before.size(); ++k) {
    const std::complex<double> image = (before[k] - lambda) / (1.0 - lambda);
    Eigen::Index best = -1;
    for (Eigen::Index j = 0; j < after.size(); ++j)
      if (!used[static_cast<std::size_t>(j)] &&
          (best < 0 || std::abs(after[j] - image) < std::abs(after[best] - image)))
        best = j;
    RC_ASSERT(std::abs(after[best] - image) < kZeroEigenvalueTolerance);
    used[static_cast<std::size_t>(best)] = true;
  }
}

// Brauer's deflation by the uniform vector needs no π: the SLEM of a row-stochastic matrix by Arnoldi equals the dense
// one, on exact sweep matrices of 256 states and on empirical ones (rows of multinomial counts, as the audit builds).
RC_GTEST_PROP(StochasticMatrixSlem, EqualsTheDenseSlem, ()) {
  const int visible = *rc::gen::inRange(3, 6);
  const Rbm rbm = *verify::arbitrary_rbm(visible, 8 - visible, 2.0);
  MatrixD matrix = sweep_transition_matrix(rbm, GibbsRule{});
  if (*rc::gen::arbitrary<bool>()) {
    RandomStream stream(*rc::gen::inRange<std::uint64_t>(0, 1000), 0);
    constexpr int chains = 2000;
    for (Eigen::Index x = 0; x < matrix.rows(); ++x) {
      std::vector<double> cumulative(static_cast<std::size_t>(matrix.cols()));
      std::partial_sum(matrix.row(x).begin(), matrix.row(x).end(), cumulative.begin());
      matrix.row(x).setZero();
      for (int chain = 0; chain < chains; ++chain) {
        const auto next =
            std::upper_bound(cumulative.begin(), cumulative.end() - 1, stream.uniform() * cumulative.back());
        matrix(x, next - cumulative.begin()) += 1.0 / chains;
      }
    }
  }
  RC_ASSERT(matrix.rows() >= stochastic_arnoldi_min_states);
  const SlemResult arnoldi = stochastic_matrix_slem(matrix);
  RC_ASSERT(std::abs(arnoldi.slem - dense_slem(matrix).slem) < kCrossCheckTolerance);
}

TEST(Slem, MatrixFreeRefusesStateSpacesSmallerThanItsKrylovSpace) {
  const Rbm rbm(2, 2);
  const VectorD stationary = JointStateSpace(rbm).stationary_distribution(rbm);
  EXPECT_THROW(matrix_free_slem(SweepOperator(rbm, GibbsRule{}), stationary), InputError);
}

}  // namespace
}  // namespace rbmix::analysis
