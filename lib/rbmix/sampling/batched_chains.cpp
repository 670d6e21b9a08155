#include "rbmix/sampling/batched_chains.hpp"

namespace rbmix {

template <typename Scalar>
BatchedChains<Scalar>::BatchedChains(Eigen::Index chains, Eigen::Index n_visible, Eigen::Index n_hidden,
                                     std::uint64_t seed, std::uint64_t first_stream)
    : visible_(Matrix<Scalar>::Zero(chains, n_visible)),
      hidden_(Matrix<Scalar>::Zero(chains, n_hidden)),
      hidden_inputs_(chains, n_hidden),
      visible_inputs_(chains, n_visible) {
  require(chains > 0, "BatchedChains: the number of chains must be positive");
  streams_.reserve(static_cast<std::size_t>(chains));
  for (Eigen::Index chain = 0; chain < chains; ++chain)
    streams_.emplace_back(seed, first_stream + static_cast<std::uint64_t>(chain), StreamDomain::chains);
}

// The built-in rules: one dispatch per layer into the concrete templates of the header.
template <typename Scalar>
void BatchedChains<Scalar>::update_hidden(const BasicRbm<Scalar>& rbm, const UnitRule& rule,
                                          Scalar inverse_temperature) {
  std::visit([&](const auto& concrete) { update_hidden(rbm, concrete, inverse_temperature); }, rule);
}

template <typename Scalar>
void BatchedChains<Scalar>::update_visible(const BasicRbm<Scalar>& rbm, const UnitRule& rule,
                                           Scalar inverse_temperature) {
  std::visit([&](const auto& concrete) { update_visible(rbm, concrete, inverse_temperature); }, rule);
}

template <typename Scalar>
void BatchedChains<Scalar>::update_hidden(const FixedRbm<Scalar>& rbm, const UnitRule& rule,
                                          Scalar inverse_temperature) {
  std::visit([&](const auto& concrete) { update_hidden(rbm, concrete, inverse_temperature); }, rule);
}

template <typename Scalar>
void BatchedChains<Scalar>::update_visible(const FixedRbm<Scalar>& rbm, const UnitRule& rule,
                                           Scalar inverse_temperature) {
  std::visit([&](const auto& concrete) { update_visible(rbm, concrete, inverse_temperature); }, rule);
}

template <typename Scalar>
void BatchedChains<Scalar>::sweep(const FixedRbm<Scalar>& rbm, const UnitRule& rule, Scalar inverse_temperature) {
  update_hidden(rbm, rule, inverse_temperature);
  update_visible(rbm, rule, inverse_temperature);
}

template <typename Scalar>
void BatchedChains<Scalar>::sample_from_inputs(Layer layer, const Matrix<Scalar>& inputs, const UnitRule& rule) {
  std::visit([&](const auto& concrete) { sample_from_inputs(layer, inputs, concrete); }, rule);
}

template <typename Scalar>
void BatchedChains<Scalar>::sweep(const BasicRbm<Scalar>& rbm, const UnitRule& rule, Scalar inverse_temperature) {
  update_hidden(rbm, rule, inverse_temperature);
  update_visible(rbm, rule, inverse_temperature);
}

template class BatchedChains<float>;
template class BatchedChains<double>;

}  // namespace rbmix
