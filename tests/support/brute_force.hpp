#pragma once
// Independent answers for tests: brute force over all 2^{m+n} joint states in long double, with no shared code
// path with the library's Gray-code enumeration.
#include <cstdint>

#include "rbmix/model/rbm.hpp"

namespace rbmix::testing {

// The bits of `index` as a 0/1 row of length `units` (bit k ↦ unit k).
Eigen::RowVectorXd bits_of(std::uint64_t index, Eigen::Index units);

// E(v, h) = −hᵀWv − bᵀv − cᵀh summed term by term in long double.
long double brute_force_energy(const Rbm& rbm, const Eigen::RowVectorXd& v, const Eigen::RowVectorXd& h);

// log Z = log Σ_{v,h} e^{−E(v,h)} in long double.
long double brute_force_log_partition(const Rbm& rbm);
// p(v) for all 2^m visible states, index v = Σ_j v_j 2^j.
Eigen::VectorXd brute_force_visible_marginal(const Rbm& rbm);

}  // namespace rbmix::testing
