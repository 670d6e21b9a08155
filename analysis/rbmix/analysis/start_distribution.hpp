#pragma once
// The start distribution π₀ of a convergence bound (docs/algorithms/convergence-bounds.md §6.8): every chain of a
// coupled pair starts from an independent draw of π₀, and the bound is on d_TV(π₀Pᵗ, π) for this π₀ only.
//   zeros      every unit 0;
//   ones       every unit 1;
//   uniform    every unit of (v, h) a fair coin;
//   data:FILE  a visible row drawn uniformly from the rows of FILE (0/1), the hidden layer drawn from p(h | v) at
//              the chain's inverse temperature β: where CD and PCD chains start.
// The same π₀ as a vector over the joint states (exact_start_distribution) sets a bound of a tiny model beside the
// exact distance.
#include <string>
#include <string_view>

#include "rbmix/analysis/state_space.hpp"
#include "rbmix/random/random_stream.hpp"

namespace rbmix::analysis {

struct StartDistribution {
  enum class Kind { zeros, ones, uniform, data };
  Kind kind = Kind::uniform;
  MatrixD data_rows;      // kind data: rows × n_visible, 0/1
  std::string data_file;  // kind data: where the rows came from
};

// "zeros", "ones", "uniform" or "data:FILE" (FILE read as binary rows, rbmix/io/binary_data_file.hpp); throws
// InputError naming the text, or the file and what is wrong with it.
StartDistribution parse_start_distribution(std::string_view text);
// The text parse_start_distribution reads back.
std::string to_string(const StartDistribution& start);
// Throws InputError unless the data rows (if any) have the RBM's visible count and at least one row.
void validate_start_distribution(const StartDistribution& start, const Rbm& rbm);

// Draws one joint state from π₀ into `visible` (n_visible) and `hidden` (n_hidden) from `stream`.
void draw_start_state(const StartDistribution& start, const Rbm& rbm, double inverse_temperature, RandomStream& stream,
                      double* visible, double* hidden);

// π₀ over the joint states of a tiny RBM, in JointStateSpace order.
VectorD exact_start_distribution(const StartDistribution& start, const Rbm& rbm, double inverse_temperature);

}  // namespace rbmix::analysis
