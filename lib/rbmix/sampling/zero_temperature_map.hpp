#pragma once
// The zero-temperature map of herding (Welling 2009; 001 §2, docs/algorithms/estimation.md §4): the deterministic limit
// of a Gibbs sweep, h ← 1[c + W x > 0] then x ← 1[b + Wᵀ h > 0], iterated until an iteration changes neither layer.
//
// Ties: a unit whose total input is exactly 0 is set to 0 (the strict indicator 1[· > 0] as 001 writes it). Any
// fixed choice keeps the map deterministic; this one also makes the termination argument below work.
//
// Why it terminates: each half-step maximises −E(x, h) over one layer given the other, so −E never decreases.
// When a half-step leaves −E unchanged, every unit it changed had input exactly 0 and went from 1 to 0. So along
// any cycle −E is constant and units only switch off, which is impossible unless nothing changes: the map reaches a
// fixed point. Rounding in the inputs can in principle break this argument, so the iteration is capped anyway.
#include "rbmix/core/types.hpp"
#include "rbmix/model/rbm.hpp"

namespace rbmix {

struct FixedPointSearch {
  Eigen::Index iterations = 0;  // full iterations (hidden then visible) carried out
  bool reached = false;         // false: stopped at the cap before reaching a fixed point
};

// Iterates the map from (visible, hidden), one chain given as two 0/1 rows, in place, at most `cap` iterations.
FixedPointSearch descend_to_fixed_point(const Rbm& rbm, Eigen::Ref<RowVector<double>> visible,
                                        Eigen::Ref<RowVector<double>> hidden, Eigen::Index cap);

}  // namespace rbmix
