#include "rbmix/data/binarize.hpp"

#include <array>

#include "rbmix/core/error.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix {
namespace {
constexpr std::uint64_t max_rows_or_epochs = std::uint64_t{1} << 32;
constexpr int max_intensity = 255;
}  // namespace

BinaryMatrix threshold_binarize(const ByteMatrix& intensities) {
  // x / 255 > 1/2  ⇔  x ≥ 128 (no intensity sits exactly at 1/2).
  return (intensities.array() > max_intensity / 2).cast<std::uint8_t>().matrix();
}

BinaryMatrix stochastic_binarize(const ByteMatrix& intensities, std::uint64_t seed, std::uint64_t epoch) {
  require(static_cast<std::uint64_t>(intensities.rows()) < max_rows_or_epochs && epoch < max_rows_or_epochs,
          "stochastic binarisation: at most 2^32 rows and 2^32 epochs");
  std::array<double, max_intensity + 1> probability{};
  for (int x = 0; x <= max_intensity; ++x) probability[static_cast<std::size_t>(x)] = x / double(max_intensity);

  BinaryMatrix out(intensities.rows(), intensities.cols());
#pragma omp parallel for schedule(static)
  for (Eigen::Index row = 0; row < intensities.rows(); ++row) {
    RandomStream stream(seed, (epoch << 32) | static_cast<std::uint64_t>(row), StreamDomain::binarisation);
    for (Eigen::Index column = 0; column < intensities.cols(); ++column) {
      // uniform() ∈ [0, 1): x = 0 never turns on, x = 255 always does.
      out(row, column) = stream.uniform() < probability[intensities(row, column)] ? 1 : 0;
    }
  }
  return out;
}

}  // namespace rbmix
