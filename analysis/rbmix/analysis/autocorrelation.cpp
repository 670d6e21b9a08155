#include "rbmix/analysis/autocorrelation.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <optional>
#include <string>
#include <unsupported/Eigen/FFT>
#include <vector>

#include "rbmix/core/error.hpp"

namespace rbmix::analysis {

void validate_traces(const MatrixD& traces, const char* what) {
  require(traces.rows() >= 2,
          std::string(what) + ": a trace needs at least 2 steps, got " + std::to_string(traces.rows()));
  require(traces.cols() >= 1, std::string(what) + ": no chains");
  require(traces.allFinite(), std::string(what) + ": the traces contain NaN or Inf");
}

std::optional<MatrixD> traces_in_unit_range(const MatrixD& traces) {
  constexpr int largest_safe_exponent = 400;
  const double largest = traces.cwiseAbs().maxCoeff();
  if (largest == 0.0) return std::nullopt;
  const int exponent = std::ilogb(largest);  // largest = m · 2^exponent, m in [1, 2)
  if (std::abs(exponent) <= largest_safe_exponent) return std::nullopt;
  // scalbn scales each draw by 2^shift directly, exact wherever the result is normal, even where 2^shift itself is
  // beyond the range of a double (a largest |x| that is subnormal).
  const int shift = -exponent - 1;
  return MatrixD(traces.unaryExpr([shift](double x) { return std::scalbn(x, shift); }));
}

Eigen::Index first_largest_lag(Eigen::Index steps) {
  return std::min(steps - 1, std::max<Eigen::Index>(4096, steps / 64));
}

Eigen::Index grown_lag(Eigen::Index largest_lag, Eigen::Index steps) {
  return std::min(steps - 1, 4 * std::max<Eigen::Index>(largest_lag, 1));
}

namespace {

// The smallest multiple of 4 at least n whose other prime factors are 2, 3 and 5: Eigen's FFT (kissfft) has
// fast radices for those, and its real transform halves its work only for multiples of 4. Padding to such a length
// instead of the next power of two saves up to half the memory (2·10^7 steps: 4·10^7 = 2^9·5^7 against 2^26).
Eigen::Index fft_length_at_least(Eigen::Index n) {
  const Eigen::Index quarter = std::max<Eigen::Index>(1, (n + 3) / 4);
  Eigen::Index best = 1;
  while (best < quarter) best *= 2;
  for (Eigen::Index fives = 1; fives < best; fives *= 5)
    for (Eigen::Index threes = fives; threes < best; threes *= 3) {
      Eigen::Index candidate = threes;
      while (candidate < quarter) candidate *= 2;
      best = std::min(best, candidate);
    }
  return 4 * best;
}

using StridedSeries = Eigen::Ref<const VectorD, 0, Eigen::InnerStride<>>;

// Σ_t y_t y_{t+k} for k = 0..L of a centred series y = x − x̄, block by block. Each block of B steps is correlated
// with the B + L steps from its start by one circular correlation of length F ≥ B + L: for a step t of the block
// and a lag k ≤ L, t + k < B + L, so nothing wraps round, and every product y_t y_{t+k} is counted by exactly the
// block that holds t. B = max(L + 1, 2^13), so F is about 2L and the memory O(L); a series no longer than B is one
// block (F ≥ N + L, the usual zero padding).
class LaggedProducts {
 public:
  LaggedProducts(Eigen::Index steps, Eigen::Index largest_lag) : largest_lag_(largest_lag) {
    block_ = std::min(steps, std::max<Eigen::Index>(largest_lag + 1, 1 << 13));
    length_ = fft_length_at_least(block_ + largest_lag);
    fft_.SetFlag(Eigen::FFT<double>::HalfSpectrum);
    values_.resize(static_cast<std::size_t>(length_));
    block_spectrum_.resize(static_cast<std::size_t>(length_ / 2 + 1));
    segment_spectrum_.resize(block_spectrum_.size());
  }

  // Adds Σ_t (x_t − mean)(x_{t+k} − mean), k = 0..L, to sums[0..L]. The series is read where it lies, at any stride:
  // a chain of a trace set is a column of a row-major matrix, and a contiguous copy of it beside the trace would be
  // the largest buffer of the sequence estimators (400 MB for a chain of 5·10^7 steps; docs/performance.md).
  void add(const StridedSeries& series, double mean, Eigen::Ref<VectorD> sums) {
    const Eigen::Index steps = series.size();
    for (Eigen::Index first = 0; first < steps; first += block_) {
      transform(series, mean, first, std::min(block_, steps - first), block_spectrum_);
      transform(series, mean, first, std::min(block_ + largest_lag_, steps - first), segment_spectrum_);
      // conj(A) C, written out: std::complex's product checks for infinities in a library call.
      for (std::size_t f = 0; f < block_spectrum_.size(); ++f) {
        const std::complex<double> a = block_spectrum_[f], c = segment_spectrum_[f];
        segment_spectrum_[f] = {a.real() * c.real() + a.imag() * c.imag(), a.real() * c.imag() - a.imag() * c.real()};
      }
      fft_.inv(values_.data(), segment_spectrum_.data(), length_);
      sums += Eigen::Map<const VectorD>(values_.data(), largest_lag_ + 1);
    }
  }

 private:
  // The half spectrum of x_first..x_{first+count−1} − mean, zero-padded to F.
  void transform(const StridedSeries& series, double mean, Eigen::Index first, Eigen::Index count,
                 std::vector<std::complex<double>>& spectrum) {
    Eigen::Map<VectorD> values(values_.data(), length_);
    values.head(count) = series.segment(first, count).array() - mean;
    values.tail(length_ - count).setZero();
    fft_.fwd(spectrum.data(), values_.data(), length_);
  }

  Eigen::Index largest_lag_;
  Eigen::Index block_ = 0;
  Eigen::Index length_ = 0;
  Eigen::FFT<double> fft_;
  std::vector<double> values_;
  std::vector<std::complex<double>> block_spectrum_;
  std::vector<std::complex<double>> segment_spectrum_;
};

}  // namespace

VectorD autocovariance(const VectorD& series) {
  require(series.size() >= 2, "autocovariance: a series needs at least 2 values");
  VectorD out = VectorD::Zero(series.size());
  LaggedProducts(series.size(), series.size() - 1).add(series, series.mean(), out);
  return out / static_cast<double>(series.size());
}

VectorD mean_autocovariance(const MatrixD& traces) { return trace_autocovariance(traces).mean_autocovariance; }

TraceAutocovariance trace_autocovariance(const MatrixD& traces) {
  return trace_autocovariance(traces, traces.rows() - 1);
}

TraceAutocovariance trace_autocovariance(const MatrixD& traces, Eigen::Index largest_lag) {
  validate_traces(traces, "trace_autocovariance");
  require(largest_lag >= 0, "trace_autocovariance: the largest lag must not be negative");
  const Eigen::Index steps = traces.rows();
  const Eigen::Index lags = std::min(largest_lag, steps - 1);
  TraceAutocovariance out{VectorD::Zero(lags + 1), traces.colwise().mean().transpose(), steps, traces.cols()};
  LaggedProducts products(steps, lags);
  for (Eigen::Index chain = 0; chain < traces.cols(); ++chain)
    products.add(traces.col(chain), out.chain_means[chain], out.mean_autocovariance);
  out.mean_autocovariance /= static_cast<double>(steps * traces.cols());
  return out;
}

VectorD autocorrelation(const MatrixD& traces) {
  const VectorD covariance = mean_autocovariance(traces);
  require(covariance[0] > 0.0, "autocorrelation: every chain is constant; the autocorrelation is undefined");
  return covariance / covariance[0];
}

}  // namespace rbmix::analysis
