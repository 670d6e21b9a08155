#include "rbmix/model/dense_product.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <random>

namespace rbmix {
namespace {

template <typename Scalar>
Matrix<Scalar> uniform_matrix(Eigen::Index rows, Eigen::Index columns, std::uint32_t seed) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Matrix<Scalar> matrix(rows, columns);
  for (Eigen::Index k = 0; k < matrix.size(); ++k) matrix.data()[k] = static_cast<Scalar>(uniform(engine));
  return matrix;
}

// Every entry the same bits with teams of one, two and three, for shapes below and above the parallel threshold and
// widths that are and are not multiples of the block; and the product is the product (against Eigen's
// coefficient-wise product, to rounding).
template <typename Scalar>
void expect_team_independent_products(double tolerance) {
  const int threads = omp_get_max_threads();
  struct Shape {
    Eigen::Index rows, depth, columns;
  };
  for (const Shape shape : {Shape{3, 4, 5}, Shape{100, 784, 500}, Shape{100, 500, 784}, Shape{500, 100, 130}}) {
    const Matrix<Scalar> left = uniform_matrix<Scalar>(shape.rows, shape.depth, 1);
    const Matrix<Scalar> right = uniform_matrix<Scalar>(shape.depth, shape.columns, 2);
    Matrix<Scalar> products[3];
    for (const int team : {1, 2, 3}) {
      omp_set_num_threads(team);
      fixed_split_product(left, right, products[team - 1], Scalar(0.25));
    }
    omp_set_num_threads(threads);
    EXPECT_TRUE(products[0] == products[1] && products[0] == products[2])
        << shape.rows << " x " << shape.depth << " x " << shape.columns;
    const Matrix<Scalar> reference = Scalar(0.25) * left.lazyProduct(right);
    EXPECT_LE((products[0] - reference).cwiseAbs().maxCoeff(), tolerance * std::sqrt(double(shape.depth)));
  }
}

TEST(DenseProduct, EveryEntryIsTheSameWhateverTheTeamDouble) { expect_team_independent_products<double>(1e-14); }
TEST(DenseProduct, EveryEntryIsTheSameWhateverTheTeamFloat) { expect_team_independent_products<float>(1e-5); }

// A transposed right operand and a cast left one (the layer inputs' forms).
TEST(DenseProduct, TakesExpressions) {
  const MatrixD states = (uniform_matrix<double>(20, 70, 3).array() > 0.0).cast<double>().matrix();
  const MatrixF weights = uniform_matrix<float>(90, 70, 4);
  MatrixF inputs;
  fixed_split_product(states.cast<float>(), weights.transpose(), inputs);
  const MatrixF reference = states.cast<float>().lazyProduct(weights.transpose());
  ASSERT_EQ(inputs.rows(), 20);
  ASSERT_EQ(inputs.cols(), 90);
  EXPECT_LE((inputs - reference).cwiseAbs().maxCoeff(), 1e-4f);
}

}  // namespace
}  // namespace rbmix
