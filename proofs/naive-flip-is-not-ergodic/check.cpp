// Claim: the naive Metropolis flip (always flip at a tie x = 0) keeps π invariant but is not ergodic in general;
// the failures come from ties, because off ties it equals flip-the-state, which is ergodic (003 §3.2–3.3).
// The check searches every RBM with 1–2 visible and 1–2 hidden units and parameters in {log 1/2, 0, log 2}, in
// exact arithmetic, prints counterexamples with their tied units, and exits 0 iff (a) counterexamples exist,
// among them W = 0, b = c = 0 with period 2, (b) every counterexample has a tie and flip-the-state is ergodic on
// it, and (c) the naive sweep keeps π on the whole family.
#include <iostream>
#include <sstream>

#include "../common/exact_chain.hpp"
#include "rbmix/analysis/ergodicity.hpp"

using namespace rbmix;
using Number = proofs::Rational128;

namespace {

analysis::ErgodicityReport exact_ergodicity(const proofs::ExactRbm<Number>& rbm, const UnitRule& rule,
                                            proofs::ExactMatrix<Number>* sweep_out = nullptr) {
  auto sweep = proofs::exact_transition_matrix(rbm, rule, proofs::ExactOperatorKind::sweep);
  const auto pattern = proofs::positive_pattern(sweep);
  if (sweep_out) *sweep_out = std::move(sweep);
  return analysis::analyse_ergodicity(analysis::PatternGraph(pattern));
}

bool keeps_pi(const proofs::ExactRbm<Number>& rbm, const proofs::ExactMatrix<Number>& sweep) {
  for (std::uint64_t y = 0; y < rbm.states(); ++y) {
    Number flow_in(0);
    for (std::uint64_t x = 0; x < rbm.states(); ++x) flow_in += rbm.unnormalised_probability(x) * sweep[x][y];
    if (!(flow_in == rbm.unnormalised_probability(y))) return false;
  }
  return true;
}

// "hidden unit 0 at v=01" for every (unit, conditioning state) whose input is exactly 0.
std::string tied_units(const proofs::ExactRbm<Number>& rbm) {
  std::ostringstream out;
  for (std::uint64_t v = 0; v < (std::uint64_t{1} << rbm.n_visible); ++v)
    for (int i = 0; i < rbm.n_hidden; ++i)
      if (rbm.hidden_input_factor(i, v) == Number(1)) out << " h" << i << "|v=" << v;
  for (std::uint64_t h = 0; h < (std::uint64_t{1} << rbm.n_hidden); ++h)
    for (int j = 0; j < rbm.n_visible; ++j)
      if (rbm.visible_input_factor(j, h) == Number(1)) out << " v" << j << "|h=" << h;
  return out.str();
}

std::string describe(const proofs::ExactRbm<Number>& rbm) {
  std::ostringstream out;
  out << rbm.n_visible << "+" << rbm.n_hidden << " e^W=[";
  for (const auto& f : rbm.weight_factors) out << ' ' << f;
  out << " ] e^b=[";
  for (const auto& f : rbm.visible_factors) out << ' ' << f;
  out << " ] e^c=[";
  for (const auto& f : rbm.hidden_factors) out << ' ' << f;
  out << " ]";
  return out.str();
}

}  // namespace

int main() {
  const std::vector<Number> factors{Number(1, 2), Number(1), Number(2)};
  std::uint64_t counterexamples = 0, printed = 0, pi_failures = 0, unexplained = 0;
  bool all_zero_model_found = false;
  const std::uint64_t rbms = proofs::for_each_rbm<Number>(2, factors, [&](const proofs::ExactRbm<Number>& rbm) {
    proofs::ExactMatrix<Number> sweep;
    const analysis::ErgodicityReport naive = exact_ergodicity(rbm, NaiveFlipRule{}, &sweep);
    if (!keeps_pi(rbm, sweep)) ++pi_failures;
    if (naive.ergodic()) return;
    ++counterexamples;
    const std::string ties = tied_units(rbm);
    const bool flip_ergodic = exact_ergodicity(rbm, FlipTheStateRule{}).ergodic();
    if (ties.empty() || !flip_ergodic) ++unexplained;
    bool all_zero = true;
    for (const auto* group : {&rbm.weight_factors, &rbm.visible_factors, &rbm.hidden_factors})
      for (const auto& f : *group) all_zero = all_zero && f == Number(1);
    if (all_zero && naive.period == 2) all_zero_model_found = true;
    if (printed < 6 || all_zero) {
      ++printed;
      std::cout << "counterexample " << describe(rbm) << ": " << naive.communicating_classes << " classes, period "
                << naive.period << (all_zero ? "  [W = 0, b = c = 0]" : "") << "\n  ties:" << ties
                << "\n  flip-the-state on the same RBM: " << (flip_ergodic ? "ergodic" : "NOT ergodic") << '\n';
    }
  });
  std::cout << "searched " << rbms << " RBMs: naive flip is not ergodic on " << counterexamples
            << "; every one has a tie and flip-the-state is ergodic on it: " << (unexplained == 0 ? "yes" : "NO")
            << "\nnaive flip keeps pi exactly on all " << rbms << ": " << (pi_failures == 0 ? "yes" : "NO")
            << "\nW = 0, b = c = 0 found with period 2: " << (all_zero_model_found ? "yes" : "NO") << '\n';
  const bool holds = counterexamples > 0 && unexplained == 0 && pi_failures == 0 && all_zero_model_found;
  std::cout << (holds ? "claim holds on the family\n" : "claim FAILS\n");
  return holds ? 0 : 1;
}
