#include "rbmix/verify/generators.hpp"

namespace rbmix::verify {
namespace {
// rapidcheck has no bounded real generator; draw a fine integer grid and scale it.
rc::Gen<double> uniform_real(double scale) {
  constexpr int resolution = 1 << 20;
  return rc::gen::map(rc::gen::inRange(-resolution, resolution + 1),
                      [scale](int k) { return scale * static_cast<double>(k) / resolution; });
}

rc::Gen<std::vector<double>> reals(std::size_t count, double scale) {
  return rc::gen::container<std::vector<double>>(count, uniform_real(scale));
}

Rbm from_values(int n_visible, int n_hidden, const std::vector<double>& values) {
  Rbm rbm(n_visible, n_hidden);
  std::size_t k = 0;
  for (int i = 0; i < n_hidden; ++i)
    for (int j = 0; j < n_visible; ++j) rbm.weights(i, j) = values[k++];
  for (int j = 0; j < n_visible; ++j) rbm.visible_bias[j] = values[k++];
  for (int i = 0; i < n_hidden; ++i) rbm.hidden_bias[i] = values[k++];
  return rbm;
}
}  // namespace

rc::Gen<Rbm> arbitrary_rbm(int n_visible, int n_hidden, double scale) {
  const auto count = static_cast<std::size_t>(n_visible * n_hidden + n_visible + n_hidden);
  return rc::gen::map(reals(count, scale),
                      [=](const std::vector<double>& values) { return from_values(n_visible, n_hidden, values); });
}

rc::Gen<Rbm> arbitrary_tiny_rbm(int max_units, double scale) {
  return rc::gen::mapcat(
      rc::gen::pair(rc::gen::inRange(1, max_units + 1), rc::gen::inRange(1, max_units + 1)),
      [=](const std::pair<int, int>& sizes) { return arbitrary_rbm(sizes.first, sizes.second, scale); });
}

rc::Gen<Rbm> arbitrary_tied_rbm(int max_units, int max_weight) {
  return rc::gen::mapcat(
      rc::gen::pair(rc::gen::inRange(1, max_units + 1), rc::gen::inRange(1, max_units + 1)),
      [=](const std::pair<int, int>& sizes) {
        const auto count = static_cast<std::size_t>(sizes.first * sizes.second);
        return rc::gen::map(rc::gen::container<std::vector<int>>(count, rc::gen::inRange(-max_weight, max_weight + 1)),
                            [=](const std::vector<int>& weights) {
                              Rbm rbm(sizes.first, sizes.second);
                              for (int i = 0; i < sizes.second; ++i)
                                for (int j = 0; j < sizes.first; ++j)
                                  rbm.weights(i, j) = weights[static_cast<std::size_t>(i * sizes.first + j)];
                              return rbm;
                            });
      });
}

rc::Gen<RuleContractInput> arbitrary_rule_contract_input(double largest_input) {
  const auto magnitude = rc::gen::map(rc::gen::inRange(1, 4001), [=](int k) { return k * largest_input / 4000; });
  return rc::gen::apply(
      [](int sign, double x, double other, double decay) {
        const double s = sign == 0 ? -1.0 : 1.0;
        return RuleContractInput{s * x, s * other, decay};
      },
      rc::gen::inRange(0, 2), magnitude, magnitude,
      rc::gen::map(rc::gen::inRange(1, 1000), [](int k) { return k / 1000.0; }));
}

}  // namespace rbmix::verify
