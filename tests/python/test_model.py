"""The model from Python: construction, model files, energies against numpy, exact log Z against brute force, and
the same numbers as the CLI."""

import copy
import importlib.metadata
import itertools
import json
import pickle
import zipfile

import numpy as np
import pytest

import rbmix


def small_model():
    rng = np.random.default_rng(3)
    return rbmix.Rbm(rng.normal(size=(3, 4)), rng.normal(size=4), rng.normal(size=3))


def all_states(units):
    return np.array(list(itertools.product([0.0, 1.0], repeat=units)))


def test_parameters_round_trip_and_are_read_only():
    W = np.arange(6.0).reshape(2, 3)
    model = rbmix.Rbm(W, np.zeros(3), np.ones(2))
    assert model.n_visible == 3 and model.n_hidden == 2
    np.testing.assert_array_equal(model.weights, W)
    # An assignment into a parameter raises rather than changing a copy unseen; a copy is the user's to change.
    for parameter in (model.weights, model.visible_bias, model.hidden_bias):
        with pytest.raises(ValueError, match="read-only"):
            parameter[0] = 99.0
    changed = model.weights.copy()
    changed[0, 0] = 99.0
    assert rbmix.Rbm(changed, model.visible_bias, model.hidden_bias).weights[0, 0] == 99.0
    assert model.weights[0, 0] == 0.0


def test_models_pickle_and_deep_copy_to_equal_models():
    model = small_model()
    for twin in (pickle.loads(pickle.dumps(model)), copy.deepcopy(model), copy.copy(model)):
        assert twin is not model
        for name in ("weights", "visible_bias", "hidden_bias"):
            np.testing.assert_array_equal(getattr(twin, name), getattr(model, name))


def test_a_damaged_pickled_state_is_refused_by_name():
    model = small_model()
    # What pickle.loads does: a blank instance, then the state.
    with pytest.raises(rbmix.InputError, match="W contains NaN"):
        rbmix.Rbm.__new__(rbmix.Rbm).__setstate__((np.full((3, 4), np.nan), model.visible_bias, model.hidden_bias))
    with pytest.raises(rbmix.InputError, match="Rbm state"):
        rbmix.Rbm.__new__(rbmix.Rbm).__setstate__((model.weights,))


def test_version_is_the_clis_and_the_installed_metadatas(cli):
    assert cli("--version").stdout.split() == ["rbmix", rbmix.__version__]
    try:
        installed = importlib.metadata.version("rbmix")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("rbmix runs from the build tree, not from an installed distribution")
    assert installed == rbmix.__version__


def test_fortran_order_and_float32_give_the_same_model():
    W = np.asfortranarray(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]))
    model = rbmix.Rbm(W.astype(np.float32), np.zeros(3, np.float32), np.zeros(2))
    np.testing.assert_array_equal(model.weights, W.astype(np.float32).astype(np.float64))


def test_energies_and_conditionals_match_numpy():
    model = small_model()
    W, b, c = model.weights, model.visible_bias, model.hidden_bias
    v = all_states(4)
    h = np.tile([1.0, 0.0, 1.0], (len(v), 1))
    np.testing.assert_allclose(model.energy(v, h), -np.sum((h @ W) * v, axis=1) - v @ b - h @ c, rtol=1e-12)
    np.testing.assert_allclose(model.free_energy(v), -(v @ b) - np.logaddexp(0, v @ W.T + c).sum(axis=1), rtol=1e-12)
    np.testing.assert_allclose(model.hidden_probabilities(v), 1 / (1 + np.exp(-(v @ W.T + c))), rtol=1e-12)
    np.testing.assert_allclose(model.visible_probabilities(h), 1 / (1 + np.exp(-(h @ W + b))), rtol=1e-12)
    np.testing.assert_allclose(
        model.energy(v.astype(np.uint8), h.astype(bool)), model.energy(v, h), rtol=0, atol=0
    )


def test_exact_log_partition_matches_brute_force():
    model = small_model()
    v, h = all_states(4), all_states(3)
    energies = np.array([[model.energy(vi[None], hj[None])[0] for hj in h] for vi in v])
    assert rbmix.log_partition(model) == pytest.approx(np.log(np.exp(-energies).sum()), rel=1e-12)


def test_ais_brackets_the_exact_log_partition():
    model = small_model()
    result = rbmix.ais(model, particles=200, distributions=2000, seed=5)
    exact = rbmix.log_partition(model)
    assert result.log_partition_lower <= exact <= result.log_partition_upper
    assert result.log_weights.shape == (200,)


def test_save_and_load_are_bit_identical_and_numpy_reads_the_file(tmp_path):
    model = small_model()
    path = tmp_path / "model.npz"
    model.save(path, provenance={"made_by": "test"})
    loaded = rbmix.load_model(str(path))
    np.testing.assert_array_equal(loaded.weights, model.weights)
    np.testing.assert_array_equal(loaded.hidden_bias, model.hidden_bias)
    archive = np.load(path)
    np.testing.assert_array_equal(archive["W"], model.weights)
    with zipfile.ZipFile(path) as members:
        assert json.loads(members.read("metadata.json"))["provenance"] == {"made_by": "test"}


def test_a_log_partition_beyond_double_is_refused():
    model = rbmix.Rbm(np.full((3, 4), 1e308), np.zeros(4), np.zeros(3))
    with pytest.raises(rbmix.InputError, match="log_partition: log Z is not finite"):
        rbmix.log_partition(model)
    with pytest.raises(rbmix.InputError, match="ais: log Z is not finite"):
        rbmix.ais(model, particles=10, distributions=10)


def test_provenance_that_is_not_json_is_refused(tmp_path):
    with pytest.raises(rbmix.InputError, match="provenance: not JSON"):
        small_model().save(tmp_path / "model.npz", provenance={"loss": float("nan")})


def test_loading_a_broken_file_raises_input_error_naming_it(tmp_path):
    path = tmp_path / "broken.npz"
    path.write_bytes(b"not a zip archive")
    with pytest.raises(rbmix.InputError, match="broken.npz"):
        rbmix.load_model(path)
    with pytest.raises(ValueError):
        rbmix.load_model(tmp_path / "missing.npz")


def test_random_model_is_the_cli_model(cli, tmp_path):
    cli("model", "random", "--visible", 5, "--hidden", 3, "--weight-range", 2, "--bias-range", 0.5, "--seed", 9,
        "--out", tmp_path / "m.npz")
    from_cli = rbmix.load_model(tmp_path / "m.npz")
    from_python = rbmix.random_model(5, 3, 2.0, bias_range=0.5, seed=9)
    np.testing.assert_array_equal(from_cli.weights, from_python.weights)
    np.testing.assert_array_equal(from_cli.visible_bias, from_python.visible_bias)


def test_analyze_gives_the_cli_numbers(cli, tmp_path):
    model = rbmix.random_model(3, 3, 2.0, seed=4)
    model.save(tmp_path / "m.npz")
    report = json.loads(cli("analyze", "--model", tmp_path / "m.npz", "--operators", "gibbs,flip,naive", "--json").stdout)
    results = rbmix.analyze(model, ["gibbs", "flip", "naive"])
    assert [r.name for r in results] == [o["operator"] for o in report["operators"]]
    for ours, theirs in zip(results, report["operators"]):
        assert ours.slem == theirs["slem"]
        assert ours.stationarity_residual == theirs["stationarity_residual_l1"]
        assert ours.irreducible == theirs["irreducible"] and ours.period == theirs["period"]
        assert ours.energy_tau == theirs.get("energy_autocorrelation_time")


def test_analyze_reports_the_naive_flip_on_ties_as_periodic():
    zero = rbmix.Rbm(np.zeros((2, 2)), np.zeros(2), np.zeros(2))
    naive, flip = rbmix.analyze(zero, "naive,flip")
    assert not naive.irreducible or naive.period != 1
    assert flip.irreducible and flip.period == 1 and flip.slem < 1
    with pytest.raises(rbmix.InputError, match="nope"):
        rbmix.analyze(zero, ["nope"])


def test_sample_runs_the_batched_sampler_and_its_energy_traces_give_the_exact_tau():
    model = rbmix.random_model(3, 3, 2.0, bias_range=0.5, seed=12)
    start = np.zeros((64, 3))
    visible, hidden, energies = rbmix.sample(model, start, sweeps=3000, burn_in=50, operator="flip", seed=4)
    assert energies.shape == (64, 3000) and visible.shape == (64, 3) and hidden.shape == (64, 3)
    np.testing.assert_allclose(energies[:, -1], model.energy(visible, hidden), rtol=1e-12)
    again = rbmix.sample(model, start, sweeps=3000, burn_in=50, operator="flip", seed=4)[2]
    np.testing.assert_array_equal(energies, again)
    exact = rbmix.analyze(model, ["flip"])[0].energy_tau
    estimate = rbmix.autocorrelation_time(energies, method="initial_monotone_sequence")
    # 64 chains of 3000 sweeps: the relative standard error of τ̂ is a few per cent; the tolerance is 15 %.
    assert estimate.time == pytest.approx(exact, rel=0.15)
    with pytest.raises(rbmix.InputError, match="operator|rule"):
        rbmix.sample(model, start, operator="bogus")
