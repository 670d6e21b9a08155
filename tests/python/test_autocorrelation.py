"""rbmix.autocorrelation_time on numpy traces: an AR(1) series has τ = (1 + φ)/(1 − φ); emcee's estimate agrees
where emcee is installed; a short trace is not trusted and says why."""

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


def test_the_estimate_is_free_of_the_traces_units():
    series = ar1(0.8, 4000, 2, seed=4)
    tau = rbmix.autocorrelation_time(series).time
    for scaled in (series * 1e200, series * 1e-170, series + 1e6):
        assert rbmix.autocorrelation_time(scaled).time == pytest.approx(tau, rel=1e-6)


def test_chains_too_short_to_split_are_refused_naming_the_shape():
    with pytest.raises(rbmix.InputError, match=r"at least 8 steps .*the shape is \(4, 5\)"):
        rbmix.autocorrelation_time(np.ones((4, 5)))
