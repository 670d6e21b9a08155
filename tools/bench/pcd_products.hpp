#pragma once
// The six matrix products of one PCD-1 update, as dense Eigen products: the floor the benchmarks put an update's
// time against. A dense product's time does not depend on its operands' values, so any 0/1 matrices of the right
// shapes serve.
#include <benchmark/benchmark.h>

#include "rbmix/core/types.hpp"

namespace rbmix_bench {

// Outputs of the six products, sized before the timed loop and reused (no allocation inside it).
template <typename Scalar>
struct PcdProductOutputs {
  PcdProductOutputs(Eigen::Index rows, Eigen::Index hidden, Eigen::Index visible)
      : positive_inputs(rows, hidden),
        positive_statistics(hidden, visible),
        hidden_inputs(rows, hidden),
        visible_inputs(rows, visible),
        negative_statistics(hidden, visible) {}
  rbmix::Matrix<Scalar> positive_inputs, positive_statistics, hidden_inputs, visible_inputs, negative_statistics;
};

// The positive phase's hidden inputs W v and its ⟨h vᵀ⟩, the sweep's W v and Wᵀh, the negative phase's W v at the
// chains' new states and its ⟨h vᵀ⟩ (rows are samples; W is hidden × visible).
template <typename Scalar>
void six_dense_pcd_products(const rbmix::Matrix<Scalar>& batch, const rbmix::Matrix<Scalar>& weights,
                            const rbmix::Matrix<Scalar>& chain_visible, const rbmix::Matrix<Scalar>& chain_hidden,
                            PcdProductOutputs<Scalar>& out) {
  out.positive_inputs.noalias() = batch * weights.transpose();
  out.positive_statistics.noalias() = out.positive_inputs.transpose() * batch;
  out.hidden_inputs.noalias() = chain_visible * weights.transpose();
  out.visible_inputs.noalias() = chain_hidden * weights;
  out.hidden_inputs.noalias() = chain_visible * weights.transpose();
  out.negative_statistics.noalias() = out.hidden_inputs.transpose() * chain_visible;
  benchmark::DoNotOptimize(out.positive_statistics.data());
  benchmark::DoNotOptimize(out.visible_inputs.data());
  benchmark::DoNotOptimize(out.negative_statistics.data());
}

}  // namespace rbmix_bench
