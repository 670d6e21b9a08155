"""rbmix.autocorrelation_time on numpy traces: an AR(1) series has τ = (1 + φ)/(1 − φ); emcee's estimate agrees
where emcee is installed; a short trace is not trusted and says why. rbmix.rhat_nested equals a numpy computation
written from the paper and ArviZ's own values on fixed traces."""

from statistics import NormalDist

import numpy as np
import pytest

import rbmix


def ar1(phi, steps, chains, seed):
    rng = np.random.default_rng(seed)
    x = np.empty((chains, steps))
    x[:, 0] = rng.normal(size=chains) / np.sqrt(1 - phi**2)
    noise = rng.normal(size=(chains, steps))
    for t in range(1, steps):
        x[:, t] = phi * x[:, t - 1] + noise[:, t]
    return x


@pytest.mark.parametrize("method", ["autoregressive", "adaptive_window", "initial_monotone_sequence"])
def test_ar1_time_is_recovered(method):
    phi = 0.8
    series = ar1(phi, 20000, 4, seed=1)
    estimate = rbmix.autocorrelation_time(series, method=method)
    assert estimate.method == method and estimate.trusted, estimate.reason
    # τ = 9; four chains of 20 000 steps give a standard error near 0.3, and the tolerance is 5 of them.
    assert estimate.time == pytest.approx((1 + phi) / (1 - phi), abs=1.5)
    single = rbmix.autocorrelation_time(series[0].astype(np.float32), method=method)
    assert single.time == pytest.approx(9.0, abs=3.0)


def test_a_short_trace_is_not_trusted():
    estimate = rbmix.autocorrelation_time(ar1(0.95, 200, 1, seed=2)[0])
    assert not estimate.trusted and estimate.reason
    with pytest.raises(rbmix.InputError, match="method"):
        rbmix.autocorrelation_time(np.zeros(10), method="nope")


def test_agrees_with_emcee():
    emcee = pytest.importorskip("emcee")
    series = ar1(0.8, 20000, 4, seed=3)
    # One chain: the same window rule on the same autocorrelation function, so the same number up to rounding.
    ours = rbmix.autocorrelation_time(series[0], method="adaptive_window").time
    theirs = float(emcee.autocorr.integrated_time(series[0], c=5, tol=0)[0])
    assert ours == pytest.approx(theirs, rel=1e-9)
    # Several chains: emcee averages the chains' normalised autocorrelations, rbmix their autocovariances, so the
    # two differ by the spread of the chains' variances (a few per cent here).
    ours = rbmix.autocorrelation_time(series, method="adaptive_window").time
    theirs = float(emcee.autocorr.integrated_time(series.T[:, :, None], c=5, tol=0)[0])
    assert ours == pytest.approx(theirs, rel=0.05)


def numpy_rhat_nested(chains, superchain_ids):
    """Nested R̂ written from Margossian et al. (2024) eqs. 4–8 and Vehtari et al. (2021) §4 (ranks with ties
    averaged, Blom's offsets, split halves in their chain's superchain, folded about the median of the split
    draws): an independent reference, not a copy of rbmix's code."""
    ids = np.concatenate([superchain_ids, superchain_ids])
    half = chains.shape[1] // 2
    split = np.vstack([chains[:, :half], chains[:, chains.shape[1] - half :]])

    def scores(values):
        flat = values.ravel()
        ranks = np.empty(flat.size)
        for value in np.unique(flat):
            where = np.flatnonzero(flat == value)
            ranks[where] = np.searchsorted(np.sort(flat), value) + (where.size + 1) / 2
        inverse = np.vectorize(NormalDist().inv_cdf)
        return inverse((ranks - 0.375) / (flat.size + 0.25)).reshape(values.shape)

    def nested(x):
        means, variances = x.mean(axis=1), x.var(axis=1, ddof=1)
        groups = [ids == k for k in range(ids.max() + 1)]
        superchain_means = np.array([means[g].mean() for g in groups])
        between_chains = np.array([means[g].var(ddof=1) if g.sum() > 1 else 0.0 for g in groups])
        within_chains = np.array([variances[g].mean() for g in groups])
        return np.sqrt(1 + superchain_means.var(ddof=1) / np.mean(between_chains + within_chains))

    return max(nested(scores(split)), nested(scores(np.abs(split - np.median(split)))))


@pytest.mark.parametrize("steps, superchain_ids", [(200, [0, 0, 1, 1, 2, 2]), (201, [0, 1, 2, 0, 1, 2])])
def test_rhat_nested_equals_an_independent_numpy_computation(steps, superchain_ids):
    chains = np.round(ar1(0.9, steps, 6, seed=4), 1)  # rounded: ties in the ranks
    chains[2:4] += 1.0  # superchain 1 of the first grouping still remembers its start
    ours = rbmix.rhat_nested(chains, np.array(superchain_ids))
    assert ours == pytest.approx(numpy_rhat_nested(chains, np.array(superchain_ids)), rel=1e-12)
    assert ours > 1.0
    # float32 rounds the draws and with them the folded values |x − median|, whose ties then differ a little.
    assert rbmix.rhat_nested(chains.astype(np.float32), superchain_ids) == pytest.approx(ours, rel=1e-3)


def fixed_series(steps, chains):
    """The fixed trace of tests/rbmix/analysis/convergence_diagnostics_test.cpp as (chains, steps): drift in chains
    c > 0 and rounded terms that tie, x[t, c] = sin(0.7 t + c) + 0.05 t c + round(cos(1.9 t c), 1) (half to even)."""
    t, c = np.arange(steps, dtype=float)[:, None], np.arange(chains, dtype=float)[None, :]
    return np.ascontiguousarray((np.sin(0.7 * t + c) + 0.05 * t * c + np.rint(10.0 * np.cos(1.9 * t * c)) / 10.0).T)


# ArviZ's own numbers: arviz-devs/arviz-stats at commit ef043f4d86f8016f9476a5bbbcc1da44851c6be3,
# src/arviz_stats/base/diagnostics.py, _DiagnosticsBase._rhat_nested_rank (what arviz_stats.rhat_nested(...,
# method="rank") runs on a (chain, draw) array) with the _split_chains, _z_scale, _backtransform_ranks and
# _rhat_nested it calls, copied verbatim into a numpy/scipy script (docs/algorithms/mixing-metrics.md §6.5.1 describes
# it) and run on these draws: both fixed traces grouped two ways each, and one chain per superchain.
ARVIZ_RHAT_NESTED_RANK = [
    ((20, 4), [0, 0, 1, 1], 1.0759945457505815),
    ((20, 4), [0, 1, 0, 1], 1.0116422270161753),
    ((20, 4), [0, 1, 2, 3], 1.064855673446827),
    ((21, 6), [0, 0, 0, 1, 1, 1], 1.1136543751627945),
    ((21, 6), [0, 1, 2, 0, 1, 2], 1.0551047607293367),
    ((21, 6), [0, 1, 2, 3, 4, 5], 1.0865125565981373),
]


@pytest.mark.parametrize("shape, superchain_ids, arviz", ARVIZ_RHAT_NESTED_RANK)
def test_rhat_nested_equals_arviz(shape, superchain_ids, arviz):
    assert rbmix.rhat_nested(fixed_series(*shape), np.array(superchain_ids)) == pytest.approx(arviz, rel=1e-10)


def test_rhat_nested_refuses_unequal_superchains():
    with pytest.raises(rbmix.InputError, match="superchain"):
        rbmix.rhat_nested(ar1(0.5, 100, 4, seed=5), [0, 0, 0, 1])
    with pytest.raises(rbmix.InputError, match="superchain"):
        rbmix.rhat_nested(ar1(0.5, 100, 4, seed=5), [0, 1, 0])


def test_the_estimate_is_free_of_the_traces_units():
    series = ar1(0.8, 4000, 2, seed=4)
    tau = rbmix.autocorrelation_time(series).time
    for scaled in (series * 1e200, series * 1e-170, series + 1e6):
        assert rbmix.autocorrelation_time(scaled).time == pytest.approx(tau, rel=1e-6)


def test_chains_too_short_to_split_are_refused_naming_the_shape():
    with pytest.raises(rbmix.InputError, match=r"at least 8 steps .*the shape is \(4, 5\)"):
        rbmix.autocorrelation_time(np.ones((4, 5)))
