#!/usr/bin/env python3
"""AIS of a binary RBM's log Z written the way PyTorch users write it (a plain CPU loop, float32), as rbmix does it.

The same estimate as `rbmix loglik --ais --schedule linear` (Salakhutdinov & Murray 2008), step for step, so that the
two can be timed against each other and their log Z compared: the base model A has the visible bias
b_A = logit(data mean clipped to [1e-3, 1 − 1e-3]) of the rows of --data, no weights and no hidden bias, so
log Z_A = Σ softplus(b_A) + n_hidden log 2 (its hidden units are free: each gives a factor 2). The intermediate
models p_k ∝ p*_A^{1−β_k} p*^{β_k}, β_k = k/K, are RBMs themselves (W_k = β_k W, c_k = β_k c,
b_k = β_k b + (1 − β_k) b_A). The --particles particles start at v ~ p_A (independent units, P(v_j = 1) = σ(b_Aj));
then for k = 1..K the log weights (kept in float64, as rbmix keeps them) gain log p*_k(v) − log p*_{k−1}(v), where
log p*_β(v) = (1 − β) b_Aᵀv + β bᵀv + Σ_i softplus(β (c_i + W_i v)) is the unnormalised marginal of v with h summed
out (the free energy), and, for k < K, v moves by one Gibbs sweep at β_k: h ~ σ(β_k (c + W v)), then
v ~ σ(β_k (b + Wᵀh) + (1 − β_k) b_A). log Ẑ = log Z_A + log mean w. c + W v is computed once per step and serves
both the weights and the draw of h, in rbmix as here.
The clock covers what rbmix's "seconds" covers, its estimate() (the base rates, AIS and the rows' average
log-likelihood mean(−F(v)) − log Ẑ), so that both time the same work; imports, loading and the thread setup are
outside it. Prints one JSON line with the seconds, log Z, the average log-likelihood and the thread count.
"""
import argparse
import json
import math
import time

import numpy as np
import torch
import torch.nn.functional as F


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", required=True, help="rbmix model file (.npz: W is hidden × visible, b, c)")
    parser.add_argument("--data", required=True, help="0/1 rows (.npy): the base rates and the average log-likelihood")
    parser.add_argument("--particles", type=int, default=100)
    parser.add_argument("--distributions", type=int, default=1000, help="K of the linear schedule β_k = k/K")
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.particles < 2 or args.distributions < 1:
        parser.error("at least 2 particles and 1 distribution")

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    with np.load(args.model) as model:
        # Float32 as rbmix samples in float; the file holds double.
        weights = torch.from_numpy(model["W"].astype(np.float32))  # hidden × visible
        visible_bias = torch.from_numpy(model["b"].astype(np.float32))
        hidden_bias = torch.from_numpy(model["c"].astype(np.float32))
    rows = np.load(args.data)
    data = torch.from_numpy(rows.astype(np.float32))
    hidden, visible = weights.shape
    if data.shape[1] != visible:
        parser.error(f"{args.data} has {data.shape[1]} columns but the model has {visible} visible units")
    betas = [k / args.distributions for k in range(args.distributions + 1)]

    start = time.perf_counter()
    with torch.no_grad():
        # The base rates in double, as rbmix computes them, then float32 for the sampling.
        mean = np.clip(rows.mean(axis=0, dtype=np.float64), 1e-3, 1.0 - 1e-3)
        base_bias64 = np.log(mean / (1.0 - mean))
        base_log_partition = float(np.logaddexp(0.0, base_bias64).sum()) + hidden * math.log(2.0)
        base_bias = torch.from_numpy(base_bias64.astype(np.float32))

        particles = torch.bernoulli(torch.sigmoid(base_bias).expand(args.particles, visible).contiguous())
        log_weights = torch.zeros(args.particles, dtype=torch.float64)
        hidden_inputs = particles @ weights.t() + hidden_bias  # c + W v
        visible_terms = particles @ (visible_bias - base_bias)  # bᵀv − b_Aᵀv
        for k in range(1, len(betas)):
            beta, previous = betas[k], betas[k - 1]
            log_weights += ((beta - previous) * visible_terms).double() + (
                F.softplus(beta * hidden_inputs) - F.softplus(previous * hidden_inputs)).sum(1).double()
            if k < len(betas) - 1:
                hidden_states = torch.bernoulli(torch.sigmoid(beta * hidden_inputs))
                particles = torch.bernoulli(torch.sigmoid(beta * (hidden_states @ weights + visible_bias)
                                                          + (1.0 - beta) * base_bias))
                hidden_inputs = particles @ weights.t() + hidden_bias
                visible_terms = particles @ (visible_bias - base_bias)
        log_partition = base_log_partition + (torch.logsumexp(log_weights, 0) - math.log(args.particles)).item()
        # −F(v) = bᵀv + Σ softplus(c + W v), for the rows (float32).
        negative_free_energy = data @ visible_bias + F.softplus(data @ weights.t() + hidden_bias).sum(1)
        average_log_likelihood = negative_free_energy.double().mean().item() - log_partition
    seconds = time.perf_counter() - start
    print(json.dumps({"peer": "pytorch", "seconds": seconds, "log_partition": log_partition,
                      "average_log_likelihood": average_log_likelihood, "threads": args.threads,
                      "particles": args.particles, "distributions": args.distributions,
                      "torch": torch.__version__}))


if __name__ == "__main__":
    main()
