#pragma once
// Class changes (003 §4.4): how often a chain moves between the modes of a data set.
// A sample's class is the index of the mode at the smallest Hamming distance. A sample equally close to two or
// more modes is ambiguous and is discarded: a class sequence is read with its ambiguous entries removed, so a
// class change is a pair of consecutive unambiguous samples (in that reduced sequence) with different classes.
// Example: classes 0, ?, 0, ?, 1, 1, ?, 0 contain two changes (0→1 at index 4, 1→0 at index 7).
#include <cstddef>
#include <optional>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix::analysis {

inline constexpr int ambiguous_class = -1;

// The class of each row of `samples` (0/1 values) among the rows of `modes`, or ambiguous_class on ties.
std::vector<int> nearest_mode_classes(const MatrixD& samples, const MatrixD& modes);

// Follows one class sequence entry by entry (index 0 first), so batched chains need not store their sequences.
class ClassChangeTracker {
 public:
  void observe(int sample_class);

  std::size_t changes() const { return changes_; }
  // The index of the first unambiguous entry whose class differs from the first unambiguous class, if any.
  std::optional<std::size_t> first_change() const { return first_change_; }

 private:
  std::size_t observed_ = 0;
  std::size_t changes_ = 0;
  std::optional<int> current_;
  std::optional<std::size_t> first_change_;
};

std::size_t count_class_changes(const std::vector<int>& classes);
std::optional<std::size_t> first_class_change(const std::vector<int>& classes);

}  // namespace rbmix::analysis
