from os import PathLike
from typing import Any, Callable, Iterator, Mapping, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import verify as verify

_Path = Union[str, PathLike[str]]
_Array = npt.ArrayLike

__version__: str

class InputError(ValueError): ...

class Rbm:
    def __init__(self, weights: _Array, visible_bias: _Array, hidden_bias: _Array) -> None: ...
    @property
    def weights(self) -> npt.NDArray[np.float64]: ...
    @property
    def visible_bias(self) -> npt.NDArray[np.float64]: ...
    @property
    def hidden_bias(self) -> npt.NDArray[np.float64]: ...
    @property
    def n_visible(self) -> int: ...
    @property
    def n_hidden(self) -> int: ...
    def energy(self, visible: _Array, hidden: _Array) -> npt.NDArray[np.float64]: ...
    def free_energy(self, visible: _Array) -> npt.NDArray[np.float64]: ...
    def hidden_probabilities(self, visible: _Array) -> npt.NDArray[np.float64]: ...
    def visible_probabilities(self, hidden: _Array) -> npt.NDArray[np.float64]: ...
    def save(self, path: _Path, provenance: Optional[Mapping[str, Any]] = None) -> None: ...
    def __getstate__(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
    def __setstate__(self, state: tuple[_Array, _Array, _Array]) -> None: ...

def load_model(path: _Path) -> Rbm: ...
def random_model(visible: int, hidden: int, weight_range: float, *, bias_range: float = 0.0, seed: int) -> Rbm: ...
def log_partition(model: Rbm) -> float: ...
def sample(
    model: Rbm,
    visible: _Array,
    hidden: Optional[_Array] = None,
    *,
    sweeps: int = 1,
    operator: str = "gibbs",
    seed: int = 1,
    burn_in: int = 0,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...

class AisResult:
    log_partition: float
    log_partition_lower: float
    log_partition_upper: float
    base_log_partition: float
    effective_sample_size: float
    distributions: int
    @property
    def log_weights(self) -> npt.NDArray[np.float64]: ...

def ais(
    model: Rbm,
    *,
    particles: int = 100,
    distributions: int = 10000,
    schedule: str = "linear",
    seed: int = 1,
    data: Optional[_Array] = None,
    float32: bool = True,
    operator: str = "gibbs",
) -> AisResult: ...

class OperatorAnalysis:
    name: str
    states: int
    representation: str
    stationarity_residual: float
    row_sum_error: float
    layer_detailed_balance_error: Optional[float]
    lambda_: Optional[float]
    communicating_classes: int
    irreducible: bool
    period: int
    slem: float
    slem_method: str
    slem_converged: bool
    energy_tau: Optional[float]
    energy_tau_unavailable: Optional[str]

def analyze(model: Rbm, operators: Union[str, Sequence[str]] = ..., beta: float = 1.0) -> list[OperatorAnalysis]: ...

class AutocorrelationTime:
    method: str
    time: float
    lower: float
    upper: float
    band_lower: float
    band_upper: float
    cutoff: int
    trusted: bool
    reason: str
    def __float__(self) -> float: ...

def autocorrelation_time(series: _Array, method: str = "initial_monotone_sequence") -> AutocorrelationTime: ...
def rhat_nested(series: _Array, superchain_ids: Union[Sequence[int], npt.NDArray[np.integer[Any]]]) -> float: ...

class ConvergenceBound:
    lag: int
    max_sweeps: int
    meeting_times: list[Optional[int]]
    met: int
    share_met: float
    bound_available: bool
    withheld: str
    ergodicity: str
    total_variation: npt.NDArray[np.float64]
    total_variation_standard_error: npt.NDArray[np.float64]
    wasserstein: npt.NDArray[np.float64]
    wasserstein_standard_error: npt.NDArray[np.float64]
    def mixing_time(self, epsilon: float = 0.25) -> Optional[int]: ...

def convergence_bound(
    model: Rbm,
    operator: str = "gibbs",
    lag: int = 1,
    pairs: int = 100,
    start: Union[str, _Array] = "uniform",
    max_sweeps: int = 10000,
    seed: int = 1,
    beta: float = 1.0,
    maximal_within: int = 60,
    float32: bool = False,
) -> ConvergenceBound: ...
def exact_total_variation(
    model: Rbm, operator: str = "gibbs", start: Union[str, _Array] = "uniform", sweeps: int = 100, beta: float = 1.0
) -> npt.NDArray[np.float64]: ...

class Trajectory:
    n_visible: int
    n_hidden: int
    configuration: str
    @property
    def updates(self) -> npt.NDArray[np.int64]: ...
    @property
    def models(self) -> list[Rbm]: ...
    @property
    def data_visible_means(self) -> npt.NDArray[np.float64]: ...
    def independent_model(self) -> Rbm: ...
    def __len__(self) -> int: ...

def read_trajectory(path: _Path) -> Trajectory: ...
def trajectory_log_partition(
    trajectory: Union[Trajectory, _Path], data: _Array, samples: int = 1000, sweeps: int = 100, seed: int = 1
) -> dict[str, npt.NDArray[Any]]: ...
def trajectory_anneal(
    trajectory: Union[Trajectory, _Path],
    data: _Array,
    particles: int = 100,
    groups: int = 10,
    resampling_threshold: float = 0.3,
    sweeps_per_step: int = 1,
    step_size: float = 0.1,
    seed: int = 1,
    float32: bool = False,
) -> dict[str, npt.NDArray[Any]]: ...

class TemperingLadder:
    rungs: list[Rbm]
    positions: list[float]
    descriptions: list[str]
    @property
    def estimated_acceptance(self) -> npt.NDArray[np.float64]: ...
    def __len__(self) -> int: ...

def place_ladder(
    trajectory: Union[None, Trajectory, _Path] = None,
    temperature_model: Optional[Rbm] = None,
    base_rows: Optional[_Array] = None,
    operator: str = "gibbs",
    target_acceptance: float = 0.3,
    candidates: int = 400,
    placement_chains: int = 64,
    placement_sweeps: int = 10,
    seed: int = 1,
) -> TemperingLadder: ...
def sample_ptt(
    trajectory: Union[None, Trajectory, _Path] = None,
    temperature_model: Optional[Rbm] = None,
    base_rows: Optional[_Array] = None,
    operator: str = "gibbs",
    chains: int = 16,
    steps: int = 1000,
    swap_interval: int = 1,
    target_acceptance: float = 0.3,
    candidates: int = 400,
    placement_chains: int = 64,
    placement_sweeps: int = 10,
    seed: int = 1,
) -> dict[str, Any]: ...

class LadderConvergenceBound:
    bound: ConvergenceBound
    @property
    def statistics(self) -> dict[str, Any]: ...
    closed_links: list[int]
    unmet_rungs: list[int]
    sweeps_per_step: int
    bound_available: bool

def ladder_convergence_bound(
    trajectory: Union[None, Trajectory, _Path] = None,
    temperature_model: Optional[Rbm] = None,
    base_rows: Optional[_Array] = None,
    operator: str = "gibbs",
    lag: int = 1,
    pairs: int = 20,
    start: str = "uniform",
    max_steps: int = 2000,
    seed: int = 1,
    swap_interval: int = 1,
    maximal_within: int = 60,
    target_acceptance: float = 0.3,
    candidates: int = 400,
    placement_chains: int = 64,
    placement_sweeps: int = 10,
    float32: bool = False,
) -> LadderConvergenceBound: ...

def sample_path_metropolis(
    trajectory: Union[None, Trajectory, _Path] = None,
    temperature_model: Optional[Rbm] = None,
    base_rows: Optional[_Array] = None,
    operator: str = "gibbs",
    chains: int = 4,
    samples: int = 100,
    burn_in: int = 0,
    particles: int = 100,
    smc_steps: int = 800,
    sweeps_per_step: int = 4,
    resampling_threshold: float = 0.7,
    seed: int = 1,
    float32: bool = False,
) -> dict[str, Any]: ...

class PathMetropolisBound:
    bound: ConvergenceBound
    proposals: int
    accepted: int
    @property
    def proposal_log_partitions(self) -> npt.NDArray[np.float64]: ...
    @property
    def mass_check(self) -> Optional[dict[str, Any]]: ...

def path_metropolis_bound(
    trajectory: Union[None, Trajectory, _Path] = None,
    temperature_model: Optional[Rbm] = None,
    base_rows: Optional[_Array] = None,
    operator: str = "gibbs",
    lag: int = 1,
    pairs: int = 20,
    max_proposals: int = 200,
    seed: int = 1,
    particles: int = 100,
    smc_steps: int = 800,
    sweeps_per_step: int = 4,
    resampling_threshold: float = 0.7,
    float32: bool = False,
    mass_gap: float = 2.0,
) -> PathMetropolisBound: ...

class TrainingResult:
    model: Rbm
    best_model: Optional[Rbm]
    label_classes: int
    @property
    def learning_curve(self) -> dict[str, npt.NDArray[np.float64]]: ...
    termination: str
    interrupted: bool
    message: str
    updates_done: int
    seconds: float
    checkpoint: Optional[_Path]
    trajectory_file: Optional[_Path]
    @property
    def trajectory(self) -> Optional[Trajectory]: ...
    def __iter__(self) -> Iterator[Any]: ...

class TrainingInterrupted(KeyboardInterrupt):
    result: TrainingResult
    def __init__(self, result: TrainingResult, message: str) -> None: ...

# train's keywords are the library's table of training settings (rbmix._training); tests/python/test_train.py keeps
# this stub equal to the runtime signature.
def train(
    data: _Array,
    *,
    hidden: int,
    algorithm: str = "cd",
    operator: str = "gibbs",
    k: int = 1,
    replicas: int = 10,
    d: int = 1,
    k_inner: Optional[int] = None,
    learning_rate: float = 0.01,
    schedule: str = "constant",
    fast_learning_rate: Optional[float] = None,
    fast_decay: float = 0.95,
    batch: int = 0,
    momentum: float = 0.0,
    weight_decay: float = 0.0,
    updates: int = 1000,
    evaluate_every: int = 100,
    monitor: str = "auto",
    monitor_particles: int = 16,
    monitor_distributions: int = 1000,
    monitor_rows: int = 250,
    trajectory_particles: int = 100,
    trajectory_groups: int = 10,
    resampling_threshold: float = 0.3,
    sweeps_per_update: int = 1,
    trajectory_stride: int = 1000,
    trajectory_step_size: float = 0.1,
    keep: str = "final",
    rows: Optional[str] = None,
    classes: Optional[int] = None,
    resample_binarisation: bool = False,
    checkpoint_every: Optional[int] = None,
    trajectory: Optional[int] = None,
    trajectory_spacing: str = "geometric",
    seed: int = 1,
    float32: bool = False,
    init: str = "base-rate",
    test: Optional[_Array] = None,
    labels: Optional[_Array] = None,
    test_labels: Optional[_Array] = None,
    checkpoint: Optional[_Path] = None,
    resume: bool = False,
    callback: Optional[Callable[[dict[str, Any]], Any]] = None,
    initial_model: Optional[Rbm] = None,
    trajectory_file: Optional[_Path] = None,
) -> TrainingResult: ...
def classify(model: Rbm, data: _Array, classes: int) -> npt.NDArray[np.int32]: ...
def class_probabilities(model: Rbm, data: _Array, classes: int) -> npt.NDArray[np.float64]: ...

def experiments() -> dict[str, dict[str, Any]]: ...
def run_experiment(
    name: str,
    out: _Path,
    scale: str = "smoke",
    seed: int = 1,
    threads: int = 0,
    mnist: str = "",
    verbose: bool = False,
    **options: Any,
) -> dict[str, dict[str, list[Any]]]: ...
