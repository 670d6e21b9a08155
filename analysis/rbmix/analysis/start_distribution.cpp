#include "rbmix/analysis/start_distribution.hpp"

#include "rbmix/core/decay.hpp"
#include "rbmix/core/error.hpp"
#include "rbmix/data/datasets.hpp"
#include "rbmix/io/binary_data_file.hpp"

namespace rbmix::analysis {
namespace {

constexpr std::string_view data_prefix = "data:";

// p(h_i = 1 | v) = σ(β(c_i + W_i·v)) for every hidden unit.
VectorD hidden_probabilities(const Rbm& rbm, double inverse_temperature, const VectorD& visible) {
  const VectorD inputs = inverse_temperature * (rbm.hidden_bias + rbm.weights * visible);
  VectorD probabilities(inputs.size());
  for (Eigen::Index i = 0; i < inputs.size(); ++i)
    probabilities[i] = logistic_from_decay(inputs[i], std::exp(-std::abs(inputs[i])));
  return probabilities;
}

}  // namespace

StartDistribution parse_start_distribution(std::string_view text) {
  using Kind = StartDistribution::Kind;
  if (text == "zeros") return {Kind::zeros, {}, {}};
  if (text == "ones") return {Kind::ones, {}, {}};
  if (text == "uniform") return {Kind::uniform, {}, {}};
  if (text.starts_with(data_prefix) && text.size() > data_prefix.size()) {
    const std::string file(text.substr(data_prefix.size()));
    return {Kind::data, to_real(load_binary_matrix(file)), file};
  }
  throw InputError("start distribution '" + std::string(text) +
                   "': expected zeros, ones, uniform or data:FILE (a file of 0/1 rows)");
}

std::string to_string(const StartDistribution& start) {
  switch (start.kind) {
    case StartDistribution::Kind::zeros:
      return "zeros";
    case StartDistribution::Kind::ones:
      return "ones";
    case StartDistribution::Kind::uniform:
      return "uniform";
    case StartDistribution::Kind::data:
      return std::string(data_prefix) + start.data_file;
  }
  return {};
}

void validate_start_distribution(const StartDistribution& start, const Rbm& rbm) {
  if (start.kind != StartDistribution::Kind::data) return;
  require(start.data_rows.rows() > 0, "start distribution " + to_string(start) + ": the file has no rows");
  require(start.data_rows.cols() == rbm.n_visible(), [&] {
    return "start distribution " + to_string(start) + ": rows of " + std::to_string(start.data_rows.cols()) +
           " units, but the model has " + std::to_string(rbm.n_visible()) + " visible units";
  });
}

void draw_start_state(const StartDistribution& start, const Rbm& rbm, double inverse_temperature, RandomStream& stream,
                      double* visible, double* hidden) {
  const Eigen::Index m = rbm.n_visible(), n = rbm.n_hidden();
  switch (start.kind) {
    case StartDistribution::Kind::zeros:
    case StartDistribution::Kind::ones: {
      const double value = start.kind == StartDistribution::Kind::ones ? 1.0 : 0.0;
      std::fill(visible, visible + m, value);
      std::fill(hidden, hidden + n, value);
      return;
    }
    case StartDistribution::Kind::uniform:
      for (Eigen::Index j = 0; j < m; ++j) visible[j] = stream.uniform() < 0.5 ? 1.0 : 0.0;
      for (Eigen::Index i = 0; i < n; ++i) hidden[i] = stream.uniform() < 0.5 ? 1.0 : 0.0;
      return;
    case StartDistribution::Kind::data: {
      const auto row = static_cast<Eigen::Index>(stream.below(static_cast<std::uint64_t>(start.data_rows.rows())));
      const VectorD v = start.data_rows.row(row).transpose();
      const VectorD p = hidden_probabilities(rbm, inverse_temperature, v);
      std::copy(v.data(), v.data() + m, visible);
      for (Eigen::Index i = 0; i < n; ++i) hidden[i] = stream.uniform() < p[i] ? 1.0 : 0.0;
      return;
    }
  }
}

VectorD exact_start_distribution(const StartDistribution& start, const Rbm& rbm, double inverse_temperature) {
  const JointStateSpace space(rbm);
  const auto size = static_cast<Eigen::Index>(space.size());
  VectorD distribution = VectorD::Zero(size);
  switch (start.kind) {
    case StartDistribution::Kind::zeros:
      distribution[0] = 1.0;
      break;
    case StartDistribution::Kind::ones:
      distribution[size - 1] = 1.0;
      break;
    case StartDistribution::Kind::uniform:
      distribution.setConstant(1.0 / static_cast<double>(size));
      break;
    case StartDistribution::Kind::data: {
      const double row_weight = 1.0 / static_cast<double>(start.data_rows.rows());
      for (Eigen::Index row = 0; row < start.data_rows.rows(); ++row) {
        const VectorD v = start.data_rows.row(row).transpose();
        std::uint64_t visible = 0;
        for (Eigen::Index j = 0; j < v.size(); ++j) visible |= static_cast<std::uint64_t>(v[j] != 0.0) << j;
        const VectorD p = hidden_probabilities(rbm, inverse_temperature, v);
        for (std::uint64_t h = 0; h < space.hidden_states(); ++h) {
          double probability = row_weight;
          for (int i = 0; i < space.n_hidden(); ++i)
            probability *= JointStateSpace::bit(h, i) != 0.0 ? p[i] : 1.0 - p[i];
          distribution[static_cast<Eigen::Index>(space.index(visible, h))] += probability;
        }
      }
      break;
    }
  }
  return distribution;
}

}  // namespace rbmix::analysis
