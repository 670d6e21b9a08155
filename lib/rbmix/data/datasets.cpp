#include "rbmix/data/datasets.hpp"

#include <cmath>
#include <map>
#include <string>

#include "rbmix/core/error.hpp"
#include "rbmix/core/huge_pages.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix {

BinaryMatrix bars_and_stripes(int size, bool unique_only) {
  require(size >= 1 && size <= 10, "bars and stripes: size " + std::to_string(size) + " is outside [1, 10]");
  const int patterns = 1 << size;
  const int pixels = size * size;
  BinaryMatrix out(2 * patterns, pixels);
  for (int pattern = 0; pattern < patterns; ++pattern) {
    for (int row = 0; row < size; ++row) {
      for (int column = 0; column < size; ++column) {
        out(pattern, row * size + column) = static_cast<std::uint8_t>((pattern >> row) & 1);              // stripes
        out(patterns + pattern, row * size + column) = static_cast<std::uint8_t>((pattern >> column) & 1);  // bars
      }
    }
  }
  if (!unique_only) return out;
  // Bars pattern 0 and pattern 2^D − 1 repeat the all-0 and all-1 stripes images.
  BinaryMatrix unique(2 * patterns - 2, pixels);
  unique.topRows(patterns) = out.topRows(patterns);
  unique.bottomRows(patterns - 2) = out.middleRows(patterns + 1, patterns - 2);
  return unique;
}

BinaryMatrix shifting_bar(int length, int bar_length) {
  require(length >= 1 && length <= 4096, "shifting bar: length " + std::to_string(length) + " is outside [1, 4096]");
  require(bar_length >= 1 && bar_length <= length,
          "shifting bar: bar length " + std::to_string(bar_length) + " must lie in [1, length]");
  BinaryMatrix out = BinaryMatrix::Zero(length, length);
  for (int shift = 0; shift < length; ++shift)
    for (int k = 0; k < bar_length; ++k) out(shift, (shift + k) % length) = 1;
  return out;
}

BinaryMatrix artificial_modes_basic_modes() {
  constexpr int side = artificial_modes_side;
  BinaryMatrix modes = BinaryMatrix::Zero(4, side * side);
  for (int row = 0; row < side; ++row) {
    for (int column = 0; column < side; ++column) {
      const int pixel = row * side + column;
      const bool top = row < side / 2;
      const bool left = column < side / 2;
      modes(0, pixel) = top;            // top half on
      modes(1, pixel) = left;           // left half on
      modes(2, pixel) = top == left;    // top-left and bottom-right blocks on
      modes(3, pixel) = top != left;    // top-right and bottom-left blocks on
    }
  }
  return modes;
}

LabelledData artificial_modes(double mutation_probability, int size, std::uint64_t seed) {
  require(mutation_probability >= 0.0 && mutation_probability <= 1.0,
          "artificial modes: mutation probability must lie in [0, 1]");
  require(size >= 1, "artificial modes: the number of samples must be positive");
  const BinaryMatrix modes = artificial_modes_basic_modes();
  LabelledData out{BinaryMatrix(size, modes.cols()), std::vector<int>(static_cast<std::size_t>(size))};
  for (int sample = 0; sample < size; ++sample) {
    RandomStream stream(seed, static_cast<std::uint64_t>(sample), StreamDomain::data);
    const int mode = static_cast<int>(stream.below(4));
    out.labels[static_cast<std::size_t>(sample)] = mode;
    for (Eigen::Index pixel = 0; pixel < modes.cols(); ++pixel) {
      const bool flip = stream.uniform() < mutation_probability;
      out.samples(sample, pixel) = static_cast<std::uint8_t>(modes(mode, pixel) ^ static_cast<std::uint8_t>(flip));
    }
  }
  return out;
}

double best_average_log_likelihood(const BinaryMatrix& data) {
  require(data.rows() > 0, "best average log-likelihood of an empty data set");
  std::map<std::string, int> counts;
  for (Eigen::Index row = 0; row < data.rows(); ++row) {
    std::string key(reinterpret_cast<const char*>(data.row(row).data()), static_cast<std::size_t>(data.cols()));
    ++counts[key];
  }
  const double total = static_cast<double>(data.rows());
  double log_likelihood = 0.0;
  for (const auto& [row, count] : counts) log_likelihood += count / total * std::log(count / total);
  return log_likelihood;
}

MatrixD to_real(const BinaryMatrix& data) {
  MatrixD rows(data.rows(), data.cols());
  advise_huge_pages(rows.data(), sizeof(double) * static_cast<std::size_t>(rows.size()));
  rows = data.cast<double>();
  return rows;
}

}  // namespace rbmix
