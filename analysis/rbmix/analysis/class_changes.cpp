#include "rbmix/analysis/class_changes.hpp"

#include "rbmix/core/error.hpp"

namespace rbmix::analysis {

std::vector<int> nearest_mode_classes(const MatrixD& samples, const MatrixD& modes) {
  require(modes.rows() >= 1, "nearest_mode_classes: no modes");
  require(samples.cols() == modes.cols(), "nearest_mode_classes: samples have " + std::to_string(samples.cols()) +
                                              " units but the modes have " + std::to_string(modes.cols()));
  require(((samples.array() == 0.0) || (samples.array() == 1.0)).all(), "nearest_mode_classes: samples must be 0/1");
  require(((modes.array() == 0.0) || (modes.array() == 1.0)).all(), "nearest_mode_classes: modes must be 0/1");
  // Hamming distance of 0/1 vectors: Σ x(1−m) + (1−x)m, for all pairs by two products (exact in double).
  const MatrixD ones_modes = MatrixD::Ones(modes.rows(), modes.cols()) - modes;
  const MatrixD ones_samples = MatrixD::Ones(samples.rows(), samples.cols()) - samples;
  const MatrixD distances = samples * ones_modes.transpose() + ones_samples * modes.transpose();
  std::vector<int> classes(static_cast<std::size_t>(samples.rows()));
  for (Eigen::Index row = 0; row < samples.rows(); ++row) {
    Eigen::Index nearest = 0;
    const double smallest = distances.row(row).minCoeff(&nearest);
    const bool tie = (distances.row(row).array() == smallest).count() > 1;
    classes[static_cast<std::size_t>(row)] = tie ? ambiguous_class : static_cast<int>(nearest);
  }
  return classes;
}

void ClassChangeTracker::observe(int sample_class) {
  require(sample_class >= ambiguous_class, "ClassChangeTracker: a class is a mode index or ambiguous_class");
  const std::size_t index = observed_++;
  if (sample_class == ambiguous_class) return;
  if (current_ && *current_ != sample_class) {
    ++changes_;
    if (!first_change_) first_change_ = index;
  }
  current_ = sample_class;
}

std::size_t count_class_changes(const std::vector<int>& classes) {
  ClassChangeTracker tracker;
  for (const int sample_class : classes) tracker.observe(sample_class);
  return tracker.changes();
}

std::optional<std::size_t> first_class_change(const std::vector<int>& classes) {
  ClassChangeTracker tracker;
  for (const int sample_class : classes) tracker.observe(sample_class);
  return tracker.first_change();
}

}  // namespace rbmix::analysis
