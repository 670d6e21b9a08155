"""rbmix.verify from Python: the audit accepts a numpy Gibbs sampler and rejects a sampler that updates the visible
layer from stale hidden units and flip-the-state without its tie rule on an RBM with ties; check_rule accepts
correct numpy rules and rejects the tie-forgetting flip. Every audit and check has a fixed seed; each audit fails
a correct sampler with probability at most 1e-6 (its default false-failure rate, Bonferroni over its χ² tests)."""

import numpy as np
import pytest

import rbmix
from conftest import flip_the_state, gibbs, naive_flip, sweep

# Fewer chains than the defaults keep each audit near a second; the broken samplers still fail by far.
QUICK = dict(chains=5000, invariance_chains=50000, bootstrap_replicates=50)


def test_numpy_gibbs_passes_and_its_slem_is_near_the_exact_one():
    model = rbmix.random_model(3, 3, 2.0, bias_range=0.5, seed=12)
    result = rbmix.verify.audit_sampler(model, sweep(model, gibbs), same_as="gibbs", **QUICK)
    assert result.passed, result.message
    assert result.irreducible and result.period == 1 and result.states == 64
    exact = rbmix.analyze(model, ["gibbs"])[0].slem
    assert result.same_as_slem == pytest.approx(exact, abs=1e-12)
    assert result.slem == pytest.approx(exact, abs=0.03)
    low, high = result.slem_interval
    assert low <= result.slem <= high


def test_stale_hidden_units_fail_invariance():
    model = rbmix.random_model(3, 3, 2.0, bias_range=0.5, seed=12)
    result = rbmix.verify.audit_sampler(model, sweep(model, gibbs, stale_hidden=True), **QUICK)
    assert not result.passed
    assert not result.invariance.passed and result.invariance_p_value < 1e-12
    assert "π is not invariant" in result.message


def test_flip_without_its_tie_rule_fails_on_an_rbm_with_ties(tied_model):
    correct = rbmix.verify.audit_sampler(tied_model, sweep(tied_model, flip_the_state), same_as="flip", **QUICK)
    assert correct.passed, correct.message
    broken = rbmix.verify.audit_sampler(tied_model, sweep(tied_model, naive_flip), same_as="flip", **QUICK)
    assert not broken.passed
    assert broken.invariance.passed and not broken.same_as.passed
    assert "rows against the exact rows of flip" in broken.message
    all_ties = rbmix.Rbm(np.zeros((2, 3)), np.zeros(3), np.zeros(2))
    periodic = rbmix.verify.audit_sampler(all_ties, sweep(all_ties, naive_flip), **QUICK)
    assert not periodic.passed and not periodic.irreducible
    assert "no chain path from joint state 0" in periodic.message


def test_a_step_that_returns_bad_states_raises_input_error():
    model = rbmix.random_model(2, 2, 1.0, seed=1)
    with pytest.raises(rbmix.InputError, match="sampler step: visible"):
        rbmix.verify.audit_sampler(model, lambda v, h, rng: (v * 0.5, h), **QUICK)
    with pytest.raises(rbmix.InputError, match="must return the pair"):
        rbmix.verify.audit_sampler(model, lambda v, h, rng: v, **QUICK)
    with pytest.raises(ZeroDivisionError):
        rbmix.verify.audit_sampler(model, lambda v, h, rng: 1 / 0, **QUICK)


def test_the_audit_is_reproducible():
    model = rbmix.random_model(2, 2, 1.5, seed=2)
    first = rbmix.verify.audit_sampler(model, sweep(model, gibbs), **QUICK)
    second = rbmix.verify.audit_sampler(model, sweep(model, gibbs), **QUICK)
    assert first.message == second.message


def test_check_rule_accepts_correct_numpy_rules_and_names_what_the_tie_forgetting_flip_breaks():
    assert rbmix.verify.check_rule(gibbs).passed
    assert rbmix.verify.check_rule(flip_the_state).passed
    broken = rbmix.verify.check_rule(naive_flip)
    assert not broken.passed
    assert "ergodic" in broken.message or "irreducible" in broken.message or "period" in broken.message, broken.message
    # Claiming no ergodicity, the naive flip keeps every other invariant.
    assert rbmix.verify.check_rule(naive_flip, ergodic=False).passed


def test_check_rule_rejects_a_rule_that_is_not_a_probability_or_breaks_invariance():
    above_one = rbmix.verify.check_rule(lambda x, s, d: np.where(x > 0, 1.2, gibbs(x, s, d)))
    assert "at x = 0.125" in above_one.message and "is not a probability" in above_one.message
    lazy_wrong = rbmix.verify.check_rule(lambda x, s, d: 0.5 * gibbs(x, s, d) + 0.5 * s * 0.9)
    assert not lazy_wrong.passed
