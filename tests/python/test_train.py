"""rbmix.train runs the CLI's training: the same options and seed give bit-identical parameters to `rbmix train`;
Ctrl-C raises KeyboardInterrupt and leaves the checkpoint, from which the run resumes."""

import os
import signal
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
    assert len(points) == 5 and points[-1]["update"][0] == 400
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
        with pytest.raises(KeyboardInterrupt):
            rbmix.train(data, updates=10**9, checkpoint=checkpoint, callback=seen.append, **options)
    finally:
        timer.cancel()
    assert checkpoint.exists()
    # The checkpoint is at most 999 updates past the last evaluation seen; the resumed run ends where an
    # uninterrupted run of as many updates ends, bit for bit.
    updates = int(seen[-1]["update"][0]) + 1500
    resumed = rbmix.train(data, updates=updates, checkpoint=checkpoint, resume=True, **options)
    assert resumed.updates_done == updates
    straight = rbmix.train(data, updates=updates, **options)
    np.testing.assert_array_equal(resumed.model.weights, straight.model.weights)
