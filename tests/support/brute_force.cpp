#include "support/brute_force.hpp"

#include <cmath>
#include <vector>

namespace rbmix::testing {

Eigen::RowVectorXd bits_of(std::uint64_t index, Eigen::Index units) {
  Eigen::RowVectorXd bits(units);
  for (Eigen::Index k = 0; k < units; ++k) bits[k] = static_cast<double>((index >> k) & 1U);
  return bits;
}

long double brute_force_energy(const Rbm& rbm, const Eigen::RowVectorXd& v, const Eigen::RowVectorXd& h) {
  long double total = 0.0L;
  for (Eigen::Index i = 0; i < rbm.n_hidden(); ++i) {
    total -= static_cast<long double>(rbm.hidden_bias[i]) * h[i];
    for (Eigen::Index j = 0; j < rbm.n_visible(); ++j)
      total -= static_cast<long double>(rbm.weights(i, j)) * h[i] * v[j];
  }
  for (Eigen::Index j = 0; j < rbm.n_visible(); ++j) total -= static_cast<long double>(rbm.visible_bias[j]) * v[j];
  return total;
}

namespace {
std::vector<long double> all_joint_log_weights(const Rbm& rbm) {
  const std::uint64_t visible_states = std::uint64_t{1} << rbm.n_visible();
  const std::uint64_t hidden_states = std::uint64_t{1} << rbm.n_hidden();
  std::vector<long double> weights;
  for (std::uint64_t v = 0; v < visible_states; ++v)
    for (std::uint64_t h = 0; h < hidden_states; ++h)
      weights.push_back(-brute_force_energy(rbm, bits_of(v, rbm.n_visible()), bits_of(h, rbm.n_hidden())));
  return weights;
}

long double log_sum_exp(const std::vector<long double>& terms) {
  long double max = terms.front();
  for (long double t : terms) max = std::max(max, t);
  long double sum = 0.0L;
  for (long double t : terms) sum += std::exp(t - max);
  return max + std::log(sum);
}
}  // namespace

long double brute_force_log_partition(const Rbm& rbm) { return log_sum_exp(all_joint_log_weights(rbm)); }

Eigen::VectorXd brute_force_visible_marginal(const Rbm& rbm) {
  const std::uint64_t hidden_states = std::uint64_t{1} << rbm.n_hidden();
  const auto weights = all_joint_log_weights(rbm);
  const long double log_partition = log_sum_exp(weights);
  Eigen::VectorXd marginal = Eigen::VectorXd::Zero(Eigen::Index{1} << rbm.n_visible());
  for (std::size_t k = 0; k < weights.size(); ++k)
    marginal[static_cast<Eigen::Index>(k / hidden_states)] += static_cast<double>(std::exp(weights[k] - log_partition));
  return marginal;
}

}  // namespace rbmix::testing
