"""Shared fixtures of the Python front-end's tests (run by ctest with PYTHONPATH at the build tree's package)."""

import os
import shutil
import subprocess

import numpy as np
import pytest


def flip_the_state(x, s, decay):
    """P(next = 1 | x, s) of flip-the-state (003 eq. 2-3), vectorised: the rule a user would write with numpy."""
    uphill = np.where(s == 0, 1.0, 1.0 - decay)
    downhill = np.where(s == 0, decay, 0.0)
    return np.where(x > 0, uphill, np.where(x < 0, downhill, 0.5))


def naive_flip(x, s, decay):
    """Flip-the-state without its tie rule: at x = 0 the unit always flips."""
    return np.where(x == 0, 1.0 - s, flip_the_state(x, s, decay))


def gibbs(x, s, decay):
    """σ(x) through the decay e^{-|x|}."""
    return np.where(x >= 0, 1.0 / (1.0 + decay), decay / (1.0 + decay))


def sweep(model, rule, stale_hidden=False):
    """A hand-written numpy sampler: hidden given v, then visible given h, each unit by `rule`; with stale_hidden
    the visible layer is drawn from the hidden units as they were before the sweep (a bug)."""
    W, b, c = model.weights, model.visible_bias, model.hidden_bias

    def update(states, inputs, rng):
        p = rule(inputs, states, np.exp(-np.abs(inputs)))
        return (rng.random(states.shape) < p).astype(np.float64)

    def step(visible, hidden, rng):
        new_hidden = update(hidden, visible @ W.T + c, rng)
        visible = update(visible, (hidden if stale_hidden else new_hidden) @ W + b, rng)
        return visible, new_hidden

    return step


@pytest.fixture(scope="session")
def cli():
    """The rbmix program: $RBMIX_CLI (set by ctest), else rbmix on the PATH; tests that need it skip without it."""
    path = os.environ.get("RBMIX_CLI") or shutil.which("rbmix")
    if not path:
        pytest.skip("the rbmix program is not available (set RBMIX_CLI)")

    def run(*arguments):
        return subprocess.run([path, *map(str, arguments)], check=True, capture_output=True, text=True)

    return run


@pytest.fixture
def tied_model():
    """A 3 + 2 RBM with an exact tie (hidden unit 1 has input 0 at v = 0)."""
    import rbmix

    return rbmix.Rbm(
        np.array([[1.2, -0.7, 0.4], [-1.5, 0.9, 1.1]]), np.array([0.3, -0.2, 0.0]), np.array([-0.4, 0.0])
    )
