// Fuzz target: the estimators `rbmix mixing --trace` runs (mixing_diagnostics) on any finite trace the CLI would
// accept. The first byte gives the number of chains (1–4), the rest are the draws, 8 bytes each, chain after chain;
// at most mixing_trace_max_draws draws are read. Besides not crashing and refusing only by InputError, every
// result must keep two invariants:
//  - every interval end is none (NaN) or positive: τ > 0 (docs/algorithms/mixing-metrics.md §6);
//  - the estimates do not depend on a power-of-two scale of the trace: the trace multiplied by 2^600 and by 2^−600
//    is brought back to the same numbers (traces_in_unit_range), so both give the same estimates to the bit.
// The seeds (seed_corpus_writer.cpp) are autoregressive traces scaled, offset and near-constant.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "rbmix/analysis/integrated_autocorrelation_time.hpp"
#include "rbmix/core/error.hpp"

namespace {

// 4096 draws keep an input well under a second.
constexpr std::size_t mixing_trace_max_draws = 4096;
// A largest |x| within 2^±150 puts both scaled traces beyond 2^±400, where traces_in_unit_range rescales them;
// draws of at least 2^−300 keep every bit when scaled by 2^−600.
constexpr int largest_exponent = 150;
constexpr int smallest_exponent = -300;

[[noreturn]] void violated(const char* invariant) {
  std::cerr << "mixing_trace: " << invariant << '\n';
  std::abort();
}

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void check_invariants(const rbmix::analysis::MixingDiagnostics& diagnostics) {
  for (const auto& estimate : diagnostics.estimates)
    if (estimate.lower <= 0.0 || estimate.upper <= 0.0) violated("an interval end at or below 0");
}

void check_same(const rbmix::analysis::MixingDiagnostics& a, const rbmix::analysis::MixingDiagnostics& b) {
  if (a.estimates.size() != b.estimates.size()) violated("a different number of estimates after scaling");
  for (std::size_t k = 0; k < a.estimates.size(); ++k)
    if (!same(a.estimates[k].time, b.estimates[k].time) || !same(a.estimates[k].lower, b.estimates[k].lower) ||
        !same(a.estimates[k].upper, b.estimates[k].upper) || a.estimates[k].cutoff != b.estimates[k].cutoff)
      violated("an estimate changed with a power-of-two scale of the trace");
  if (!same(a.potential_scale_reduction, b.potential_scale_reduction)) violated("R-hat changed with the scale");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const auto chains = static_cast<Eigen::Index>(1 + data[0] % 4);
  const std::size_t draws = std::min((size - 1) / sizeof(double), mixing_trace_max_draws);
  const auto steps = static_cast<Eigen::Index>(draws) / chains;
  rbmix::MatrixD traces(steps, chains);
  for (Eigen::Index chain = 0; chain < chains; ++chain)
    for (Eigen::Index step = 0; step < steps; ++step)
      std::memcpy(&traces(step, chain), data + 1 + sizeof(double) * static_cast<std::size_t>(chain * steps + step),
                  sizeof(double));
  try {
    const rbmix::analysis::MixingDiagnostics diagnostics = rbmix::analysis::mixing_diagnostics(traces);
    check_invariants(diagnostics);
  } catch (const rbmix::InputError&) {
    return 0;  // too short, or not finite: refused as the CLI refuses it
  }
  const double largest = traces.cwiseAbs().maxCoeff();
  const bool scalable = largest >= std::ldexp(1.0, -largest_exponent) && largest <= std::ldexp(1.0, largest_exponent) &&
                        (traces.array() == 0.0 || traces.array().abs() >= std::ldexp(1.0, smallest_exponent)).all();
  if (scalable) {
    const auto scaled = [&](int exponent) {
      return rbmix::MatrixD(traces.unaryExpr([exponent](double x) { return std::scalbn(x, exponent); }));
    };
    check_same(rbmix::analysis::mixing_diagnostics(scaled(600)), rbmix::analysis::mixing_diagnostics(scaled(-600)));
  }
  return 0;
}
