#pragma once
// Exact transition matrices of tiny RBMs whose parameters are logarithms of rationals, for the proof checks.
// An RBM is given multiplicatively: factor e^{W_ij}, e^{b_j}, e^{c_i}. Then every quantity the unit rules need is
// rational: e^{x} of a unit's total input is a product of factors, sign(x) compares it with 1, and
// e^{−|x|} = min(e^{x}, e^{−x}). The library's own rule templates (lib/rbmix/sampling/unit_rule.hpp) are evaluated
// on these exact numbers — the proof checks the very definitions the sampler and the exact builder use. Any rule
// whose probability_of_one is a template over the number type (ExactUnitRule) can be checked the same way.
#include <concepts>
#include <cstdint>
#include <functional>
#include <variant>
#include <vector>

#include "exact_rational.hpp"
#include "rbmix/analysis/transition_matrix.hpp"
#include "rbmix/sampling/unit_rule.hpp"

namespace rbmix::proofs {

template <typename Number>
struct ExactRbm {
  int n_visible = 0;
  int n_hidden = 0;
  std::vector<Number> weight_factors;   // e^{W_ij}, row-major, n_hidden × n_visible
  std::vector<Number> visible_factors;  // e^{b_j}
  std::vector<Number> hidden_factors;   // e^{c_i}

  std::uint64_t states() const { return std::uint64_t{1} << (n_visible + n_hidden); }
  static int bit(std::uint64_t state, int k) { return static_cast<int>((state >> k) & 1U); }
  std::uint64_t visible(std::uint64_t x) const { return x & ((std::uint64_t{1} << n_visible) - 1); }
  std::uint64_t hidden(std::uint64_t x) const { return x >> n_visible; }

  // e^{x} for hidden unit i given visible state v, or for visible unit j given hidden state h.
  Number hidden_input_factor(int i, std::uint64_t v) const {
    Number factor = hidden_factors[static_cast<std::size_t>(i)];
    for (int j = 0; j < n_visible; ++j)
      if (bit(v, j)) factor *= weight_factors[static_cast<std::size_t>(i * n_visible + j)];
    return factor;
  }
  Number visible_input_factor(int j, std::uint64_t h) const {
    Number factor = visible_factors[static_cast<std::size_t>(j)];
    for (int i = 0; i < n_hidden; ++i)
      if (bit(h, i)) factor *= weight_factors[static_cast<std::size_t>(i * n_visible + j)];
    return factor;
  }
  // e^{x} for unit `unit` of the joint state x (units 0..m−1 visible, then hidden), given the other layer.
  Number input_factor(std::uint64_t x, int unit) const {
    return unit >= n_visible ? hidden_input_factor(unit - n_visible, visible(x)) : visible_input_factor(unit, hidden(x));
  }
  // e^{−E(x)} (unnormalised π): the product of the factors of the active terms.
  Number unnormalised_probability(std::uint64_t x) const {
    Number weight(1);
    const std::uint64_t v = visible(x), h = hidden(x);
    for (int j = 0; j < n_visible; ++j)
      if (bit(v, j)) weight *= visible_factors[static_cast<std::size_t>(j)];
    for (int i = 0; i < n_hidden; ++i) {
      if (!bit(h, i)) continue;
      weight *= hidden_factors[static_cast<std::size_t>(i)];
      for (int j = 0; j < n_visible; ++j)
        if (bit(v, j)) weight *= weight_factors[static_cast<std::size_t>(i * n_visible + j)];
    }
    return weight;
  }
};

// A rule the proofs can evaluate: its probability_of_one is a template that also runs on the exact Number (every
// built-in rule is; a user's own rule is when written the same way).
template <typename Rule, typename Number>
concept ExactUnitRule = ConcreteUnitRule<Rule> && requires(const Rule& rule, const Number& value) {
  { rule.probability_of_one(value, value, value) } -> std::convertible_to<Number>;
};

// P(next | current) of one unit whose input has exponential `input_factor` = e^{x}, by the rule's own definition.
template <typename Number, typename Rule>
requires ExactUnitRule<Rule, Number> Number unit_step_probability(const Rule& rule, const Number& input_factor,
                                                                  int current, int next) {
  const Number one(1);
  const Number sign = input_factor > one ? one : (input_factor < one ? -one : Number(0));
  const Number decay = input_factor > one ? one / input_factor : input_factor;  // e^{−|x|}
  const Number p_one = rule.probability_of_one(sign, Number(current), decay);
  return next == 1 ? p_one : one - p_one;
}
// The same for whichever built-in rule `rule` holds.
template <typename Number>
Number unit_step_probability(const UnitRule& rule, const Number& input_factor, int current, int next) {
  return std::visit([&](const auto& concrete) { return unit_step_probability(concrete, input_factor, current, next); },
                    rule);
}

// Detailed balance of one unit's step in the joint state x: π(x) P(x → x^u) = π(x^u) P(x^u → x), where x^u is x with
// unit u flipped (the unit's input does not depend on its own state, so both steps see the same factor).
template <typename Number, typename Rule>
bool unit_step_is_reversible(const ExactRbm<Number>& rbm, const Rule& rule, std::uint64_t x, int unit) {
  const Number factor = rbm.input_factor(x, unit);
  const std::uint64_t flipped = x ^ (std::uint64_t{1} << unit);
  const int s = rbm.bit(x, unit);
  return rbm.unnormalised_probability(x) * unit_step_probability(rule, factor, s, 1 - s) ==
         rbm.unnormalised_probability(flipped) * unit_step_probability(rule, factor, 1 - s, s);
}

template <typename Number>
using ExactMatrix = std::vector<std::vector<Number>>;

// K_h (layer = hidden), K_v (layer = visible) or, with both, the sweep K = K_h K_v, entry by entry as products
// of unit steps (z = (v_x, h_y) is the only intermediate state of x → y).
enum class ExactOperatorKind { hidden_layer, visible_layer, sweep };

// `rule` is UnitRule or any ExactUnitRule.
template <typename Number, typename Rule>
ExactMatrix<Number> exact_transition_matrix(const ExactRbm<Number>& rbm, const Rule& rule, ExactOperatorKind kind) {
  const std::uint64_t size = rbm.states();
  ExactMatrix<Number> matrix(size, std::vector<Number>(size, Number(0)));
  const auto hidden_step = [&](std::uint64_t v, std::uint64_t h, std::uint64_t next_h) {
    Number p(1);
    for (int i = 0; i < rbm.n_hidden; ++i)
      p *= unit_step_probability(rule, rbm.hidden_input_factor(i, v), rbm.bit(h, i), rbm.bit(next_h, i));
    return p;
  };
  const auto visible_step = [&](std::uint64_t h, std::uint64_t v, std::uint64_t next_v) {
    Number p(1);
    for (int j = 0; j < rbm.n_visible; ++j)
      p *= unit_step_probability(rule, rbm.visible_input_factor(j, h), rbm.bit(v, j), rbm.bit(next_v, j));
    return p;
  };
  for (std::uint64_t x = 0; x < size; ++x)
    for (std::uint64_t y = 0; y < size; ++y) {
      const std::uint64_t v = rbm.visible(x), h = rbm.hidden(x), next_v = rbm.visible(y), next_h = rbm.hidden(y);
      if (kind == ExactOperatorKind::hidden_layer && v == next_v) matrix[x][y] = hidden_step(v, h, next_h);
      if (kind == ExactOperatorKind::visible_layer && h == next_h) matrix[x][y] = visible_step(h, v, next_v);
      if (kind == ExactOperatorKind::sweep) matrix[x][y] = hidden_step(v, h, next_h) * visible_step(next_h, v, next_v);
    }
  return matrix;
}

// Every RBM with n_visible, n_hidden ∈ [1, max_units] and each factor drawn from `factors` (so 1 = a zero
// parameter, and products of 2 and 1/2 give exact ties x = 0). Calls visit(rbm) for each.
template <typename Number>
std::uint64_t for_each_rbm(int max_units, const std::vector<Number>& factors,
                           const std::function<void(const ExactRbm<Number>&)>& visit) {
  std::uint64_t count = 0;
  for (int m = 1; m <= max_units; ++m)
    for (int n = 1; n <= max_units; ++n) {
      const auto parameters = static_cast<std::size_t>(m * n + m + n);
      std::vector<std::size_t> choice(parameters, 0);
      for (;;) {
        ExactRbm<Number> rbm;
        rbm.n_visible = m;
        rbm.n_hidden = n;
        std::size_t k = 0;
        for (int p = 0; p < m * n; ++p) rbm.weight_factors.push_back(factors[choice[k++]]);
        for (int j = 0; j < m; ++j) rbm.visible_factors.push_back(factors[choice[k++]]);
        for (int i = 0; i < n; ++i) rbm.hidden_factors.push_back(factors[choice[k++]]);
        visit(rbm);
        ++count;
        std::size_t digit = 0;
        while (digit < parameters && ++choice[digit] == factors.size()) choice[digit++] = 0;
        if (digit == parameters) break;
      }
    }
  return count;
}

// The structural pattern (entries > 0) as the analysis library's dense pattern type.
template <typename Number>
analysis::TransitionPattern positive_pattern(const ExactMatrix<Number>& matrix) {
  const auto size = static_cast<Eigen::Index>(matrix.size());
  analysis::TransitionPattern pattern(size, size);
  for (Eigen::Index x = 0; x < size; ++x)
    for (Eigen::Index y = 0; y < size; ++y)
      pattern(x, y) = matrix[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)] > Number(0);
  return pattern;
}

}  // namespace rbmix::proofs
