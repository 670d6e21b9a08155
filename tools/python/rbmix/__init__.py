"""rbmix: verified MCMC for binary restricted Boltzmann machines.

A thin front-end over the C++ library that the ``rbmix`` command line uses: arrays are checked once at the
boundary, the library does the work with the GIL released. See docs/python.md. ``rbmix.sklearn`` (imported on its
own, as it needs scikit-learn) holds ``RBM``, an estimator that stands in for scikit-learn's BernoulliRBM.

Conventions: W is hidden × visible; one sample (chain) per row; data and states are 0/1 arrays of dtype float64,
float32, uint8 or bool. Bad input raises :class:`InputError` (a :class:`ValueError`) naming the argument.
"""

from ._rbmix import (
    AisResult,
    AutocorrelationTime,
    ConvergenceBound,
    InputError,
    LadderConvergenceBound,
    OperatorAnalysis,
    PathMetropolisBound,
    Rbm,
    TemperingLadder,
    TrainingResult,
    Trajectory,
    __version__,
    ais,
    analyze,
    autocorrelation_time,
    class_probabilities,
    classify,
    convergence_bound,
    exact_total_variation,
    experiments,
    load_model,
    ladder_convergence_bound,
    log_partition,
    path_metropolis_bound,
    place_ladder,
    random_model,
    read_trajectory,
    rhat_nested,
    run_experiment,
    sample,
    sample_ptt,
    trajectory_log_partition,
)
from ._training import TrainingInterrupted, train
from . import verify

__all__ = [
    "AisResult",
    "AutocorrelationTime",
    "ConvergenceBound",
    "InputError",
    "LadderConvergenceBound",
    "OperatorAnalysis",
    "PathMetropolisBound",
    "Rbm",
    "TrainingInterrupted",
    "TemperingLadder",
    "TrainingResult",
    "Trajectory",
    "ais",
    "analyze",
    "autocorrelation_time",
    "class_probabilities",
    "classify",
    "convergence_bound",
    "exact_total_variation",
    "experiments",
    "load_model",
    "ladder_convergence_bound",
    "log_partition",
    "path_metropolis_bound",
    "place_ladder",
    "random_model",
    "read_trajectory",
    "rhat_nested",
    "run_experiment",
    "sample",
    "sample_ptt",
    "train",
    "trajectory_log_partition",
    "verify",
    "__version__",
]
