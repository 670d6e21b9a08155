"""rbmix.train runs the CLI's training: one table of settings for both front-ends (names, defaults, checks and
messages), the same settings and seed give bit-identical parameters to `rbmix train`; Ctrl-C raises
TrainingInterrupted with the model of the last update and leaves the checkpoint, from which the run resumes."""

import ast
import inspect
import os
import pathlib
import signal
import subprocess
import threading

import numpy as np
import pytest

import rbmix


def training_data(rows=120, columns=12, seed=0):
    rng = np.random.default_rng(seed)
    prototypes = rng.random((3, columns)) < 0.5
    noise = rng.random((rows, columns)) < 0.1
    return (prototypes[rng.integers(0, 3, rows)] ^ noise).astype(np.uint8)


@pytest.mark.parametrize(
    "python_options, cli_options",
    [
        (dict(algorithm="pcd", k=1, learning_rate=0.05, batch=20), ["--algo", "pcd", "--k", 1, "--lr", 0.05, "--batch", 20]),
        (dict(algorithm="cd", operator="flip", k=2, learning_rate=0.1, batch=30, momentum=0.5, float32=True),
         ["--algo", "cd", "--operator", "flip", "--k", 2, "--lr", 0.1, "--batch", 30, "--momentum", 0.5, "--float"]),
        (dict(algorithm="pt", replicas=4, learning_rate=0.05, batch=40, init="normal:0.05"),
         ["--algo", "pt", "--replicas", 4, "--lr", 0.05, "--batch", 40, "--init", "normal:0.05"]),
    ],
)
def test_train_equals_the_cli_bit_for_bit(cli, tmp_path, python_options, cli_options):
    data = training_data()
    np.save(tmp_path / "data.npy", data)
    cli("train", "--data", tmp_path / "data.npy", "--hidden", 5, "--updates", 60, "--eval-every", 20, "--seed", 17,
        "--out", tmp_path / "run", *cli_options)
    from_cli = np.load(tmp_path / "run" / "model.npz")
    result = rbmix.train(data, hidden=5, updates=60, evaluate_every=20, seed=17, **python_options)
    np.testing.assert_array_equal(result.model.weights, from_cli["W"])
    np.testing.assert_array_equal(result.model.visible_bias, from_cli["b"])
    np.testing.assert_array_equal(result.model.hidden_bias, from_cli["c"])
    curve = np.loadtxt(tmp_path / "run" / "learning_curve.csv", delimiter=",", skiprows=1)
    np.testing.assert_allclose(result.learning_curve["train_log_likelihood"], curve[:, 2], rtol=1e-9)


def test_train_returns_the_model_and_the_learning_curve_and_calls_back():
    points = []
    model, curve = rbmix.train(training_data(), hidden=4, algorithm="pcd", updates=400, evaluate_every=100,
                               learning_rate=0.1, batch=20, callback=points.append)
    assert isinstance(model, rbmix.Rbm) and model.weights.shape == (4, 12)
    np.testing.assert_array_equal(curve["update"], [0, 100, 200, 300, 400])
    assert len(points) == 5 and points[-1]["update"] == 400
    assert isinstance(points[-1]["train_log_likelihood"], float)
    assert curve["train_log_likelihood"][-1] > curve["train_log_likelihood"][0]


def test_an_exception_in_the_callback_stops_training_and_propagates():
    def fail(point):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        rbmix.train(training_data(), hidden=4, updates=1000, evaluate_every=10, callback=fail)


def test_options_are_checked_as_the_cli_checks_them():
    with pytest.raises(rbmix.InputError, match="--algo|algorithm"):
        rbmix.train(training_data(), hidden=4, algorithm="bogus")
    with pytest.raises(rbmix.InputError, match="fast_learning_rate"):
        rbmix.train(training_data(), hidden=4, algorithm="fpcd")
    with pytest.raises(rbmix.InputError, match="batch size 500 exceeds"):
        rbmix.train(training_data(), hidden=4, batch=500)


def test_ctrl_c_raises_keyboard_interrupt_and_leaves_a_checkpoint_to_resume_from(tmp_path):
    data = training_data(rows=400, columns=100)
    checkpoint = tmp_path / "run.ckpt"
    options = dict(hidden=50, algorithm="pcd", learning_rate=0.01, batch=50, evaluate_every=1000, seed=3)
    seen = []
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(rbmix.TrainingInterrupted) as interrupted:
            rbmix.train(data, updates=10**9, checkpoint=checkpoint, callback=seen.append, **options)
    finally:
        timer.cancel()
    assert checkpoint.exists()
    stopped = interrupted.value.result
    assert isinstance(interrupted.value, KeyboardInterrupt) and stopped.interrupted
    assert stopped.updates_done > 0 and stopped.model.weights.shape == (50, 100)
    assert f"after update {stopped.updates_done}" in str(interrupted.value) and "resume=True" in str(interrupted.value)
    # The checkpoint is at most 999 updates past the last evaluation seen; the resumed run ends where an
    # uninterrupted run of as many updates ends, bit for bit.
    updates = int(seen[-1]["update"]) + 1500
    resumed = rbmix.train(data, updates=updates, checkpoint=checkpoint, resume=True, **options)
    assert resumed.updates_done == updates
    straight = rbmix.train(data, updates=updates, **options)
    np.testing.assert_array_equal(resumed.model.weights, straight.model.weights)


# What the CLI refuses, Python refuses with the same sentence in its own names (--replicas → replicas, --algo cd →
# algorithm='cd').
@pytest.mark.parametrize(
    "python_options, cli_options",
    [
        (dict(algorithm="cd", replicas=5), ["--algo", "cd", "--replicas", 5]),
        (dict(algorithm="pcd", fast_learning_rate=0.1), ["--algo", "pcd", "--fast-lr", 0.1]),
        (dict(algorithm="pcd", fast_decay=0.9), ["--algo", "pcd", "--fast-decay", 0.9]),
        (dict(algorithm="pcd", d=3), ["--algo", "pcd", "--d", 3]),
        (dict(algorithm="cd", k_inner=3), ["--algo", "cd", "--k-inner", 3]),
        (dict(algorithm="exact", operator="flip"), ["--algo", "exact", "--operator", "flip"]),
        (dict(algorithm="fpcd"), ["--algo", "fpcd"]),
        (dict(k="two"), ["--k", "two"]),
        (dict(momentum=1.5), ["--momentum", 1.5]),
        (dict(keep="all"), ["--keep", "all"]),
    ],
)
def test_python_refuses_what_the_cli_refuses_with_the_same_message(cli, tmp_path, python_options, cli_options):
    data = training_data()
    np.save(tmp_path / "data.npy", data)
    with pytest.raises(subprocess.CalledProcessError) as from_cli:
        cli("train", "--data", tmp_path / "data.npy", "--hidden", 4, "--out", tmp_path / "run", *cli_options)
    with pytest.raises(rbmix.InputError) as from_python:
        rbmix.train(data, hidden=4, **python_options)
    cli_message = from_cli.value.stderr
    python_message = str(from_python.value)
    cli_message = cli_message.replace("--algo " + python_options.get("algorithm", "cd"),
                                      "algorithm='" + python_options.get("algorithm", "cd") + "'")
    for setting in rbmix._rbmix._training_settings():
        cli_message = cli_message.replace(setting["option"] + " ", setting["name"] + " ")
        cli_message = cli_message.replace(setting["option"] + ":", setting["name"] + ":")
        cli_message = cli_message.replace(setting["option"] + ")", setting["name"] + ")")
    assert python_message in cli_message, (python_message, from_cli.value.stderr)


def test_the_signature_help_and_stub_follow_the_settings_table():
    table = rbmix._rbmix._training_settings()
    signature = inspect.signature(rbmix.train)
    names = [setting["name"] for setting in table]
    assert [name for name in signature.parameters if name in names] == names
    for setting in table:
        parameter = signature.parameters[setting["name"]]
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
        assert setting["name"] in rbmix.train.__doc__ and setting["option"] in rbmix.train.__doc__
    for algorithm in ["cd", "pcd", "mfcd", "fpcd", "pt", "exact", "cg", "sdcp", "csdcp"]:
        assert algorithm in rbmix.train.__doc__
    for operator in ["gibbs", "flip", "naive", "mix:"]:
        assert operator in rbmix.train.__doc__
    # The stub (__init__.pyi) lists exactly the runtime parameters with the runtime defaults.
    stub = pathlib.Path(rbmix.__file__).with_name("__init__.pyi").read_text()
    function = next(node for node in ast.parse(stub).body if isinstance(node, ast.FunctionDef) and node.name == "train")
    stub_names = [a.arg for a in function.args.args + function.args.kwonlyargs]
    assert stub_names == list(signature.parameters)
    stub_defaults = dict(zip([a.arg for a in function.args.kwonlyargs],
                             [ast.literal_eval(d) if d is not None else inspect.Parameter.empty
                              for d in function.args.kw_defaults]))
    for name, parameter in signature.parameters.items():
        if name != "data":
            assert stub_defaults[name] == parameter.default, name


def test_unknown_keywords_are_named_with_a_suggestion():
    with pytest.raises(TypeError, match=r"unknown keyword argument 'lr' \(did you mean learning_rate\?\)"):
        rbmix.train(training_data(), hidden=4, lr=0.1)
    with pytest.raises(TypeError, match=r"'learning_rat' \(did you mean learning_rate\?\)"):
        rbmix.train(training_data(), hidden=4, learning_rat=0.1)
    with pytest.raises(TypeError, match="hidden"):
        rbmix.train(training_data())


def test_the_learning_curve_has_the_columns_of_the_cli_csv(cli, tmp_path):
    data = training_data()
    np.save(tmp_path / "data.npy", data)
    cli("train", "--data", tmp_path / "data.npy", "--hidden", 4, "--updates", 40, "--eval-every", 20,
        "--monitor", "ais", "--monitor-particles", 8, "--monitor-distributions", 50, "--out", tmp_path / "run")
    header = (tmp_path / "run" / "learning_curve.csv").read_text().splitlines()[0].split(",")
    result = rbmix.train(data, hidden=4, updates=40, evaluate_every=20, monitor="ais", monitor_particles=8,
                         monitor_distributions=50)
    assert list(result.learning_curve) == header
    assert "train_log_likelihood_lower" in header and "train_pseudo_log_likelihood" in header


def test_the_trajectory_monitor_tracks_log_z_as_the_cli_does(cli, tmp_path):
    data = training_data()
    np.save(tmp_path / "data.npy", data)
    options = ["--updates", 40, "--eval-every", 20, "--monitor", "trajectory", "--trajectory-particles", 40,
               "--trajectory-groups", 4, "--resampling-threshold", 0.5, "--sweeps-per-update", 2,
               "--trajectory-stride", 15, "--trajectory-step-size", 0.2]
    cli("train", "--data", tmp_path / "data.npy", "--hidden", 4, "--out", tmp_path / "run", *options)
    result = rbmix.train(data, hidden=4, updates=40, evaluate_every=20, monitor="trajectory", trajectory_particles=40,
                         trajectory_groups=4, resampling_threshold=0.5, sweeps_per_update=2, trajectory_stride=15,
                         trajectory_step_size=0.2)
    lines = (tmp_path / "run" / "learning_curve.csv").read_text().splitlines()
    header = lines[0].split(",")
    assert list(result.learning_curve) == header
    assert "train_log_likelihood_exact" in header and "train_log_likelihood_upper" in header
    final = dict(zip(header, lines[-1].split(",")))
    assert float(final["train_log_likelihood"]) == pytest.approx(result.learning_curve["train_log_likelihood"][-1])
    with pytest.raises(rbmix.InputError, match="multiple of the 3 groups"):
        rbmix.train(data, hidden=4, updates=4, monitor="trajectory", trajectory_particles=40, trajectory_groups=3)


def test_labels_train_a_classification_rbm_as_the_cli_does(cli, tmp_path):
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 3, 150)
    prototypes = rng.random((3, 10)) < 0.5
    data = (prototypes[labels] ^ (rng.random((150, 10)) < 0.05)).astype(np.uint8)
    np.save(tmp_path / "data.npy", data)
    np.save(tmp_path / "labels.npy", labels.astype(np.uint8))
    options = ["--algo", "pcd", "--lr", 0.05, "--batch", 15, "--updates", 200, "--eval-every", 100, "--rows", "10:140"]
    cli("train", "--data", tmp_path / "data.npy", "--labels", tmp_path / "labels.npy", "--hidden", 8,
        "--out", tmp_path / "run", *options)
    result = rbmix.train(data, labels=labels, hidden=8, algorithm="pcd", learning_rate=0.05, batch=15, updates=200,
                         evaluate_every=100, rows="10:140")
    from_cli = np.load(tmp_path / "run" / "model.npz")
    np.testing.assert_array_equal(result.model.weights, from_cli["W"])
    assert result.label_classes == 3
    cli("classify", "--model", tmp_path / "run" / "model.npz", "--data", tmp_path / "data.npy",
        "--out", tmp_path / "predicted.npy")
    np.testing.assert_array_equal(rbmix.classify(result.model, data, 3), np.load(tmp_path / "predicted.npy"))
    np.testing.assert_allclose(rbmix.class_probabilities(result.model, data, 3).sum(axis=1), 1.0)
    with pytest.raises(rbmix.InputError, match="classes needs labels"):
        rbmix.train(data, hidden=4, classes=3)


def test_grey_levels_are_drawn_afresh_as_the_cli_draws_them(cli, tmp_path):
    grey = np.random.default_rng(5).random((60, 9))
    np.save(tmp_path / "grey.npy", grey)
    cli("train", "--data", tmp_path / "grey.npy", "--resample-binarisation", "--hidden", 3, "--updates", 30,
        "--batch", 10, "--eval-every", 0, "--out", tmp_path / "run")
    result = rbmix.train(grey, resample_binarisation=True, hidden=3, updates=30, batch=10, evaluate_every=0)
    np.testing.assert_array_equal(result.model.weights, np.load(tmp_path / "run" / "model.npz")["W"])
    with pytest.raises(rbmix.InputError, match="data"):
        rbmix.train(grey, hidden=3)
    with pytest.raises(rbmix.InputError, match=r"grey levels, each in \[0, 1\]"):
        rbmix.train(grey * 2, resample_binarisation=True, hidden=3)


def average_log_likelihood(model, data):
    """Mean log p(v) of the rows, exactly: −F(v) − log Z with F(v) = −bᵀv − Σ_j softplus(c_j + W_j v)."""
    inputs = data @ model.weights.T + model.hidden_bias
    return float(np.mean(data @ model.visible_bias + np.logaddexp(0.0, inputs).sum(axis=1))
                 - rbmix.log_partition(model))


def test_keep_best_returns_the_model_of_the_best_evaluation():
    data = training_data()
    result = rbmix.train(data, hidden=4, algorithm="pcd", learning_rate=0.3, batch=20, updates=300,
                         evaluate_every=25, keep="best", seed=2)
    curve = result.learning_curve["train_log_likelihood"]
    assert average_log_likelihood(result.best_model, data) == pytest.approx(np.max(curve), abs=1e-9)
    assert average_log_likelihood(result.model, data) == pytest.approx(curve[-1], abs=1e-9)
    assert rbmix.train(data, hidden=4, updates=10).best_model is None
