#!/usr/bin/env python3
"""PCD-k or CD-k training of a binary RBM written the way PyTorch users write it (a plain CPU loop, float32).

One pass over the rows of --data (a .npy of 0/1 rows) in mini-batches, with as many chains as the batch: persistent
(Tieleman 2008) or, with --restart, started at the batch every update (CD-k); positive phase p(h | v_data); --k
Gibbs sweeps h ~ p(h | v), v ~ p(v | h) of the chains; gradient <v hᵀ>_data − <v hᵀ>_chains with the hidden
probabilities of the new chain states; plain SGD. Prints one JSON line
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
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    data = torch.from_numpy(np.load(args.data).astype(np.float32))
    rows, visible = data.shape
    weights = 0.01 * torch.randn(visible, args.hidden)
    visible_bias = torch.zeros(visible)
    hidden_bias = torch.zeros(args.hidden)
    chains = data[: args.batch].clone()

    start = time.perf_counter()
    with torch.no_grad():
        for first in range(0, rows - args.batch + 1, args.batch):
            batch = data[first : first + args.batch]
            positive_hidden = torch.sigmoid(batch @ weights + hidden_bias)
            if args.restart:
                chains = batch
            for _ in range(args.k):
                hidden = torch.bernoulli(torch.sigmoid(chains @ weights + hidden_bias))
                chains = torch.bernoulli(torch.sigmoid(hidden @ weights.t() + visible_bias))
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
