#pragma once
// The help of --operator, the same in every command that samples with one unit rule (`analyze --operators` takes a
// list of them, plus modified:RULE).
namespace rbmix::cli {

inline constexpr const char* operator_help =
    "unit rule: gibbs (G), flip (flip-the-state T), mix:A (the mixture A·T + (1−A)·G, A in [0, 1]) or naive "
    "(the naive Metropolis flip)";

}  // namespace rbmix::cli
