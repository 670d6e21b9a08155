#!/usr/bin/env python3
"""PCD-k, CD-k or PT training of a binary RBM written the way PyTorch users write it (a plain CPU loop, float32).

One pass over the rows of --data (a .npy of 0/1 rows) in mini-batches, with as many chains as the batch: persistent
(Tieleman 2008) or, with --restart, started at the batch every update (CD-k); positive phase p(h | v_data); --k
Gibbs sweeps h ~ p(h | v), v ~ p(v | h) of the chains; gradient <v hᵀ>_data − <v hᵀ>_chains with the hidden
probabilities of the new chain states; plain SGD. With --replicas t > 1, parallel tempering as rbmix does it: t
persistent replicas at β_i = 1 − i/(t − 1), each swept k times at its β, then swaps of neighbours (β_0, β_1),
(β_1, β_2), … accepted with probability min(1, exp((β_i − β_j)(E_i − E_j))); the β = 1 replica gives the sample. Prints one JSON line
with the loop's seconds (imports, data loading and initialisation excluded) and the thread count.
"""
import argparse
import json
import time

import numpy as np
import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True)
    parser.add_argument("--hidden", type=int, required=True)
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--k", type=int, default=1, help="Gibbs sweeps per update")
    parser.add_argument("--restart", action="store_true", help="CD-k: the chains start at the batch every update")
    parser.add_argument("--replicas", type=int, default=1, help="parallel tempering replicas (1: none)")
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    data = torch.from_numpy(np.load(args.data).astype(np.float32))
    rows, visible = data.shape
    weights = 0.01 * torch.randn(visible, args.hidden)
    visible_bias = torch.zeros(visible)
    hidden_bias = torch.zeros(args.hidden)
    chains = data[: args.batch].clone()
    betas = [1.0 - i / (args.replicas - 1) for i in range(args.replicas)] if args.replicas > 1 else [1.0]
    replicas = [chains.clone() for _ in betas]

    start = time.perf_counter()
    with torch.no_grad():
        for first in range(0, rows - args.batch + 1, args.batch):
            batch = data[first : first + args.batch]
            positive_hidden = torch.sigmoid(batch @ weights + hidden_bias)
            if args.restart:
                replicas[0] = batch
            hiddens = []
            for r, beta in enumerate(betas):
                for _ in range(args.k):
                    hidden = torch.bernoulli(torch.sigmoid(beta * (replicas[r] @ weights + hidden_bias)))
                    replicas[r] = torch.bernoulli(torch.sigmoid(beta * (hidden @ weights.t() + visible_bias)))
                hiddens.append(hidden)
            if len(betas) > 1:
                energies = [-((v @ weights) * h).sum(1) - v @ visible_bias - h @ hidden_bias
                            for v, h in zip(replicas, hiddens)]
                for r in range(len(betas) - 1):
                    accept = torch.rand(args.batch) < torch.exp(
                        torch.clamp((betas[r] - betas[r + 1]) * (energies[r] - energies[r + 1]), max=0.0))
                    swap = accept.unsqueeze(1)
                    replicas[r], replicas[r + 1] = (torch.where(swap, replicas[r + 1], replicas[r]),
                                                    torch.where(swap, replicas[r], replicas[r + 1]))
                    hiddens[r], hiddens[r + 1] = (torch.where(swap, hiddens[r + 1], hiddens[r]),
                                                  torch.where(swap, hiddens[r], hiddens[r + 1]))
                    energies[r], energies[r + 1] = (torch.where(accept, energies[r + 1], energies[r]),
                                                    torch.where(accept, energies[r], energies[r + 1]))
            chains = replicas[0]
            negative_hidden = torch.sigmoid(chains @ weights + hidden_bias)
            scale = args.lr / args.batch
            weights += scale * (batch.t() @ positive_hidden - chains.t() @ negative_hidden)
            visible_bias += scale * (batch.sum(0) - chains.sum(0))
            hidden_bias += scale * (positive_hidden.sum(0) - negative_hidden.sum(0))
    seconds = time.perf_counter() - start
    print(json.dumps({"peer": "pytorch", "seconds": seconds, "threads": args.threads,
                      "updates": rows // args.batch, "torch": torch.__version__}))


if __name__ == "__main__":
    main()
