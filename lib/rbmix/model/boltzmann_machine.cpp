#include "rbmix/model/boltzmann_machine.hpp"

#include "rbmix/core/error.hpp"

namespace rbmix {

BoltzmannMachine BoltzmannMachine::zeros(Eigen::Index units) {
  require(units >= 1, "Boltzmann machine: the number of units must be at least 1, got " + std::to_string(units));
  return {MatrixD::Zero(units, units), VectorD::Zero(units)};
}

double BoltzmannMachine::negative_energy(const VectorD& state) const {
  return 0.5 * state.dot(couplings * state) + biases.dot(state);
}

void BoltzmannMachine::validate(const std::string& name) const {
  const Eigen::Index n = size();
  require(n >= 1, name + ": the model has no units");
  require(couplings.rows() == n && couplings.cols() == n, name + ": couplings are " + std::to_string(couplings.rows()) +
                                                              " × " + std::to_string(couplings.cols()) +
                                                              " but there are " + std::to_string(n) + " biases");
  require(couplings.allFinite() && biases.allFinite(), name + ": a coupling or bias is not finite");
  for (Eigen::Index i = 0; i < n; ++i) {
    require(couplings(i, i) == 0.0, name + ": coupling (" + std::to_string(i) + ", " + std::to_string(i) +
                                        ") is on the diagonal and must be 0");
    for (Eigen::Index j = 0; j < i; ++j)
      require(couplings(i, j) == couplings(j, i),
              name + ": couplings are not symmetric at (" + std::to_string(i) + ", " + std::to_string(j) + ")");
  }
}

BoltzmannMachineStatistics empirical_statistics(const BinaryMatrix& data, const std::string& name) {
  require(data.rows() >= 1, name + ": the data set has no rows");
  require((data.array() <= 1).all(), name + ": every entry must be 0 or 1");
  return empirical_statistics(MatrixD(data.cast<double>()));
}

BoltzmannMachineStatistics empirical_statistics(const MatrixD& states) {
  const double count = static_cast<double>(states.rows());
  MatrixD second_moments = (states.transpose() * states) / count;
  VectorD means = states.colwise().sum().transpose() / count;
  return {std::move(second_moments), std::move(means)};
}

BoltzmannMachineGradient statistics_difference(const BoltzmannMachineStatistics& positive,
                                               const BoltzmannMachineStatistics& negative) {
  MatrixD couplings = positive.second_moments - negative.second_moments;
  couplings.diagonal().setZero();
  // Round-off in the two products can differ between ij and ji; the mean keeps J exactly symmetric after a step.
  couplings = (0.5 * (couplings + couplings.transpose())).eval();
  return {std::move(couplings), positive.means - negative.means};
}

void apply_step(BoltzmannMachine& model, const BoltzmannMachineGradient& gradient, double step) {
  model.couplings += step * gradient.couplings;
  model.biases += step * gradient.biases;
}

}  // namespace rbmix
