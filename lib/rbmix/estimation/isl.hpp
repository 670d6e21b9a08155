#pragma once
// The indirect sampling likelihood of 001 §5 (docs/algorithms/estimation.md §4): a Parzen estimator on N generated
// binary samples s_1 … s_N,
//   p̂(x) = (1/N) Σ_i Π_j β^{[x_j = s_ij]} (1 − β)^{[x_j ≠ s_ij]} = (1/N) Σ_i β^{m − d_i} (1 − β)^{d_i},
// with d_i the Hamming distance from x to s_i, so log p̂(x) = m log β + log Σ_d c_d e^{d·log((1−β)/β)} − log N
// over the histogram c_d of distances, summed by log-sum-exp from the nearest distance. ISL is the mean of log p̂
// over test rows, reported as a function of N with β ∈ (½, 1) chosen for each N on a validation set.
//
// Choosing β: the mean validation log p̂ is evaluated on a grid of 64 values of t = log(β/(1−β)), log-spaced from
// 10⁻⁴ to 30 (β from ½ + 2.5·10⁻⁵ to 1 − 10⁻¹³; the optimum moves from near ½ for few samples towards 1 for
// many), then refined by golden-section search between the best grid point's neighbours. The objective need not
// be unimodal in β; the grid keeps the search in the best basin at its resolution.
#include <string>
#include <vector>

#include "rbmix/core/types.hpp"
#include "rbmix/estimation/hamming_histograms.hpp"

namespace rbmix {

// log p̂ of one query from its distance histogram (m + 1 counts over `samples` samples), β ∈ (½, 1).
double log_parzen_density(const std::uint32_t* counts, Eigen::Index units, Eigen::Index samples, double beta);
// The mean of log p̂ over every query row of the histograms.
double mean_log_parzen_density(const DistanceHistograms& histograms, double beta);

struct BandwidthChoice {
  double beta = 0.0;
  double mean_log_density = 0.0;  // on the histograms it was chosen on
};
BandwidthChoice choose_bandwidth(const DistanceHistograms& validation);

// Whether a chosen β sits on an end of its search range (t = 10⁻⁴ or t = 30, to within a hundredth of the grid's
// step there): then the optimum may lie beyond it and the ISL is that of the end, not of the optimum. The upper end
// is reached when the validation rows repeat the samples (p̂ of a repeated row grows as β → 1), the lower one when
// they are far from every sample.
enum class BandwidthBound { none, lower, upper };
BandwidthBound bandwidth_bound(double beta);
std::string to_string(BandwidthBound bound);  // "none", "lower" or "upper"

struct IslPoint {
  Eigen::Index samples = 0;  // N: the first N rows of the sample set
  double beta = 0.0;         // chosen on the validation rows
  double validation = 0.0;   // mean log p̂ over the validation rows
  double test = 0.0;         // mean log p̂ over the test rows: the ISL
};

// 1, 2, 5, 10, 20, 50, … up to `total`, and `total` itself.
std::vector<Eigen::Index> log_spaced_counts(Eigen::Index total);

// How errors name the three sets and the counts: a front-end passes its option and file names ("--valid v.npy").
struct IslInputNames {
  std::string samples = "ISL: the sample set";
  std::string validation = "ISL: the validation set";
  std::string test = "ISL: the test set";
  std::string counts = "ISL: the sample counts";
};

// Refuses inputs isl_curve cannot take, naming the one at fault; isl_curve calls it first, a front-end may call it
// before it makes an output directory.
void validate_isl_inputs(const BinaryMatrix& samples, const BinaryMatrix& validation, const BinaryMatrix& test,
                         const std::vector<Eigen::Index>& counts, const IslInputNames& names = {});

// ISL at each N of `counts` (increasing, each in 1 … samples.rows()). All three sets must be binary, non-empty and
// of one width; the first N rows of `samples` make the estimator at N. Errors name the set at fault by `names`.
std::vector<IslPoint> isl_curve(const BinaryMatrix& samples, const BinaryMatrix& validation, const BinaryMatrix& test,
                                const std::vector<Eigen::Index>& counts, const IslInputNames& names = {});

}  // namespace rbmix
