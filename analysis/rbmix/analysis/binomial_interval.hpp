#pragma once
// The Wilson score interval for a binomial share (Wilson 1927; Newcombe 1998, method 3): the shares p whose score
// test |k − np|/√(np(1 − p)) ≤ z does not reject, in closed form
//   (k + z²/2 ± z √(k(n − k)/n + z²/4)) / (n + z²).
// Unlike the normal (Wald) interval it stays inside [0, 1] and is not empty at k = 0 or k = n, where a calibration's
// shares of flagged estimates sit (docs/algorithms/calibration.md §6.7).
namespace rbmix::analysis {

struct BinomialInterval {
  double lower = 0.0;
  double upper = 1.0;
};

// The two-sided 95 % normal quantile z.
inline constexpr double binomial_interval_quantile = 1.959963984540054;

// k successes of n trials. n = 0 gives [0, 1] (nothing known). Throws InputError unless 0 ≤ k ≤ n.
BinomialInterval wilson_interval(int successes, int trials, double quantile = binomial_interval_quantile);

}  // namespace rbmix::analysis
