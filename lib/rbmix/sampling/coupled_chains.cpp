#include "rbmix/sampling/coupled_chains.hpp"

namespace rbmix {

template <typename Scalar>
CoupledChains<Scalar>::CoupledChains(Eigen::Index pairs, Eigen::Index n_visible, Eigen::Index n_hidden,
                                     Eigen::Index maximal_coupling_distance, std::uint64_t seed,
                                     std::uint64_t first_stream)
    : maximal_coupling_distance_(maximal_coupling_distance),
      first_visible_(Matrix<Scalar>::Zero(pairs, n_visible)),
      first_hidden_(Matrix<Scalar>::Zero(pairs, n_hidden)),
      second_visible_(Matrix<Scalar>::Zero(pairs, n_visible)),
      second_hidden_(Matrix<Scalar>::Zero(pairs, n_hidden)) {
  require(pairs > 0, "CoupledChains: the number of pairs must be positive");
  streams_.reserve(static_cast<std::size_t>(pairs));
  for (Eigen::Index pair = 0; pair < pairs; ++pair)
    streams_.emplace_back(seed, first_stream + static_cast<std::uint64_t>(pair), StreamDomain::chains);
}

template <typename Scalar>
Eigen::Index CoupledChains<Scalar>::distance(Eigen::Index pair) const {
  return (first_visible_.row(pair).array() != second_visible_.row(pair).array()).count() +
         (first_hidden_.row(pair).array() != second_hidden_.row(pair).array()).count();
}

template <typename Scalar>
void CoupledChains<Scalar>::share_equal_inputs(Layer layer) {
  const Matrix<Scalar>& first = conditioning(layer, CoupledChain::first);
  const Matrix<Scalar>& second = conditioning(layer, CoupledChain::second);
  for (Eigen::Index pair = 0; pair < pairs(); ++pair)
    if (first.row(pair) == second.row(pair)) second_inputs_.row(pair) = first_inputs_.row(pair);
}

template <typename Scalar>
void CoupledChains<Scalar>::draw_coupled(Layer layer) {
  Matrix<Scalar>& first = updated(layer, CoupledChain::first);
  Matrix<Scalar>& second = updated(layer, CoupledChain::second);
  const Eigen::Index units = first.cols();
  // Each pair draws from its own stream only, so the split over threads changes no number.
  const bool parallel = pairs() * units >= parallel_layer_threshold;
#pragma omp parallel if (parallel)
  {
    std::vector<Eigen::Index> differing;
#pragma omp for schedule(static)
    for (Eigen::Index pair = 0; pair < pairs(); ++pair) {
      const bool maximal = distance(pair) <= maximal_coupling_distance_;
      draw_coupled_layer(first_probabilities_.row(pair).data(), second_probabilities_.row(pair).data(),
                         first.row(pair).data(), second.row(pair).data(), units, maximal,
                         streams_[static_cast<std::size_t>(pair)], differing);
    }
  }
}

template class CoupledChains<float>;
template class CoupledChains<double>;

}  // namespace rbmix
