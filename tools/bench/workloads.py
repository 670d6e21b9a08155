#!/usr/bin/env python3
"""One job of each kind that gates the papers' tables, at reduced length, timed for two rbmix programs in one run.

The jobs are the ones docs/performance.md ("The workloads that gate the papers' tables") names, each as the command
line a user or an experiment runs, on 784 visible and 500 hidden units:

  pt        003 Table 2's training: 20 replicas × 100 chains, 10 sweeps per update (20-PT10), in double
  pt-float  the same sampled in float (what `experiment autocorr` trains with now)
  chain     one chain's energy trace (`rbmix mixing`, 1 chain, in double: 003 Table 2's τ chains)
  cd25      CD-25, batch 100, in float (Salakhutdinov & Murray's model)
  ais       AIS, 100 particles, in float (a 2 000-distribution slice of their 14 500)
  pcd1      PCD-1, batch 100, in float

Each job runs with the baseline program and the candidate program in turn (the order alternating from one repeat to
the next), on the same data, model and seed, and the script prints each program's median wall and CPU seconds and
the ratio baseline / candidate (median of the repeats' ratios, with their range). CPU seconds are the ones to read
on a loaded machine. The model for `chain` and `ais` is trained once by the baseline program (PCD-1, 300 updates),
so that an older program can read it too.

usage: tools/bench/workloads.py --baseline OLD/rbmix [--candidate build/bin/rbmix] --data ROWS.npy
                                [--repeats 3] [--threads 1] [--jobs pt,chain,...] [--length 1.0]
ROWS.npy holds 0/1 rows of 784 values (`rbmix data convert-mnist` writes MNIST's as train.npy); its first 5 000 rows
are the training jobs' data. --length scales
every job's updates, sweeps or distributions. --threads sets OMP_NUM_THREADS for both programs (0: left unset).
"""
import argparse
import ast
import os
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HIDDEN = "500"


def job_commands(length):
    """Each job's arguments; DATA, SMALL and MODEL are replaced by paths, OUT by a fresh directory."""
    def scaled(count):
        return str(max(1, round(count * length)))

    train = ["train", "--data", "DATA", "--hidden", HIDDEN, "--batch", "100", "--eval-every", "0", "--seed", "1",
             "--out", "OUT"]
    return {
        "pt": train + ["--algo", "pt", "--replicas", "20", "--k", "10", "--updates", scaled(10)],
        "pt-float": train + ["--algo", "pt", "--replicas", "20", "--k", "10", "--updates", scaled(10), "--float"],
        "chain": ["mixing", "--model", "MODEL", "--chains", "1", "--steps", scaled(20000), "--burn-in", "0",
                  "--seed", "1"],
        "cd25": train + ["--algo", "cd", "--k", "25", "--updates", scaled(100), "--float"],
        "ais": ["loglik", "--model", "MODEL", "--data", "SMALL", "--ais", "--particles", "100", "--distributions",
                scaled(2000), "--seed", "1"],
        "pcd1": train + ["--algo", "pcd", "--updates", scaled(300), "--float"],
    }


def first_rows(source, target, rows):
    """Writes the first `rows` rows of a 2-D .npy file (any dtype, C order) without numpy."""
    with open(source, "rb") as handle:
        raw = handle.read()
    if raw[:6] != b"\x93NUMPY":
        sys.exit(f"{source}: not a .npy file")
    major = raw[6]
    length_size = 2 if major == 1 else 4
    header_length = int.from_bytes(raw[8:8 + length_size], "little")
    body_start = 8 + length_size + header_length
    header = ast.literal_eval(raw[8 + length_size:body_start].decode("latin1"))
    if header.get("fortran_order") or len(header["shape"]) != 2:
        sys.exit(f"{source}: expected a 2-D array in C order")
    total_rows, columns = header["shape"]
    item = int("".join(ch for ch in header["descr"] if ch.isdigit()))
    rows = min(rows, total_rows)
    header["shape"] = (rows, columns)
    text = repr(header)
    padding = 64 - (8 + 2 + len(text) + 1) % 64
    text = text + " " * padding + "\n"
    with open(target, "wb") as handle:
        handle.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text.encode("latin1"))
        handle.write(raw[body_start:body_start + rows * columns * item])


def timed_run(program, arguments, environment):
    """Wall and CPU seconds (user + system of the child) of one run; exits naming the command if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run([program] + arguments, env=environment, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {program} {' '.join(arguments)}\n{result.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--baseline", required=True, help="the rbmix program to compare against")
    parser.add_argument("--candidate", default=os.path.join(root, "build", "bin", "rbmix"))
    parser.add_argument("--data", required=True, help=".npy file of 0/1 rows with 784 values")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1, help="OMP_NUM_THREADS for both (0: unset)")
    parser.add_argument("--jobs", default="pt,pt-float,chain,cd25,ais,pcd1")
    parser.add_argument("--length", type=float, default=1.0, help="scales every job's length")
    options = parser.parse_args()
    if options.repeats < 1 or options.length <= 0:
        sys.exit("--repeats must be at least 1 and --length positive")
    commands = job_commands(options.length)
    jobs = options.jobs.split(",")
    for job in jobs:
        if job not in commands:
            sys.exit(f"--jobs: unknown job '{job}' (one of {', '.join(commands)})")
    programs = {"baseline": os.path.abspath(options.baseline), "candidate": os.path.abspath(options.candidate)}
    for name, program in programs.items():
        if not os.access(program, os.X_OK):
            sys.exit(f"--{name}: no program at {program}")
    environment = dict(os.environ)
    if options.threads > 0:
        environment["OMP_NUM_THREADS"] = str(options.threads)

    work = tempfile.mkdtemp(prefix="rbmix-workloads-")
    try:
        # The training jobs read 5 000 rows (the peers' benchmark's size), so that reading and checking the data
        # is a small part of each run; AIS's log-likelihood is taken on 100 rows.
        rows = os.path.join(work, "rows.npy")
        first_rows(options.data, rows, 5000)
        small = os.path.join(work, "small.npy")
        first_rows(options.data, small, 100)
        model_directory = os.path.join(work, "model")
        print("training the model of `chain` and `ais` with the baseline (PCD-1, 300 updates) ...", flush=True)
        timed_run(programs["baseline"], ["train", "--data", rows, "--hidden", HIDDEN, "--algo", "pcd",
                                         "--batch", "100", "--updates", "300", "--lr", "0.05", "--eval-every", "0",
                                         "--float", "--seed", "1", "--out", model_directory], environment)
        model = os.path.join(model_directory, "model.npz")
        substitutions = {"DATA": rows, "SMALL": small, "MODEL": model}
        times = {(job, name): [] for job in jobs for name in programs}
        for repeat in range(options.repeats):
            for job in jobs:
                order = ["baseline", "candidate"] if repeat % 2 == 0 else ["candidate", "baseline"]
                for name in order:
                    out = tempfile.mkdtemp(dir=work)
                    arguments = [substitutions.get(a, out if a == "OUT" else a) for a in commands[job]]
                    wall, cpu = timed_run(programs[name], arguments, environment)
                    times[(job, name)].append((wall, cpu))
                    shutil.rmtree(out)
                    print(f"repeat {repeat + 1}/{options.repeats} {job:9s} {name:9s} {wall:8.2f} s wall "
                          f"{cpu:8.2f} s CPU", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"\nOMP_NUM_THREADS={options.threads or 'unset'}, {options.repeats} repeats, length x{options.length}; "
          f"medians; ratio = baseline / candidate, median [range] of the repeats' ratios")
    print(f"{'job':9s} | {'baseline wall':>13s} {'CPU':>7s} | {'candidate wall':>14s} {'CPU':>7s} | "
          f"{'wall ratio':>20s} | {'CPU ratio':>20s}")
    for job in jobs:
        base = times[(job, "baseline")]
        cand = times[(job, "candidate")]
        cells = []
        for index in (0, 1):
            ratios = [b[index] / c[index] for b, c in zip(base, cand)]
            cells.append(f"{statistics.median(ratios):5.2f} [{min(ratios):.2f}-{max(ratios):.2f}]")
        print(f"{job:9s} | {statistics.median(t[0] for t in base):13.2f} {statistics.median(t[1] for t in base):7.2f}"
              f" | {statistics.median(t[0] for t in cand):14.2f} {statistics.median(t[1] for t in cand):7.2f} | "
              f"{cells[0]:>20s} | {cells[1]:>20s}")
    if "pt" in jobs and "pt-float" in jobs:
        cells = []
        for index, name in ((0, "wall"), (1, "CPU")):
            ratios = [b[index] / c[index] for b, c in zip(times[("pt", "baseline")], times[("pt-float", "candidate")])]
            cells.append(f"{name} {statistics.median(ratios):.2f} [{min(ratios):.2f}-{max(ratios):.2f}]")
        print(f"003 Table 2's training as each program's experiment runs it (baseline pt in double / candidate "
              f"pt-float): {', '.join(cells)}")


if __name__ == "__main__":
    main()
