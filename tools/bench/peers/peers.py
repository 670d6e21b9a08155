#!/usr/bin/env python3
"""Times rbmix's PCD-1 training (or its AIS of log Z) against the same work written with PyTorch and with scikit-learn.

Every training workload is one pass (or --fraction of one) over the same binary MNIST rows, PCD-1 with as many
persistent chains as the batch (or --algorithm cd / --k for CD-k and PCD-k, which scikit-learn's BernoulliRBM does not
do: its columns are then empty), float32 for the peers and `rbmix train --float`. The runs are interleaved (repeat by
repeat, shape by shape, thread count by thread count) so that a change in the machine's load hits every program alike;
each program gets its best thread count; medians over the repeats. The same run measures the machine's GEMM: the time
of the fewest dense products an update needs (data·W, which also gives the first sweep's or the next update's hidden
inputs; the sweeps' other layer inputs; E[h|v] of the chains; the two statistics: 2k + 3, five for PCD-1) at the
best float32 rate numpy's BLAS reaches, times the number of updates, is the floor a dense implementation cannot beat.
--algorithm ais times `rbmix loglik --ais --schedule linear` (float sampling) against ais_pytorch.py, the same
annealing from the data's base-rate model (scikit-learn has none: its columns are empty). rbmix's 0/1 products
cost what the share of ones in v and h makes them cost, so the model must be trained, not random: the run first trains
one model per hidden size with rbmix (PCD-1, 200 updates of batch 100 at learning rate 0.1 on the rows, untimed) and
then interleaves the two programs on it as above; --shapes are then hidden:particles. Both clocks cover the estimate,
the base rates and the rows' average log-likelihood (rbmix's "seconds" includes the latter: one product of
rows × visible × hidden, which is why AIS reads a small --fraction by default); the floor counts the annealing's
products only, 2K − 1 of particles × visible × hidden for K distributions (c + W v once per step, Wᵀh for the K − 1
sweeps), so it stays a floor.
The two log Z are printed side by side: they differ by AIS noise only (the band of one run is in rbmix's JSON).
Prints a Markdown table and writes every measurement to --out as JSON.
"""
import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def blas_core(environment):
    """The OpenBLAS kernel numpy gets under `environment` (the peers' BLAS), or a note when it is not OpenBLAS."""
    probe = (
        "import ctypes, numpy\n"
        "paths = {l.split()[-1] for l in open('/proc/self/maps') if 'openblas' in l and l.split()[-1].startswith('/')}\n"
        "core = 'not OpenBLAS'\n"
        "for p in paths:\n"
        "    try:\n"
        "        f = ctypes.CDLL(p).openblas_get_corename; f.restype = ctypes.c_char_p; core = f().decode(); break\n"
        "    except (OSError, AttributeError):\n"
        "        pass\n"
        "print(core)\n")
    return subprocess.run([sys.executable, "-c", probe], env=environment, capture_output=True, text=True,
                          check=True).stdout.strip()


def widest_kernel():
    """The OpenBLAS kernel for the widest vectors this processor has. Debian's OpenBLAS 0.3.21 does not recognise
    some recent processors and then picks a generic kernel 4-5x slower than its SkylakeX one, which would flatter
    rbmix; forcing a kernel the processor cannot run would crash the peers."""
    with open("/proc/cpuinfo") as cpuinfo:
        flags = next((line.split(":", 1)[1].split() for line in cpuinfo if line.startswith("flags")), [])
    if "avx512f" in flags and "avx512vl" in flags:
        return "SkylakeX"
    if "avx2" in flags and "fma" in flags:
        return "Haswell"
    return ""


def dense_floor(visible, hidden, rows, forward, backward, outer, threads, environment):
    """Seconds of `forward` products v·W, `backward` h·Wᵀ and `outer` vᵀ·h of `rows` rows in dense float32 with numpy's
    BLAS (best of several runs): (k + 1, k, 2) are a training update's 2k + 3, (1, 1, 0) an AIS sweep's two."""
    probe = f"""
import json, time, numpy as np
rng = np.random.default_rng(1)
v = (rng.random(({rows}, {visible})) < 0.13).astype(np.float32)
h = (rng.random(({rows}, {hidden})) < 0.5).astype(np.float32)
w = rng.standard_normal(({visible}, {hidden})).astype(np.float32)
def update():
    for _ in range({forward}): v @ w
    for _ in range({backward}): h @ w.T
    for _ in range({outer}): v.T @ h
for _ in range(3): update()
best = float('inf')
for _ in range(7):
    start = time.perf_counter(); [update() for _ in range(10)]; best = min(best, (time.perf_counter() - start) / 10)
print(json.dumps(best))
"""
    env = dict(environment, OPENBLAS_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    return json.loads(subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                                     check=True).stdout)


def run_json(command, environment):
    result = subprocess.run(command, env=environment, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"peers: {' '.join(command)} failed:\n{result.stderr[-2000:]}")
    return result.stdout


def time_rbmix(rbmix, data, hidden, batch, updates, algorithm, sweeps, replicas, threads, environment):
    with tempfile.TemporaryDirectory() as out:
        env = dict(environment, OMP_NUM_THREADS=str(threads))
        run_json([rbmix, "train", "--data", data, "--hidden", str(hidden), "--algo", algorithm, "--k", str(sweeps),
                  "--batch", str(batch), "--updates", str(updates), "--eval-every", "0", "--lr", "0.01", "--float",
                  "--seed", "1", "--out", out] + (["--replicas", str(replicas)] if algorithm == "pt" else []), env)
        with open(os.path.join(out, "run.json")) as f:
            return json.load(f)["summary"]["seconds"]


def time_pytorch(data, hidden, batch, algorithm, sweeps, replicas, threads, environment):
    env = dict(environment, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    out = run_json([sys.executable, os.path.join(HERE, "pcd_pytorch.py"), "--data", data, "--hidden", str(hidden),
                    "--batch", str(batch), "--threads", str(threads), "--k", str(sweeps), "--replicas", str(replicas)]
                   + (["--restart"] if algorithm == "cd" else []), env)
    return json.loads(out.strip().splitlines()[-1])["seconds"]


def time_sklearn(data, hidden, batch, threads, environment):
    env = dict(environment, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    out = run_json([sys.executable, os.path.join(HERE, "pcd_sklearn.py"), "--data", data, "--hidden", str(hidden),
                    "--batch", str(batch)], env)
    return json.loads(out.strip().splitlines()[-1])["seconds"]


def train_ais_model(rbmix, data, hidden, rows, directory, environment):
    """A model for AIS to anneal to: PCD-1 from rbmix's base-rate start, 200 updates of batch 100 (untimed). At
    learning rate 0.01 they leave W near its N(0, 0.01²) start and every hidden unit at p ≈ 0.5 (measured at 500
    hidden); at 0.1 the data's mean p(h | v) is 0.25, nearer a trained model's, which is what the 0/1 products see."""
    run_json([rbmix, "train", "--data", data, "--hidden", str(hidden), "--algo", "pcd", "--batch", str(min(100, rows)),
              "--updates", "200", "--eval-every", "0", "--lr", "0.1", "--float", "--seed", "1", "--out", directory],
             environment)
    return os.path.join(directory, "model.npz")


def estimate_rbmix(rbmix, model, data, particles, distributions, threads, environment):
    """`rbmix loglik --ais`: (seconds of its estimate, log Z)."""
    env = dict(environment, OMP_NUM_THREADS=str(threads))
    report = json.loads(run_json([rbmix, "loglik", "--model", model, "--data", data, "--ais", "--particles",
                                  str(particles), "--distributions", str(distributions), "--schedule", "linear",
                                  "--seed", "1", "--json"], env))
    return report["seconds"], report["log_partition"]


def estimate_pytorch(model, data, particles, distributions, threads, environment):
    """ais_pytorch.py: (seconds of its estimate, log Z)."""
    env = dict(environment, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    out = run_json([sys.executable, os.path.join(HERE, "ais_pytorch.py"), "--model", model, "--data", data,
                    "--particles", str(particles), "--distributions", str(distributions), "--threads", str(threads),
                    "--seed", "1"], env)
    report = json.loads(out.strip().splitlines()[-1])
    return report["seconds"], report["log_partition"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rbmix", required=True, help="the rbmix program")
    parser.add_argument("--data", required=True, help="binary training rows (.npy), e.g. from rbmix data convert-mnist")
    parser.add_argument("--fraction", type=float,
                        help="the share of one epoch to run (0, 1] (default 1; ais: the share of the rows that train "
                             "the models and that both estimates read, default 0.02)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--shapes", help="hidden:batch,... (default 500:100,100:100,2000:100,500:10,500:1000; "
                                         "ais: hidden:particles,..., default 500:100,100:100,2000:100)")
    parser.add_argument("--threads", default="1,2", help="thread counts to try for every program")
    parser.add_argument("--coretype", default="auto",
                        help="OPENBLAS_CORETYPE for the peers: 'auto' (default) the kernel for the widest vectors the "
                             "processor has, SkylakeX with AVX-512 and Haswell with AVX2; '' OpenBLAS's own choice")
    parser.add_argument("--algorithm", choices=("pcd", "cd", "pt", "ais"), default="pcd")
    parser.add_argument("--replicas", type=int, default=5, help="tempering replicas for --algorithm pt")
    parser.add_argument("--k", type=int, default=1, help="Gibbs sweeps per update")
    parser.add_argument("--distributions", type=int, default=1000,
                        help="AIS's intermediate distributions K (linear schedule) for --algorithm ais")
    parser.add_argument("--out", default="peers.json")
    args = parser.parse_args()
    ais = args.algorithm == "ais"
    if args.fraction is None:
        args.fraction = 0.02 if ais else 1.0
    if args.shapes is None:
        args.shapes = "500:100,100:100,2000:100" if ais else "500:100,100:100,2000:100,500:10,500:1000"
    if not 0.0 < args.fraction <= 1.0:
        sys.exit(f"peers: --fraction {args.fraction} must be in (0, 1]")
    if args.repeats < 1:
        sys.exit("peers: --repeats must be at least 1")
    if args.k < 1:
        sys.exit("peers: --k must be at least 1")
    if args.distributions < 1:
        sys.exit("peers: --distributions must be at least 1")
    # scikit-learn's BernoulliRBM is PCD-1 only.
    with_sklearn = args.algorithm == "pcd" and args.k == 1
    peers = ("rbmix", "pytorch", "sklearn") if with_sklearn else ("rbmix", "pytorch")
    name = f"{args.algorithm.upper()}-{args.k}"
    replicas = args.replicas if args.algorithm == "pt" else 1
    if args.algorithm == "pt":
        name = f"PT ({replicas} replicas, {args.k} sweep{'s' if args.k > 1 else ''} each)"
    if ais:
        name = f"AIS of log Z ({args.distributions} distributions, linear schedule)"
    # The sweeps of all replicas count in the floor (the energies of the swaps are left out of it).
    floor_sweeps = args.k * replicas

    import numpy as np
    rows = np.load(args.data, mmap_mode="r")
    visible = rows.shape[1]
    count = max(1, int(rows.shape[0] * args.fraction))
    shapes = [tuple(int(x) for x in shape.split(":")) for shape in args.shapes.split(",")]
    if ais and min(shape[1] for shape in shapes) < 2:
        sys.exit("peers: AIS needs at least 2 particles")
    thread_counts = [int(t) for t in args.threads.split(",")]
    environment = dict(os.environ)
    coretype = widest_kernel() if args.coretype == "auto" else args.coretype
    if coretype:
        environment["OPENBLAS_CORETYPE"] = coretype
    # Debian's numpy and PyTorch use whatever libblas.so.3 points at: the reference BLAS unless an optimised one is
    # installed, which is 5-20x slower than what their users get and would flatter rbmix.
    if blas_core(environment) == "not OpenBLAS":
        sys.exit("peers: numpy does not load OpenBLAS (libblas.so.3 is another BLAS, likely the reference one); "
                 "install libopenblas0-pthread (run-peers.sh does) so that the peers run as their users run them")

    with tempfile.TemporaryDirectory() as scratch:
        data = os.path.join(scratch, "rows.npy")
        np.save(data, np.ascontiguousarray(rows[:count]).astype(np.uint8))
        # One model per hidden size, made before any clock runs, so that every repeat anneals to the same model.
        models = {}
        if ais:
            for hidden in sorted({shape[0] for shape in shapes}):
                models[hidden] = train_ais_model(args.rbmix, data, hidden, count,
                                                 os.path.join(scratch, f"model-{hidden}"), dict(os.environ))
                print(f"peers: trained the {hidden}-hidden model for AIS", file=sys.stderr)

        def time_workload(peer, shape, t):
            """Seconds of `peer` on `shape` with `t` threads (and, for AIS, its log Z; else None)."""
            hidden, batch = shape
            if ais:
                if peer == "rbmix":
                    return estimate_rbmix(args.rbmix, models[hidden], data, batch, args.distributions, t,
                                          dict(os.environ))
                return estimate_pytorch(models[hidden], data, batch, args.distributions, t, environment)
            if peer == "rbmix":
                return time_rbmix(args.rbmix, data, hidden, batch, count // batch, args.algorithm, args.k, replicas,
                                  t, dict(os.environ)), None
            if peer == "pytorch":
                return time_pytorch(data, hidden, batch, args.algorithm, args.k, replicas, t, environment), None
            return time_sklearn(data, hidden, batch, t, environment), None

        load_before = os.getloadavg()
        times = {(shape, peer, t): [] for shape in shapes for peer in peers for t in thread_counts}
        log_partitions = {(shape, peer): [] for shape in shapes for peer in peers}
        for repeat in range(args.repeats):
            for shape in shapes:
                for t in thread_counts:
                    for peer in peers:
                        seconds, log_partition = time_workload(peer, shape, t)
                        times[(shape, peer, t)].append(seconds)
                        if log_partition is not None:
                            log_partitions[(shape, peer)].append(log_partition)
                print(f"peers: repeat {repeat + 1}/{args.repeats}, {shape[0]} hidden, "
                      f"{'particles' if ais else 'batch'} {shape[1]} done", file=sys.stderr)
        # Training: updates × the 2k + 3 products of one; AIS: 2K − 1 products, (K − 1) sweeps of two plus one.
        if ais:
            floors = {shape: min(dense_floor(visible, shape[0], shape[1], 1, 1, 0, t, environment)
                                 for t in thread_counts) * (2 * args.distributions - 1) / 2 for shape in shapes}
        else:
            floors = {shape: min(dense_floor(visible, shape[0], shape[1], floor_sweeps + 1, floor_sweeps, 2, t,
                                             environment)
                                 for t in thread_counts) * (count // shape[1]) for shape in shapes}
        load_after = os.getloadavg()

    def best(shape, peer):
        medians = {t: statistics.median(times[(shape, peer, t)]) for t in thread_counts}
        threads = min(medians, key=medians.get)
        return medians[threads], threads

    core = blas_core(environment)
    rows_note = (f"{count} rows (base rates and average log-likelihood; the models: PCD-1, 200 updates on them)"
                 if ais else f"{count} rows ({args.fraction:g} of an epoch)")
    print(f"{rows_note}, {visible} visible, {name}, float32; medians of "
          f"{args.repeats} interleaved repeats, each program at its best of {args.threads} threads; peers' OpenBLAS "
          f"kernel: {core}; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print()
    second = "particles" if ais else "batch"
    print(f"| hidden | {second} | rbmix s | PyTorch s | sklearn s | PyTorch/rbmix | sklearn/rbmix | dense floor s "
          "| rbmix/floor |" + (" rbmix log Z | PyTorch log Z |" if ais else ""))
    print("|---|---|---|---|---|---|---|---|---|" + ("---|---|" if ais else ""))
    report = {"algorithm": name, "rows": count, "visible": visible, "repeats": args.repeats, "blas_core": core,
              "load_average": [load_before, load_after], "shapes": []}
    if ais:
        report["distributions"] = args.distributions
    for shape in shapes:
        (ours, our_threads), (torch_s, torch_threads) = best(shape, "rbmix"), best(shape, "pytorch")
        sklearn_time, sklearn_ratio = "—", "—"
        if with_sklearn:
            sk, sk_threads = best(shape, "sklearn")
            sklearn_time, sklearn_ratio = f"{sk:.3f} ({sk_threads}t)", f"{sk / ours:.2f}"
        # AIS: the medians of each program's log Z over its runs (rbmix's does not depend on the thread count).
        log_z = "".join(f" {statistics.median(log_partitions[(shape, peer)]):.3f} |" for peer in peers) if ais else ""
        print(f"| {shape[0]} | {shape[1]} | {ours:.3f} ({our_threads}t) | {torch_s:.3f} ({torch_threads}t) | "
              f"{sklearn_time} | {torch_s / ours:.2f} | {sklearn_ratio} | {floors[shape]:.3f} | "
              f"{ours / floors[shape]:.2f} |{log_z}")
        entry = {"hidden": shape[0], second: shape[1], "dense_floor_seconds": floors[shape],
                 "seconds": {f"{peer}@{t}": times[(shape, peer, t)] for peer in peers for t in thread_counts}}
        if ais:
            entry["log_partition"] = {peer: log_partitions[(shape, peer)] for peer in peers}
        report["shapes"].append(entry)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)

if __name__ == "__main__":
    main()
