#include "rbmix/model/binary_product.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "rbmix/model/rbm.hpp"
#include "rbmix/model/statistics.hpp"
#include "rbmix/random/random_stream.hpp"
#include "support/input_error_message.hpp"

namespace rbmix {
namespace {

// A 0/1 matrix with about `density` ones, drawn from rapidcheck.
template <typename Scalar>
Matrix<Scalar> generated_binary(Eigen::Index rows, Eigen::Index cols, int ones_in_a_thousand) {
  const auto draws =
      *rc::gen::container<std::vector<int>>(static_cast<std::size_t>(rows * cols), rc::gen::inRange(0, 1000));
  Matrix<Scalar> binary(rows, cols);
  for (Eigen::Index k = 0; k < binary.size(); ++k)
    binary.data()[k] = draws[static_cast<std::size_t>(k)] < ones_in_a_thousand ? Scalar(1) : Scalar(0);
  return binary;
}

// Entries in [−1, 1] on a grid of 1/1000, drawn from rapidcheck.
template <typename Scalar>
Matrix<Scalar> generated_dense(Eigen::Index rows, Eigen::Index cols) {
  const auto draws =
      *rc::gen::container<std::vector<int>>(static_cast<std::size_t>(rows * cols), rc::gen::inRange(-1000, 1001));
  Matrix<Scalar> dense(rows, cols);
  for (Eigen::Index k = 0; k < dense.size(); ++k)
    dense.data()[k] = static_cast<Scalar>(draws[static_cast<std::size_t>(k)]) / Scalar(1000);
  return dense;
}

// Two sums of the same k terms in different orders differ by at most 2(k − 1)·ε·Σ|terms| (each is within
// (k − 1)·ε·Σ|terms| of the exact sum); `magnitudes` holds Σ|terms| per entry, k is the inner dimension.
template <typename Scalar>
void require_equal_to_rounding(const Matrix<Scalar>& binary_path, const Matrix<Scalar>& dense_path,
                               const Matrix<Scalar>& magnitudes, Eigen::Index terms) {
  RC_ASSERT(binary_path.rows() == dense_path.rows());
  RC_ASSERT(binary_path.cols() == dense_path.cols());
  const Scalar epsilon = std::numeric_limits<Scalar>::epsilon();
  for (Eigen::Index r = 0; r < dense_path.rows(); ++r)
    for (Eigen::Index c = 0; c < dense_path.cols(); ++c)
      RC_ASSERT(std::abs(binary_path(r, c) - dense_path(r, c)) <=
                Scalar(2) * static_cast<Scalar>(terms) * epsilon * magnitudes(r, c));
}

// Shapes up to 70 cover one and several column blocks (32 floats or 16 doubles wide), partial blocks and partial
// register tiles; densities cover none, sparse, MNIST-like, dense and all ones, and rows of B may be empty.
template <typename Scalar>
void check_products_against_dense() {
  const Eigen::Index rows = *rc::gen::inRange(0, 13);
  const Eigen::Index inner = *rc::gen::inRange(0, 71);
  const Eigen::Index cols = *rc::gen::inRange(0, 71);
  const int ones_in_a_thousand = *rc::gen::element(0, 50, 130, 500, 1000);
  const Matrix<Scalar> binary = generated_binary<Scalar>(rows, inner, ones_in_a_thousand);

  // B M with M inner × cols.
  const Matrix<Scalar> right = generated_dense<Scalar>(inner, cols);
  Matrix<Scalar> product;
  binary_times(binary, right, product);
  const Matrix<Scalar> dense_product = binary * right;
  require_equal_to_rounding<Scalar>(product, dense_product, binary * right.cwiseAbs(), inner);

  // B Mᵀ with M cols × inner.
  const Matrix<Scalar> transposed_right = generated_dense<Scalar>(cols, inner);
  binary_times_transpose(binary, transposed_right, product);
  const Matrix<Scalar> dense_transposed_product = binary * transposed_right.transpose();
  require_equal_to_rounding<Scalar>(product, dense_transposed_product, binary * transposed_right.cwiseAbs().transpose(),
                                    inner);

  // Pᵀ B with P rows × cols: the sums run over the rows.
  const Matrix<Scalar> left = generated_dense<Scalar>(rows, cols);
  transpose_times_binary(left, binary, product);
  const Matrix<Scalar> dense_statistic = left.transpose() * binary;
  require_equal_to_rounding<Scalar>(product, dense_statistic, left.cwiseAbs().transpose() * binary, rows);
}

RC_GTEST_PROP(BinaryProduct, EqualsTheDenseProductToRoundingInFloat, ()) { check_products_against_dense<float>(); }
RC_GTEST_PROP(BinaryProduct, EqualsTheDenseProductToRoundingInDouble, ()) { check_products_against_dense<double>(); }

template <typename Scalar>
Matrix<Scalar> random_binary(Eigen::Index rows, Eigen::Index cols, double density, std::uint64_t stream_index) {
  RandomStream stream(5, stream_index, StreamDomain::experiment);
  Matrix<Scalar> binary(rows, cols);
  for (Eigen::Index k = 0; k < binary.size(); ++k) binary.data()[k] = stream.uniform() < density ? 1 : 0;
  return binary;
}

template <typename Scalar>
Matrix<Scalar> random_dense(Eigen::Index rows, Eigen::Index cols, std::uint64_t stream_index) {
  RandomStream stream(5, stream_index, StreamDomain::experiment);
  Matrix<Scalar> dense(rows, cols);
  for (Eigen::Index k = 0; k < dense.size(); ++k) dense.data()[k] = static_cast<Scalar>(stream.uniform() - 0.5);
  return dense;
}

// The PCD shape (batch 100, 784 visible, 500 hidden, 13 % ones) is far above the size at which the products split
// their work over threads; one and two threads must give the same bits.
template <typename Scalar>
void check_thread_count_independence() {
  const Matrix<Scalar> visible = random_binary<Scalar>(100, 784, 0.13, 1);
  const Matrix<Scalar> hidden = random_binary<Scalar>(100, 500, 0.13, 2);
  const Matrix<Scalar> weights = random_dense<Scalar>(500, 784, 3);
  const Matrix<Scalar> probabilities = random_dense<Scalar>(100, 500, 4);
  const int threads = omp_get_max_threads();
  std::vector<Matrix<Scalar>> results[2];
  for (const int thread_count : {1, 2}) {
    omp_set_num_threads(thread_count);
    std::vector<Matrix<Scalar>>& out = results[thread_count - 1];
    out.resize(3);
    binary_times_transpose(visible, weights, out[0]);
    binary_times(hidden, weights, out[1]);
    transpose_times_binary(probabilities, visible, out[2]);
  }
  omp_set_num_threads(threads);
  for (std::size_t k = 0; k < 3; ++k) EXPECT_EQ(results[0][k], results[1][k]) << "product " << k;
}

TEST(BinaryProduct, DoesNotDependOnTheThreadCountInFloat) { check_thread_count_independence<float>(); }
TEST(BinaryProduct, DoesNotDependOnTheThreadCountInDouble) { check_thread_count_independence<double>(); }

TEST(BinaryProduct, HandComputedProducts) {
  MatrixD binary(2, 3);
  binary << 1, 0, 1, 0, 0, 0;
  MatrixD right(3, 2);
  right << 1, 2, 3, 4, 5, 6;
  MatrixD product;
  binary_times(binary, right, product);
  MatrixD expected(2, 2);
  expected << 6, 8, 0, 0;  // rows 0 and 2 of M; an empty row of B gives zeros
  EXPECT_EQ(product, expected);
  binary_times_transpose(binary, MatrixD(right.transpose()), product);
  EXPECT_EQ(product, expected);
  MatrixD left(2, 2);
  left << 0.5, 1, 2, 4;
  transpose_times_binary(left, binary, product);
  MatrixD statistic(2, 3);
  statistic << 0.5, 0, 0.5, 1, 0, 1;  // only row 0 of P is selected, by columns 0 and 2
  EXPECT_EQ(product, statistic);
}

TEST(BinaryProduct, RefusesNonBinaryOperandsAndMismatchedShapes) {
  MatrixD fractional = MatrixD::Zero(2, 3);
  fractional(1, 2) = 0.5;
  MatrixD product;
  EXPECT_NE(testing::input_error_message([&] {
              binary_times(fractional, MatrixD(MatrixD::Ones(3, 2)), product);
            }).find("other than 0 and 1"),
            std::string::npos);
  fractional(1, 2) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(binary_density(fractional, "states"), InputError);
  EXPECT_THROW(binary_times_transpose(MatrixD(MatrixD::Ones(2, 3)), MatrixD(MatrixD::Ones(2, 2)), product), InputError);
  EXPECT_THROW(transpose_times_binary(MatrixD(MatrixD::Ones(3, 2)), MatrixD(MatrixD::Ones(2, 2)), product), InputError);
  EXPECT_EQ(binary_density(MatrixD(0, 4), "states"), 0.0);
}

// A single row of B sums the other operand's rows where they lie (and, given Mᵀ, M's columns as Mᵀ's rows) instead
// of packing them: the same terms in the same order, so exactly the packed path's numbers. Shapes cover whole and
// partial column blocks (16 floats or 8 doubles wide per packet pair), no ones and all ones.
template <typename Scalar>
void check_in_place_against_packed() {
  const Eigen::Index inner = *rc::gen::inRange(0, 71);
  const Eigen::Index cols = *rc::gen::inRange(0, 71);
  const int ones_in_a_thousand = *rc::gen::element(0, 130, 500, 1000);
  const Matrix<Scalar> binary = generated_binary<Scalar>(1, inner, ones_in_a_thousand);
  const Matrix<Scalar> right = generated_dense<Scalar>(inner, cols);
  const Matrix<Scalar> transposed_right = generated_dense<Scalar>(cols, inner);
  const Matrix<Scalar> transposed_copy = transposed_right.transpose();
  Matrix<Scalar> in_place, in_place_transposed, packed, packed_transposed;
  binary_times(binary, right, in_place);
  const bool took_binary_path =
      try_binary_times_transpose(binary, transposed_right, in_place_transposed, "states", &transposed_copy);
  binary_times(binary, right, packed, {.in_place = false});
  try_binary_times_transpose(binary, transposed_right, packed_transposed, "states");
  RC_ASSERT(in_place == packed);
  if (took_binary_path) RC_ASSERT(in_place_transposed == packed_transposed);
}

RC_GTEST_PROP(BinaryProduct, InPlaceSumsAreThePackedSumsInFloat, ()) { check_in_place_against_packed<float>(); }
RC_GTEST_PROP(BinaryProduct, InPlaceSumsAreThePackedSumsInDouble, ()) { check_in_place_against_packed<double>(); }

// The same at one chain's shape (784 visible, 500 hidden), where each sum has hundreds of terms, through the RBM's
// entry point: the hidden and visible inputs with and without Wᵀ, in-place products on and off, are the same bits.
TEST(BinaryProduct, OneChainInputsFromTransposedWeightsAreThePackedInputs) {
  BasicRbm<float> rbm(784, 500);
  rbm.weights = random_dense<float>(500, 784, 19);
  rbm.visible_bias = random_dense<float>(784, 1, 20);
  rbm.hidden_bias = random_dense<float>(500, 1, 21);
  const Matrix<float> transposed = rbm.weights.transpose();
  const Matrix<float> visible = random_binary<float>(1, 784, 0.3, 22);
  const Matrix<float> hidden = random_binary<float>(1, 500, 0.3, 23);
  Matrix<float> in_place, packed;
  for (const Layer layer : {Layer::hidden, Layer::visible}) {
    const Matrix<float>& states = layer == Layer::hidden ? visible : hidden;
    rbm.binary_layer_inputs(layer, states, in_place, 0.7f, {}, &transposed);
    rbm.binary_layer_inputs(layer, states, packed, 0.7f, {.in_place = false});
    EXPECT_EQ(in_place, packed);
  }
  Matrix<float> inputs;
  const Matrix<float> wrong_shape = rbm.weights;
  EXPECT_THROW(rbm.binary_layer_inputs(Layer::hidden, visible, inputs, 1.0f, {}, &wrong_shape), InputError);
}

// The try_ products take the binary path below the density threshold (returning true, with the plain product's
// numbers) and leave the output alone at or above it, for a tiny product, or when the path is switched off
// (returning false); they check the operand while counting it, and the shapes first.
TEST(BinaryProduct, TryProductsTakeTheBinaryPathOnlyBelowTheThreshold) {
  const MatrixD weights = random_dense<double>(50, 80, 12);
  const MatrixD sparse = random_binary<double>(20, 80, 0.1, 13);
  const MatrixD dense = random_binary<double>(20, 80, 0.6, 14);
  MatrixD expected, out;
  binary_times_transpose(sparse, weights, expected);
  EXPECT_TRUE(try_binary_times_transpose(sparse, weights, out, "states"));
  EXPECT_EQ(out, expected);
  const MatrixD untouched = MatrixD::Constant(3, 3, 7.0);
  out = untouched;
  EXPECT_FALSE(try_binary_times_transpose(dense, weights, out, "states"));
  EXPECT_EQ(out, untouched);
  EXPECT_FALSE(try_binary_times_transpose<double>(sparse, weights, out, "states", nullptr, {.binary = false}));
  EXPECT_EQ(out, untouched);

  const MatrixD hidden = random_binary<double>(20, 50, 0.1, 15);
  binary_times(hidden, weights, expected);
  EXPECT_TRUE(try_binary_times(hidden, weights, out, "states"));
  EXPECT_EQ(out, expected);
  const MatrixD probabilities = random_dense<double>(20, 50, 16);
  transpose_times_binary(probabilities, sparse, expected);
  EXPECT_TRUE(try_transpose_times_binary(probabilities, sparse, out, "states"));
  EXPECT_EQ(out, expected);
  // Scaled as stored: the same numbers as the output scaled afterwards (whole tiles and the partial ones).
  EXPECT_TRUE(try_transpose_times_binary(probabilities, sparse, out, "states", 1.0 / 7.0));
  EXPECT_EQ(out, MatrixD(expected * (1.0 / 7.0)));
  {
    const MatrixF float_probabilities = random_dense<double>(20, 50, 19).cast<float>();
    const MatrixF float_sparse = sparse.cast<float>();
    MatrixF float_expected, float_out;
    transpose_times_binary(float_probabilities, float_sparse, float_expected);
    EXPECT_TRUE(try_transpose_times_binary(float_probabilities, float_sparse, float_out, "states", 1.0f / 7.0f));
    EXPECT_EQ(float_out, MatrixF(float_expected * (1.0f / 7.0f)));
  }
  EXPECT_FALSE(try_transpose_times_binary(probabilities, dense, out, "states"));
  // A tiny product (4 × 16 against 16 × 16: 1024 multiply-adds) stays dense however few its ones, and is still
  // checked.
  const MatrixD tiny = random_binary<double>(4, 16, 0.1, 17);
  EXPECT_FALSE(try_binary_times_transpose(tiny, random_dense<double>(16, 16, 18), out, "states"));
  MatrixD tiny_fractional = tiny;
  tiny_fractional(1, 1) = 0.5;
  EXPECT_THROW(try_binary_times_transpose(tiny_fractional, random_dense<double>(16, 16, 18), out, "states"),
               InputError);

  MatrixD fractional = sparse;
  fractional(0, 0) = 0.5;
  EXPECT_NE(testing::input_error_message([&] {
              try_binary_times_transpose(fractional, weights, out, "chain states");
            }).find("chain states"),
            std::string::npos);
  EXPECT_THROW(try_binary_times(sparse, weights, out, "states"), InputError);  // 80 columns against 50 rows
}

// The RBM's entry points take the binary path below the density threshold and the dense one at or above it, and
// agree with layer_inputs and batch_statistics in both cases; switched off, they are exactly the dense ones.
TEST(BinaryProduct, RbmEntryPointsAgreeWithTheDenseOnes) {
  BasicRbm<float> rbm(784, 500);
  rbm.weights = random_dense<float>(500, 784, 6);
  rbm.visible_bias = random_dense<float>(784, 1, 7);
  rbm.hidden_bias = random_dense<float>(500, 1, 8);
  for (const double density : {0.13, 0.6}) {
    const Matrix<float> visible = random_binary<float>(100, 784, density, 9);
    const Matrix<float> hidden = random_binary<float>(100, 500, density, 10);
    Matrix<float> binary_inputs, dense_inputs;
    for (const Layer layer : {Layer::hidden, Layer::visible}) {
      const Matrix<float>& states = layer == Layer::hidden ? visible : hidden;
      rbm.binary_layer_inputs(layer, states, binary_inputs, 0.7f);
      rbm.layer_inputs(layer, states, dense_inputs, 0.7f);
      // |inputs| ≤ 0.7·(0.5 + 784·0.5): 2·784·ε·275 bounds the rounding of either order.
      EXPECT_LE((binary_inputs - dense_inputs).cwiseAbs().maxCoeff(), 2 * 784 * 1.2e-7 * 275) << density;
      rbm.binary_layer_inputs(layer, states, binary_inputs, 0.7f, {.binary = false});
      EXPECT_EQ(binary_inputs, dense_inputs);
    }
    const Matrix<float> probabilities = random_dense<float>(100, 500, 11).array() + 0.5f;
    const BasicStatistics<float> binary_statistics = binary_batch_statistics(visible, probabilities);
    const BasicStatistics<float> dense_statistics = batch_statistics(visible, probabilities);
    // Means of 100 terms in [0, 1].
    EXPECT_LE((binary_statistics.hidden_visible - dense_statistics.hidden_visible).cwiseAbs().maxCoeff(),
              2 * 100 * 1.2e-7);
    EXPECT_EQ(binary_statistics.visible, dense_statistics.visible);
    EXPECT_EQ(binary_statistics.hidden, dense_statistics.hidden);
  }
  Matrix<float> inputs;
  EXPECT_THROW(rbm.binary_layer_inputs(Layer::hidden, Matrix<float>::Constant(2, 784, 0.5f), inputs), InputError);
}

}  // namespace
}  // namespace rbmix
