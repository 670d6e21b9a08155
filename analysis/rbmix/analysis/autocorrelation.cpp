#include "rbmix/analysis/autocorrelation.hpp"

#include <complex>
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

namespace {

// Reuses one FFT plan and its buffers for every chain of a trace set.
class AutocovarianceWorkspace {
 public:
  // Writes γ̂(0..N−1) of `series` into `out`.
  void compute(const Eigen::Ref<const VectorD>& series, Eigen::Ref<VectorD> out) {
    require(series.size() >= 2, "autocovariance: a series needs at least 2 values");
    const auto length = static_cast<std::size_t>(series.size());
    // Padding to a power of two at least 2N: the circular correlation then equals the linear one on lags 0..N−1.
    std::size_t padded = 1;
    while (padded < 2 * length) padded *= 2;
    centred_.assign(padded, 0.0);
    const double mean = series.mean();
    for (std::size_t t = 0; t < length; ++t) centred_[t] = series[static_cast<Eigen::Index>(t)] - mean;
    fft_.fwd(spectrum_, centred_);
    for (auto& value : spectrum_) value = std::norm(value);
    fft_.inv(correlation_, spectrum_);
    for (std::size_t lag = 0; lag < length; ++lag)
      out[static_cast<Eigen::Index>(lag)] = correlation_[lag] / static_cast<double>(length);
  }

 private:
  Eigen::FFT<double> fft_;
  std::vector<double> centred_;
  std::vector<std::complex<double>> spectrum_;
  std::vector<double> correlation_;
};

}  // namespace

VectorD autocovariance(const VectorD& series) {
  VectorD out(series.size());
  AutocovarianceWorkspace().compute(series, out);
  return out;
}

VectorD mean_autocovariance(const MatrixD& traces) { return trace_autocovariance(traces).mean_autocovariance; }

TraceAutocovariance trace_autocovariance(const MatrixD& traces) {
  validate_traces(traces, "trace_autocovariance");
  TraceAutocovariance out{VectorD::Zero(traces.rows()), traces.colwise().mean().transpose(), traces.rows(),
                          traces.cols()};
  AutocovarianceWorkspace workspace;
  VectorD series(traces.rows());
  VectorD chain_covariance(traces.rows());
  for (Eigen::Index chain = 0; chain < traces.cols(); ++chain) {
    series = traces.col(chain);
    workspace.compute(series, chain_covariance);
    out.mean_autocovariance += chain_covariance;
  }
  out.mean_autocovariance /= static_cast<double>(traces.cols());
  return out;
}

VectorD autocorrelation(const MatrixD& traces) {
  const VectorD covariance = mean_autocovariance(traces);
  require(covariance[0] > 0.0, "autocorrelation: every chain is constant; the autocorrelation is undefined");
  return covariance / covariance[0];
}

}  // namespace rbmix::analysis
