"""rbmix.train: its keyword arguments are the library's table of training settings, the very table `rbmix train`
declares its options from, so names, defaults, help and checks cannot drift between the two front-ends."""

import difflib
import inspect
import numbers
from typing import Any, Optional

import numpy as np

from . import _rbmix
from ._rbmix import TrainingResult

_SETTINGS = _rbmix._training_settings()
_BY_NAME = {setting["name"]: setting for setting in _SETTINGS}
_FRONT_END_ARGUMENTS = ("test", "labels", "test_labels", "checkpoint", "resume", "callback", "initial_model",
                        "trajectory_file")
_PYTHON_TYPES = {"flag": bool, "integer": int, "real": float, "text": str}


class TrainingInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`train`; ``result`` holds the model after the last completed update and its learning
    curve, and the message says how to resume."""

    def __init__(self, result: TrainingResult, message: str) -> None:
        super().__init__(message)
        self.result = result


def _default(setting: dict) -> Any:
    if setting["default"] == "":
        return None
    kind = setting["type"]
    if kind == "flag":
        return setting["default"] == "true"
    if kind == "integer":
        return int(setting["default"])
    if kind == "real":
        return float(setting["default"])
    return setting["default"]


def _as_text(name: str, value: Any) -> str:
    """A value as the library reads it: a bool as true/false, numbers exactly (repr round-trips a float). A value of
    another type goes as its text, and the library refuses it with the message the command line would give."""
    kind = _BY_NAME[name]["type"]
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if kind == "real" and isinstance(value, numbers.Real):
        return repr(float(value))
    return str(value)


def _signature() -> inspect.Signature:
    parameters = [inspect.Parameter("data", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for setting in _SETTINGS:
        default = inspect.Parameter.empty if setting["required"] else _default(setting)
        annotation = _PYTHON_TYPES[setting["type"]]
        if default is None:
            annotation = Optional[annotation]
        parameters.append(inspect.Parameter(setting["name"], inspect.Parameter.KEYWORD_ONLY, default=default,
                                            annotation=annotation))
    for name in _FRONT_END_ARGUMENTS:
        default = False if name == "resume" else None
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default))
    return inspect.Signature(parameters, return_annotation=TrainingResult)


_TRAIN_SIGNATURE = _signature()


def _docstring() -> str:
    lines = [
        "Trains an RBM as `rbmix train` does: the same settings (the option table below, one for both front-ends),",
        "defaults, checks and messages; the same settings and seed give bit-identical parameters.",
        "",
        "data: (N, n_visible) 0/1 rows (float64, float32, uint8 or bool); with resample_binarisation=True grey",
        "    levels in [0, 1] (float64 or float32), each use of a row drawing its binary version afresh.",
        "test: (M, n_visible) 0/1 rows scored at each evaluation.",
        "labels, test_labels: 1-D integer labels 0 ... K-1 of the rows: trains a classification RBM (the labels are",
        "    one softmax group after the inputs; result.label_classes = K; rbmix.classify predicts).",
        "checkpoint: path of a checkpoint written every checkpoint_every updates (default evaluate_every) and at the",
        "    end; resume=True continues from it (the same settings).",
        "callback(point): called at each evaluation with a dict: update (int), epoch and each measured field",
        "    (train_log_likelihood, test_log_likelihood, their AIS bounds *_lower/*_upper, train_pseudo_log_likelihood,",
        "    train_reconstruction_error, free_energy_gap, train_error, ... as floats; absent when not measured).",
        "initial_model: an Rbm of the run's shape to start from instead of the initialisation (a warm start; the",
        "    initialisation's random draws are made all the same).",
        "trajectory_file: with trajectory=K, the file that keeps K models along training (rbmix.read_trajectory reads",
        "    it; result.trajectory too); resume=True truncates it to the checkpoint's models and continues it.",
        "Ctrl-C stops after the current update and raises TrainingInterrupted (a KeyboardInterrupt) whose .result is",
        "the model of the last completed update; with a checkpoint, resume=True continues the run.",
        "Returns a TrainingResult (unpacks as model, learning_curve).",
        "",
        "Settings (Python name, command-line option, default):",
    ]
    for setting in _SETTINGS:
        default = "required" if setting["required"] else (setting["default"] or "none")
        help_lines = setting["help"].rstrip("\n").split("\n")
        lines.append(f"{setting['name']} ({setting['option']}, default {default}): {help_lines[0]}")
        lines.extend("    " + line.strip() for line in help_lines[1:])
    return "\n".join(lines)


def train(*args: Any, **kwargs: Any) -> TrainingResult:
    try:
        bound = _TRAIN_SIGNATURE.bind(*args, **kwargs)
    except TypeError as error:
        unknown = [name for name in kwargs if name not in _TRAIN_SIGNATURE.parameters]
        if not unknown:
            raise TypeError(f"train: {error}") from None
        name = unknown[0]
        by_option = [s["name"] for s in _SETTINGS if s["option"].lstrip("-").replace("-", "_") == name]
        close = by_option or difflib.get_close_matches(name, list(_TRAIN_SIGNATURE.parameters), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise TypeError(f"train: unknown keyword argument {name!r}{hint}") from None
    given = bound.arguments
    settings = {name: _as_text(name, value) for name, value in given.items()
                if name in _BY_NAME and value is not None}
    result = _rbmix._train(given["data"], settings, given.get("test"), given.get("labels"), given.get("test_labels"),
                           given.get("checkpoint"), given.get("resume", False), given.get("callback"),
                           given.get("initial_model"), given.get("trajectory_file"))
    if result.interrupted:
        if result.checkpoint is not None:
            how = (f"resume with train(..., checkpoint={str(result.checkpoint)!r}, resume=True) and the same "
                   "settings")
        else:
            how = "give checkpoint=PATH to be able to resume an interrupted run"
        raise TrainingInterrupted(result, f"training interrupted after update {result.updates_done}; the model of that "
                                          f"update is this exception's .result.model; {how}")
    return result


train.__signature__ = _TRAIN_SIGNATURE  # type: ignore[attr-defined]
train.__doc__ = _docstring()
