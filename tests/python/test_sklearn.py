"""rbmix.sklearn.RBM: scikit-learn's own estimator contract, BernoulliRBM's interface, grey-level inputs, and
pickling of a fitted estimator."""

import pickle

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn.base import clone  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from sklearn.neural_network import BernoulliRBM  # noqa: E402
from sklearn.pipeline import Pipeline  # noqa: E402
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

import rbmix  # noqa: E402
from rbmix.sklearn import RBM  # noqa: E402


def test_passes_scikit_learns_estimator_checks():
    check_estimator(RBM(n_components=8, n_iter=3))


def test_has_bernoulli_rbms_parameters_with_its_defaults():
    ours, theirs = RBM().get_params(), BernoulliRBM().get_params()
    assert {name: ours[name] for name in theirs} == theirs


def grey_digits():
    X, y = load_digits(return_X_y=True)
    return X / 16.0, y


def test_fits_grey_levels_and_gives_bernoulli_rbms_attributes():
    X, _ = grey_digits()
    rbm = RBM(n_components=20, n_iter=2, random_state=0).fit(X[:300])
    assert rbm.components_.shape == (20, 64)
    assert rbm.intercept_hidden_.shape == (20,) and rbm.intercept_visible_.shape == (64,)
    np.testing.assert_array_equal(rbm.components_, rbm.model_.weights)
    with pytest.raises(ValueError, match="read-only"):
        rbm.components_[0, 0] = 1.0
    features = rbm.transform(X[:5])
    np.testing.assert_allclose(features, 1 / (1 + np.exp(-(X[:5] @ rbm.components_.T + rbm.intercept_hidden_))))
    assert set(np.unique(rbm.gibbs(X[:5]))) <= {0.0, 1.0}
    assert rbm.score_samples(X[:5]).shape == (5,) and np.all(rbm.score_samples(X[:5]) <= 0)
    assert "updates" in rbm.training_message_


def test_binary_rows_train_as_rbmix_train_does_with_n_iter_passes():
    rows = (np.random.default_rng(1).random((95, 6)) < 0.4).astype(np.float64)
    rbm = RBM(n_components=5, n_iter=3, batch_size=10, random_state=7).fit(rows)
    seed = np.random.RandomState(7).randint(np.iinfo(np.int32).max)  # random_state seeds rbmix.train
    model, _ = rbmix.train(rows, hidden=5, algorithm="pcd", learning_rate=0.1, batch=10, updates=3 * (95 // 10),
                           evaluate_every=0, seed=seed)
    np.testing.assert_array_equal(rbm.components_, model.weights)


def test_grey_levels_are_drawn_as_probabilities_not_thresholded():
    # Every pixel is on with probability 0.3: the fitted model's visible units must say so (thresholding at ½ would
    # give all-zero rows and b at the base-rate clip, σ(b) ≈ 0.001). 2000 rows × 10 draws: σ(b) within 0.05 of 0.3
    # by far (the draws' own standard error is 0.002; the rest is what training moves b by).
    rbm = RBM(n_components=4, n_iter=10, random_state=0).fit(np.full((2000, 3), 0.3))
    np.testing.assert_allclose(1 / (1 + np.exp(-rbm.intercept_visible_)), 0.3, atol=0.05)


def test_verbose_prints_the_trainings_summary(capsys):
    X, _ = grey_digits()
    RBM(n_components=5, n_iter=1, verbose=1, random_state=0).fit(X[:50])
    assert capsys.readouterr().out.startswith("[RBM] ")
    RBM(n_components=5, n_iter=1, random_state=0).fit(X[:50])
    assert capsys.readouterr().out == ""


def test_gibbs_and_score_samples_match_closed_forms_on_independent_units():
    # W = 0: the units are independent, p(v_j = 1) = σ(b_j). With b = ±30 a Gibbs sweep sets v to the signs of b
    # (σ(-30) ≈ 1e-13); flipping any unit of the all-ones rows changes F by b_j = 1, so the pseudo-likelihood is
    # exactly n_features · log σ(1) whichever unit is drawn.
    rbm = RBM(n_components=2, n_iter=1, random_state=0).fit(np.eye(4))
    signs = np.array([30.0, -30.0, 30.0, -30.0])
    rbm.model_ = rbmix.Rbm(np.zeros((2, 4)), signs, np.zeros(2))
    np.testing.assert_array_equal(rbm.gibbs(np.full((5, 4), 0.5)), np.tile(signs > 0, (5, 1)))
    rbm.model_ = rbmix.Rbm(np.zeros((2, 4)), np.ones(4), np.array([0.5, -2.0]))
    np.testing.assert_allclose(rbm.score_samples(np.ones((3, 4))), 4 * -np.log1p(np.exp(-1.0)), rtol=1e-12)


def test_the_same_random_state_gives_the_same_model_and_another_a_different_one():
    X, _ = grey_digits()
    first, again = (RBM(n_components=10, n_iter=1, random_state=3).fit(X[:200]) for _ in range(2))
    np.testing.assert_array_equal(first.components_, again.components_)
    other = RBM(n_components=10, n_iter=1, random_state=4).fit(X[:200])
    assert not np.array_equal(first.components_, other.components_)


def test_rbmix_options_reach_the_training():
    X, _ = grey_digits()
    plain = RBM(n_components=10, n_iter=1, random_state=3).fit(X[:200])
    flip = RBM(n_components=10, n_iter=1, random_state=3, operator="flip", k=2).fit(X[:200])
    assert not np.array_equal(plain.components_, flip.components_)
    with pytest.raises(rbmix.InputError, match="operator"):
        RBM(operator="no-such-operator").fit(X[:20])


def test_fitted_estimators_pickle_and_clone():
    X, _ = grey_digits()
    rbm = RBM(n_components=10, n_iter=1, random_state=0).fit(X[:100])
    restored = pickle.loads(pickle.dumps(rbm))
    np.testing.assert_array_equal(restored.transform(X[:10]), rbm.transform(X[:10]))
    assert clone(rbm).get_params() == rbm.get_params()


def test_features_feed_a_classifier_in_a_pipeline():
    X, y = grey_digits()
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
    pipeline = Pipeline([("rbm", RBM(n_components=64, learning_rate=0.06, n_iter=5, random_state=0)),
                         ("logistic", LogisticRegression(C=100, max_iter=2000))])
    accuracy = pipeline.fit(X_train, y_train).score(X_test, y_test)
    # The scikit-learn example reaches 0.93 with 100 units and 10 passes; chance is 0.1. A margin for the smaller
    # model: a training that learned nothing (σ of random weights) gives features a classifier does far worse on.
    assert accuracy > 0.85


def test_partial_fit_continues_from_the_fitted_model():
    X, _ = grey_digits()
    rbm = RBM(n_components=10, batch_size=10, random_state=0)
    rbm.partial_fit(X[:200])
    first = rbm.components_.copy()
    # Learning rate 0: a warm start must hand the fitted model back unchanged, where a cold start would not.
    frozen = RBM(n_components=10, batch_size=10, learning_rate=1e-300, random_state=0).partial_fit(X[:200])
    np.testing.assert_array_equal(frozen.partial_fit(X[200:400]).components_, RBM(
        n_components=10, batch_size=10, learning_rate=1e-300, random_state=0).partial_fit(X[:200]).components_)
    rbm.partial_fit(X[200:400])
    assert not np.array_equal(rbm.components_, first)
    assert np.abs(rbm.components_ - first).max() < 1.0  # a continuation, not a fresh start
    with pytest.raises(ValueError):
        rbm.partial_fit(X[:10, :20])  # other features than the first call's
