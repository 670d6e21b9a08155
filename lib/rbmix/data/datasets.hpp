#pragma once
// The synthetic data sets of docs/algorithms/data-and-figures.md §7, as binary matrices with one sample per row (pixel
// (r, c) of a D×D image is column r·D + c). Each generator is deterministic given its arguments.
#include <cstdint>
#include <vector>

#include "rbmix/core/types.hpp"

namespace rbmix {

// Bars & Stripes D×D (MacKay 2003): every D-bit pattern as horizontal stripes and as vertical bars, 2^{D+1} rows
// with the all-0 and all-1 images twice. With unique_only the duplicates are dropped (2^{D+1} − 2 rows).
// Best possible average log-likelihood = −entropy of the rows: D = 3 gives −2.599 (−ln 14 unique).
BinaryMatrix bars_and_stripes(int size, bool unique_only = false);

// Shifting Bar (002 §4.2.1): all N cyclic shifts of a bar of B consecutive ones in N bits (N rows).
// Best possible average log-likelihood = −ln N.
BinaryMatrix shifting_bar(int length, int bar_length);

// Artificial Modes (Desjardins et al. 2010, used by 003 §4.2/§4.4): 4×4 images around four equally likely basic
// modes; each pixel of a sample is flipped with probability mutation_probability.
struct LabelledData {
  BinaryMatrix samples;
  std::vector<int> labels;  // index of the basic mode each sample was generated from
};
inline constexpr int artificial_modes_side = 4;
// The four basic modes, one per row (16 columns). Desjardins et al. describe but do not list them; rbmix uses four
// images at Hamming distance 8 from each other (top half, left half, and the two diagonal-block patterns),
// so that the class of a sample is the mode at smallest Hamming distance (003 §4.4) and ties are possible.
BinaryMatrix artificial_modes_basic_modes();
// Sample k draws its mode and flips from RandomStream(seed, k, StreamDomain::data).
LabelledData artificial_modes(double mutation_probability, int size, std::uint64_t seed);

// −(entropy of the empirical distribution of the rows): the best average log-likelihood any model can reach.
double best_average_log_likelihood(const BinaryMatrix& data);

// The rows as doubles (0.0 / 1.0), the form the models take.
MatrixD to_real(const BinaryMatrix& data);

}  // namespace rbmix
