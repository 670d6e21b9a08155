"""rbmix.convergence_bound and rbmix.exact_total_variation: the closed form of the all-zero model (every pair meets
in one sweep, the exact distance is 0 from t = 1), the bound above the exact distance on a tiny model, and the
refusals."""

import numpy as np
import pytest

import rbmix


def test_zero_model_meets_in_one_sweep():
    zero = rbmix.random_model(4, 3, 0.0, seed=1)
    bound = rbmix.convergence_bound(zero, operator="gibbs", lag=1, pairs=10, start="zeros", seed=2)
    assert bound.bound_available and bound.met == 10
    assert bound.meeting_times == [2] * 10
    np.testing.assert_array_equal(bound.total_variation, [1.0, 0.0])
    assert bound.mixing_time(0.25) == 1
    exact = rbmix.exact_total_variation(zero, operator="gibbs", start="zeros", sweeps=3)
    assert exact[0] == pytest.approx(1 - 2.0**-7) and np.all(exact[1:] < 1e-15)


def test_bound_lies_above_the_exact_distance():
    model = rbmix.random_model(4, 3, 2.0, bias_range=1.0, seed=4)
    rows = np.array([[1, 0, 1, 1], [0, 0, 1, 0]], dtype=np.uint8)
    bound = rbmix.convergence_bound(model, operator="flip", lag=5, pairs=200, start=rows, seed=3)
    assert bound.bound_available, bound.ergodicity
    exact = rbmix.exact_total_variation(model, operator="flip", start=rows, sweeps=len(bound.total_variation) - 1)
    # 3 standard errors, and ln(1000)/R where no pair contributes (docs/algorithms/convergence-bounds.md §6.8).
    assert np.all(bound.total_variation + 3 * bound.total_variation_standard_error + 6.91 / 200 >= exact)


def test_modified_sweep_bound_lies_above_the_exact_distance():
    model = rbmix.random_model(3, 3, 2.0, bias_range=1.0, seed=5)
    bound = rbmix.convergence_bound(model, operator="modified:flip", lag=5, pairs=200, seed=4)
    assert bound.bound_available, bound.ergodicity
    exact = rbmix.exact_total_variation(model, operator="modified:flip", sweeps=len(bound.total_variation) - 1)
    assert np.all(bound.total_variation + 3 * bound.total_variation_standard_error + 6.91 / 200 >= exact)


def test_unmet_pairs_and_refusals():
    zero = rbmix.random_model(4, 3, 0.0, seed=1)
    never = rbmix.convergence_bound(zero, operator="naive", start="zeros", pairs=5, max_sweeps=20)
    assert never.met == 0 and not never.bound_available and never.mixing_time() is None
    assert never.meeting_times == [None] * 5 and never.total_variation.size == 0
    with pytest.raises(rbmix.InputError, match="lag"):
        rbmix.convergence_bound(zero, lag=0)
    with pytest.raises(rbmix.InputError, match="at most 10 units"):
        rbmix.convergence_bound(rbmix.random_model(6, 5, 1.0, seed=1), operator="modified:gibbs")
    with pytest.raises(rbmix.InputError, match="start"):
        rbmix.convergence_bound(zero, start=np.ones((2, 5)))
