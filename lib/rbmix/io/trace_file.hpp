#pragma once
// A trace file: any series to estimate autocorrelation times from (`rbmix mixing --trace`), a data file (.npy or
// CSV, data_file.hpp) holding float64 or float32 numbers, 1-D (one chain) or 2-D chains × steps (ArviZ's (chain,
// draw) layout; what `rbmix mixing --trace-out` writes). Read as steps × chains, the layout of the estimators
// (rbmix/analysis/autocorrelation.hpp).
#include <Eigen/Core>
#include <filesystem>

#include "rbmix/core/memory_limit.hpp"
#include "rbmix/core/types.hpp"

namespace rbmix {

// The estimators hold the trace in doubles and one matrix as large beside it (its rank-normalised scores, its split
// chains, its batch sums; docs/performance.md "The trace's copies at 10^8 steps"): the bytes per draw a trace is
// sized by.
inline constexpr std::uint64_t trace_bytes_per_draw = 2 * sizeof(double);

// Throws InputError naming the file where it is no such trace, where a chain has fewer than `min_steps` steps, where
// a number is NaN or infinite, or where its draws need more than the memory this process may use
// (trace_bytes_per_draw each; memory_limit(sources)) — refused before its numbers are converted.
MatrixD read_trace_file(const std::filesystem::path& file, Eigen::Index min_steps,
                        const MemoryLimitSources& sources = {});

}  // namespace rbmix
