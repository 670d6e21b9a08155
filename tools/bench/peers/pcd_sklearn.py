#!/usr/bin/env python3
"""scikit-learn's BernoulliRBM (PCD-1 with as many persistent chains as the batch) for one pass over --data.

The input is float32 (BernoulliRBM keeps float32), so it trains in float32. Prints one JSON line with the seconds
of fit() (imports and data loading excluded); the BLAS threads are the environment's (OPENBLAS_NUM_THREADS).
"""
import argparse
import json
import time

import numpy as np
import sklearn
from sklearn.neural_network import BernoulliRBM


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", required=True)
    parser.add_argument("--hidden", type=int, required=True)
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    data = np.load(args.data).astype(np.float32)
    rbm = BernoulliRBM(n_components=args.hidden, learning_rate=args.lr, batch_size=args.batch, n_iter=1,
                       random_state=args.seed)
    start = time.perf_counter()
    rbm.fit(data)
    seconds = time.perf_counter() - start
    print(json.dumps({"peer": "sklearn", "seconds": seconds, "dtype": str(rbm.components_.dtype),
                      "updates": data.shape[0] // args.batch, "sklearn": sklearn.__version__}))


if __name__ == "__main__":
    main()
