#!/usr/bin/python3
"""The black-box audit at its limit of 10 units (docs/performance.md, "The audit at 10 units").

`rbmix.verify.audit_sampler` on the 5 + 5 RBM `rbmix.random_model(5, 5, 1.0, seed=3)` (1 024 joint states) with the
hand-written numpy Gibbs sweep of tests/python/conftest.py and the audit's defaults (200 000 invariance chains,
20 000 chains per joint state, 100 bootstrap replicates), seed 1. Prints the CPU seconds of the process, the wall
seconds, the peak resident memory, the verdict, the SLEM and its interval.

usage: OMP_NUM_THREADS=1 tools/bench/audit_at_ten_units.py [--bootstrap-replicates 100]
Run it from the repository's root with the interpreter that has rbmix (PYTHONPATH=build/python after a build) and
numpy.
"""
import argparse
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "python"))

import rbmix  # noqa: E402
from conftest import gibbs, sweep  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bootstrap-replicates", type=int, default=100)
    arguments = parser.parse_args()
    model = rbmix.random_model(5, 5, 1.0, seed=3)
    cpu, wall = time.process_time(), time.perf_counter()
    audit = rbmix.verify.audit_sampler(model, sweep(model, gibbs), seed=1,
                                       bootstrap_replicates=arguments.bootstrap_replicates)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"cpu {cpu:.2f} s, wall {wall:.2f} s, peak {peak:.0f} MB; passed {audit.passed}; "
          f"SLEM {audit.slem:.6f}, interval [{audit.slem_interval[0]:.6f}, {audit.slem_interval[1]:.6f}]")


if __name__ == "__main__":
    main()
