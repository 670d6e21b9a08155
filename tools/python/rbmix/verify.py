"""Black-box checks of samplers and unit rules (the C++ rbmix::verify, docs/design.md §1).

``audit_sampler(model, step, ...)`` audits any sampler given as one step of a batch of chains;
``check_rule(probability_of_one, ...)`` checks a unit rule written with numpy as rbmix checks its own rules.
"""

from ._rbmix.verify import AuditResult, VerificationResult, audit_sampler, check_rule

__all__ = ["AuditResult", "VerificationResult", "audit_sampler", "check_rule"]
