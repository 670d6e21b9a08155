// Claim (001 §3): for an exact transition matrix A and 0 ≤ λ ≤ min_x A(x, x), λ < 1, the modified matrix
// A' = (A − λI)/(1 − λ) is stochastic, keeps π (πA' = π whenever πA = π), and maps every eigenvalue μ of A to
// (μ − λ)/(1 − λ) with the same multiplicity: (1 − λ)^N det(A' − νI) = det(A − (λ + (1 − λ)ν) I) for all ν.
// Checked exactly for A = G, T (sweeps) and G_h (a layer) on every RBM with 1–2 + 1–2 units and parameters in
// {log 1/2, 0, log 2}, with λ = min diagonal and half of it; the characteristic-polynomial identity (degree N,
// so N + 1 points decide it) with unbounded rationals for the 2-unit and 3-unit RBMs. Exit code 0 iff all hold.
#include <iostream>

#include "../common/exact_chain.hpp"

using namespace rbmix;

namespace {

template <typename Number>
proofs::ExactMatrix<Number> modified(const proofs::ExactMatrix<Number>& matrix, const Number& lambda) {
  proofs::ExactMatrix<Number> out = matrix;
  for (std::size_t x = 0; x < out.size(); ++x) {
    out[x][x] = out[x][x] - lambda;
    for (auto& entry : out[x]) entry = entry / (Number(1) - lambda);
  }
  return out;
}

template <typename Number>
Number min_diagonal(const proofs::ExactMatrix<Number>& matrix) {
  Number smallest = matrix[0][0];
  for (std::size_t x = 1; x < matrix.size(); ++x)
    if (matrix[x][x] < smallest) smallest = matrix[x][x];
  return smallest;
}

// det(M − shift·I) by exact Gaussian elimination.
template <typename Number>
Number shifted_determinant(proofs::ExactMatrix<Number> matrix, const Number& shift) {
  const std::size_t size = matrix.size();
  for (std::size_t x = 0; x < size; ++x) matrix[x][x] = matrix[x][x] - shift;
  Number determinant(1);
  for (std::size_t column = 0; column < size; ++column) {
    std::size_t pivot = column;
    while (pivot < size && matrix[pivot][column] == Number(0)) ++pivot;
    if (pivot == size) return Number(0);
    if (pivot != column) {
      std::swap(matrix[pivot], matrix[column]);
      determinant = -determinant;
    }
    determinant *= matrix[column][column];
    for (std::size_t row = column + 1; row < size; ++row) {
      const Number ratio = matrix[row][column] / matrix[column][column];
      if (ratio == Number(0)) continue;
      for (std::size_t k = column; k < size; ++k) matrix[row][k] = matrix[row][k] - ratio * matrix[column][k];
    }
  }
  return determinant;
}

struct Tally {
  std::uint64_t matrices = 0, failures = 0, spectra = 0, spectrum_failures = 0;
};

// A' stochastic with nonnegative entries and πA' = π (π unnormalised).
template <typename Number>
bool keeps_pi(const proofs::ExactRbm<Number>& rbm, const proofs::ExactMatrix<Number>& matrix) {
  for (std::uint64_t y = 0; y < rbm.states(); ++y) {
    Number row_sum(0), flow_in(0);
    for (std::uint64_t x = 0; x < rbm.states(); ++x) {
      if (matrix[y][x] < Number(0)) return false;
      row_sum += matrix[y][x];
      flow_in += rbm.unnormalised_probability(x) * matrix[x][y];
    }
    if (!(row_sum == Number(1)) || !(flow_in == rbm.unnormalised_probability(y))) return false;
  }
  return true;
}

template <typename Number>
bool maps_spectrum(const proofs::ExactMatrix<Number>& matrix, const proofs::ExactMatrix<Number>& changed,
                   const Number& lambda) {
  const std::size_t size = matrix.size();
  Number scale(1);
  for (std::size_t k = 0; k < size; ++k) scale *= Number(1) - lambda;
  for (int point = 0; point <= static_cast<int>(size); ++point) {
    const Number nu(point);
    if (!(scale * shifted_determinant(changed, nu) == shifted_determinant(matrix, lambda + (Number(1) - lambda) * nu)))
      return false;
  }
  return true;
}

template <typename Number>
void check_family(int max_units, bool spectra, Tally& tally) {
  const std::vector<Number> factors{Number(1, 2), Number(1), Number(2)};
  proofs::for_each_rbm<Number>(max_units, factors, [&](const proofs::ExactRbm<Number>& rbm) {
    if (spectra && rbm.states() > 8) return;
    const std::pair<const char*, proofs::ExactOperatorKind> cases[] = {
        {"gibbs", proofs::ExactOperatorKind::sweep},
        {"flip", proofs::ExactOperatorKind::sweep},
        {"gibbs", proofs::ExactOperatorKind::hidden_layer}};
    for (const auto& [name, kind] : cases) {
      const auto matrix = proofs::exact_transition_matrix(rbm, parse_unit_rule(name), kind);
      const Number smallest = min_diagonal(matrix);
      for (const Number& lambda : {smallest, smallest / Number(2)}) {
        if (!(lambda < Number(1))) continue;
        const auto changed = modified(matrix, lambda);
        if (spectra) {
          ++tally.spectra;
          if (!maps_spectrum(matrix, changed, lambda)) ++tally.spectrum_failures;
        } else {
          ++tally.matrices;
          if (!keeps_pi(rbm, changed)) ++tally.failures;
        }
      }
    }
  });
}

}  // namespace

int main() {
  Tally tally;
  check_family<proofs::Rational128>(2, false, tally);
  check_family<proofs::BigRational>(2, true, tally);
  std::cout << "pi kept, rows sum to 1, entries >= 0: " << tally.matrices << " modified matrices (G, T sweeps and "
            << "G hidden layer; lambda = min diagonal and half of it) over all RBMs up to 2+2 units: "
            << (tally.failures == 0 ? "hold for all" : "FAIL") << '\n'
            << "characteristic polynomial identity (1-l)^N det(A'-nu I) = det(A-(l+(1-l)nu) I) at N+1 points: "
            << tally.spectra
            << " matrices with N <= 8 states: " << (tally.spectrum_failures == 0 ? "holds for all" : "FAILS") << '\n';
  const bool holds = tally.failures == 0 && tally.spectrum_failures == 0 && tally.matrices > 0 && tally.spectra > 0;
  std::cout << (holds ? "claim holds on the family\n" : "claim FAILS\n");
  return holds ? 0 : 1;
}
