#pragma once
// Draws from rows of a dense transition matrix, alone and maximally coupled (docs/algorithms/convergence-bounds.md
// §6.8): what couples two chains of an operator given only as a matrix, such as the whole-sweep modified matrix of 001
// §3, whose step is no product of unit rules. A maximal coupling of the rows p and q of two states agrees with
// probability w = Σ_z min(p(z), q(z)) = 1 − d_TV(p, q), the most any coupling can: with probability w both chains move
// to one draw of min(p, q)/w, otherwise each to a draw of its own residual, (p − q)⁺/(1 − w) and (q − p)⁺/(1 − w).
#include <cstdint>
#include <utility>

#include "rbmix/core/types.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix::analysis {

// A state z drawn from row `from` of `matrix` (row-stochastic), by the inverse CDF of one uniform.
Eigen::Index draw_from_row(const MatrixD& matrix, Eigen::Index from, RandomStream& stream);

// The next states of two chains at `first` and `second`, maximally coupled; equal states move together.
std::pair<Eigen::Index, Eigen::Index> draw_coupled_rows(const MatrixD& matrix, Eigen::Index first, Eigen::Index second,
                                                        RandomStream& stream);

}  // namespace rbmix::analysis
