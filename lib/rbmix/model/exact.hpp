#pragma once
// Exact quantities of an RBM by enumerating one layer (docs/algorithms/operators.md §1, docs/algorithms/estimation.md
// §5):
//   log Z = log Σ_h exp(cᵀh + Σ_j softplus(b_j + W_{·j}ᵀh))   (or the same with the roles of the layers swapped).
// Enumeration walks the 2^k states of the enumerated layer in Gray-code order, so each step adds or subtracts one
// row of weights, and sums in log space (log-sum-exp) so that large weights neither overflow nor underflow.
// The state range is cut into a fixed number of blocks that threads share; the blocks are combined in order,
// so the result is the same whatever the thread count.
#include <cstdint>
#include <string>

#include "rbmix/model/rbm.hpp"
#include "rbmix/model/statistics.hpp"

namespace rbmix {

enum class EnumeratedLayer { automatic, visible, hidden };

// The layer that automatic enumeration picks: the smaller one (hidden on ties).
EnumeratedLayer smaller_layer(const Rbm& rbm);

// Largest layer size enumerate_* accept: 2^40 states is far beyond any sensible run.
inline constexpr int max_enumerated_units = 40;

// How exact_log_partition enumerates. `factored_where_safe`: where every input of the other layer is bounded by 700
// in magnitude (any realistic model), the states are enumerated in two parts whose exponentials multiply, so that a
// state costs no exponential per unit (exact.cpp, factored_log_partition); the result equals the plain
// enumeration's to rounding. `plain`: every state's term on its own, as tests and benchmarks compare the two.
enum class PartitionEnumeration { factored_where_safe, plain };

// log Z.
double exact_log_partition(const Rbm& rbm, EnumeratedLayer layer = EnumeratedLayer::automatic,
                           PartitionEnumeration enumeration = PartitionEnumeration::factored_where_safe);

// log p(v) = −F(v) − log Z for each row of `data`.
VectorD exact_log_probability(const Rbm& rbm, const MatrixD& data, double log_partition);
// Average log-likelihood of the rows of `data`.
double exact_average_log_likelihood(const Rbm& rbm, const MatrixD& data, double log_partition);

// Model statistics ⟨h vᵀ⟩, ⟨v⟩, ⟨h⟩ under p(v,h), by enumerating the smaller layer (tiny models).
Statistics exact_model_statistics(const Rbm& rbm);
// Data statistics with E[h|v] for the hidden side.
Statistics data_statistics(const Rbm& rbm, const MatrixD& data);
// Exact gradient of the average log-likelihood of `data`.
Rbm exact_log_likelihood_gradient(const Rbm& rbm, const MatrixD& data);

}  // namespace rbmix
