#pragma once
// Matrix products whose one operand is a matrix of 0/1 states (chain states, binarised data). Row r of B M is the
// sum of the rows of M that the ones of B's row r select, so the product costs (number of ones) × (row length)
// additions instead of the dense product's (size of B) × (row length) multiply-adds: at MNIST's 13 % ones about a
// seventh. Every layer update forms c + W v or b + Wᵀ h from states (docs/algorithms/operators.md §2) and every
// statistic ⟨h vᵀ⟩ multiplies by visible states (§1), so this is the hot path of training, sampling and AIS.
//
// Each output entry is the sum of its selected terms in one fixed order (the ones in increasing position, in four
// interleaved partial sums added as (s₀ + s₁) + (s₂ + s₃)), whatever the number of threads: the work is split over
// blocks of output columns, never inside a sum. The result equals the dense product to within rounding.
//
// The binary operand must hold only 0 and 1: the functions check it and throw InputError otherwise. Callers whose
// operand may be fractional (mean-field values, probabilities) use the dense product instead; nothing here guesses.
#include "rbmix/core/types.hpp"

namespace rbmix {

// The binary path is taken below a fraction of ones measured per product (binary_product.cpp names the thresholds
// and the measurements); at or above it Eigen's dense product is faster, and so it is for tiny products (below
// 2^14 multiply-adds) at any share of ones.

// The paths the products may take besides the plain one, both on by default. Tests and benchmarks turn one off for
// the products they name, to compare the two paths in one run.
struct ProductPaths {
  // The try_ products' 0/1 path. Off, they leave `out` alone and return false: the caller takes the dense product.
  bool binary = true;
  // Products whose binary operand has a single row (one chain) sum the other operand's rows where they lie instead
  // of packing a copy first. The sums are the same numbers in the same order, so this changes speed only.
  bool in_place = true;
};

// The fraction of ones in `binary`; InputError naming `what` if an entry is neither 0 nor 1. Zero for an empty
// matrix.
template <typename Scalar>
double binary_density(const Matrix<Scalar>& binary, const char* what);

// out = B M for B (r × k, 0/1) and M (k × c): row r of out sums the rows of M selected by row r of B.
template <typename Scalar>
void binary_times(const Matrix<Scalar>& binary, const Matrix<Scalar>& right, Matrix<Scalar>& out,
                  ProductPaths paths = {});

// out = B Mᵀ for B (r × k, 0/1) and M (c × k): row r of out sums the columns of M selected by row r of B.
// This is the hidden layer's W v with M = W.
template <typename Scalar>
void binary_times_transpose(const Matrix<Scalar>& binary, const Matrix<Scalar>& right, Matrix<Scalar>& out);

// out = Pᵀ B for P (r × c) and B (r × k, 0/1), written c × k: column j of out sums the rows of P selected by
// column j of B. This is the statistic Hᵀ V (n × m) with P = H and B = V, the visible states.
template <typename Scalar>
void transpose_times_binary(const Matrix<Scalar>& left, const Matrix<Scalar>& binary, Matrix<Scalar>& out);

// The same products where the binary path is faster: when `paths` allow it, the product is not tiny and `binary`'s
// share of ones is below the product's threshold for Scalar, they compute `out` and return true; otherwise they
// leave `out` alone and return false, and the caller takes Eigen's dense product. One pass over `binary` both checks
// that it holds only 0 and 1 (InputError naming `what`, when `paths` allow the binary path) and counts its ones. `what`
// is a plain string so that the check allocates nothing (chains' sweeps allocate nothing).
template <typename Scalar>
bool try_binary_times(const Matrix<Scalar>& binary, const Matrix<Scalar>& right, Matrix<Scalar>& out, const char* what,
                      ProductPaths paths = {});
// try_binary_times_transpose may be given `right_transposed`, a row-major copy of Mᵀ that the caller keeps (the
// transposed weights of a model held fixed for many sweeps, FixedRbm): for a single row of B it sums Mᵀ's
// contiguous rows in place of M's scattered columns — the same entries in the same order, so the same numbers.
// Its shape is checked (InputError naming `what`); that it holds Mᵀ is the caller's promise.
template <typename Scalar>
bool try_binary_times_transpose(const Matrix<Scalar>& binary, const Matrix<Scalar>& right, Matrix<Scalar>& out,
                                const char* what, const Matrix<Scalar>* right_transposed = nullptr,
                                ProductPaths paths = {});
// try_transpose_times_binary stores every entry times `scale` (⟨h vᵀ⟩'s 1/B): the same numbers as scaling `out`
// afterwards.
template <typename Scalar>
bool try_transpose_times_binary(const Matrix<Scalar>& left, const Matrix<Scalar>& binary, Matrix<Scalar>& out,
                                const char* what, Scalar scale = Scalar(1), ProductPaths paths = {});

}  // namespace rbmix
