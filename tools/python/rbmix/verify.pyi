from typing import Callable, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from . import Rbm

_States = npt.NDArray[np.float64]

class VerificationResult:
    passed: bool
    message: str
    def __bool__(self) -> bool: ...

class AuditResult:
    passed: bool
    message: str
    invariance: VerificationResult
    ergodicity: VerificationResult
    same_as: Optional[VerificationResult]
    invariance_p_value: float
    threshold: float
    irreducible: bool
    period: int
    communicating_classes: int
    slem: float
    slem_interval: Tuple[float, float]
    same_as_slem: Optional[float]
    states: int
    def __bool__(self) -> bool: ...

def audit_sampler(
    model: Rbm,
    step: Callable[[_States, _States, np.random.Generator], Tuple[npt.ArrayLike, npt.ArrayLike]],
    *,
    chains: int = 20000,
    invariance_chains: int = 200000,
    seed: int = 20240611,
    same_as: Optional[str] = None,
    beta: float = 1.0,
    false_failure_rate: float = 1e-6,
    bootstrap_replicates: int = 100,
) -> AuditResult: ...
def check_rule(
    probability_of_one: Callable[[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]], npt.ArrayLike],
    *,
    per_unit_detailed_balance: bool = True,
    ergodic: bool = True,
    seed: int = 1,
    models: Sequence[Rbm] = ...,
) -> VerificationResult: ...
