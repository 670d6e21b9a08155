#pragma once
// Δ log Z = log Z_1 − log Z_0 between two RBMs of one shape from visible samples of one or both
// (docs/algorithms/log-partition-along-training.md §11.7). With
//   u(v) = log p*_1(v) − log p*_0(v) = F_0(v) − F_1(v)      (p* = e^{−F}, the unnormalised marginal):
//   free-energy perturbation (Zwanzig 1954), one-sided, from n samples of model 0: E_0[e^u] = Z_1/Z_0, so
//     Δ = log mean e^{u}; standard error sd(e^u) / (mean e^u · √n) by the delta method.
//   Bennett's acceptance ratio (Bennett 1976) from n_0 samples of model 0 and n_1 of model 1: the Δ with
//     Σ_0 σ(u_i − Δ − log(n_0/n_1)) = Σ_1 σ(Δ − u_j + log(n_0/n_1)),
//     the least-variance combination of both sides; its left side falls and its right side rises with Δ, so the
//     root is unique and found by bisection. Standard error from Bennett's asymptotic variance
//     Σ_side (⟨f²⟩/⟨f⟩² − 1)/n_side, f the side's summand at the root.
// Both assume independent samples (thinned chains, or chains far apart); a correlated sample makes the standard
// error too small.
#include <string>

#include "rbmix/core/types.hpp"
#include "rbmix/model/rbm.hpp"

namespace rbmix {

struct LogPartitionDifference {
  double value = 0.0;  // Δ log Z = log Z_1 − log Z_0
  double standard_error = 0.0;
};

// Throws InputError for models of different shapes, samples of another width or not 0/1, or fewer than 2 samples.
LogPartitionDifference free_energy_perturbation(const Rbm& from, const Rbm& to, const MatrixD& samples_of_from);
LogPartitionDifference bennett_acceptance_ratio(const Rbm& first, const Rbm& second, const MatrixD& samples_of_first,
                                                const MatrixD& samples_of_second);

// log Σ_{distinct rows v} e^{−F(v)}: a lower bound on log Z, since the distinct rows are some of the 2^m visible
// states. An estimate of log Z below it would give the rows a total probability above 1: sampling missed mass
// that the estimate claims is not there.
double distinct_rows_log_partition_bound(const Rbm& rbm, const MatrixD& rows);

// The distinct rows of a data set (compared as bit patterns), each once, and how many rows each stands for: many
// models' train log-likelihoods and distinct-rows bounds then share one deduplication and one free-energy product a
// model (mean_free_energy_and_bound).
struct DistinctRows {
  MatrixD rows;
  VectorD counts;
};
DistinctRows distinct_rows(const MatrixD& rows);

struct FreeEnergySummary {
  double mean_free_energy = 0.0;     // mean over all the rows, counted with their multiplicity
  double distinct_rows_bound = 0.0;  // distinct_rows_log_partition_bound
};
FreeEnergySummary mean_free_energy_and_bound(const Rbm& rbm, const DistinctRows& distinct);

// Throws InputError naming `what` when `log_partition` lies below that bound, with both values and the total
// probability the estimate would give the rows.
void refuse_log_partition_below_rows(double log_partition, const Rbm& rbm, const MatrixD& rows,
                                     const std::string& what);

}  // namespace rbmix
