#!/usr/bin/python3
"""scikit-learn's example "Restricted Boltzmann Machine features for digit classification", with BernoulliRBM and
with rbmix.sklearn.RBM in its place, on the same data and random states (docs/performance.md, "scikit-learn's
digits pipeline").

The example as scikit-learn publishes it: the 8×8 digits nudged by one pixel in each of four directions (5 × 1 797
images), scaled to [0, 1], 80 % for training; the RBM has 100 hidden units, learning rate 0.06, 10 passes of
batches of 10; the logistic regression (newton-cg, tol 1, C = 6000) reads its features. For every random state both
pipelines are fitted, the RBM's fit timed alone, and the script prints each run's test accuracy and RBM seconds,
then per estimator the mean and standard deviation of the accuracy and the median seconds, and the ratio of the
median seconds. The estimators alternate in order from one random state to the next.

usage: tools/bench/sklearn_digits.py [--random-states 0,1,2,3,4]
Run it with the interpreter that has rbmix (PYTHONPATH=build/python after a build, or a virtual environment with
rbmix installed) and scikit-learn.
"""
import argparse
import statistics
import time

import numpy as np
from scipy.ndimage import convolve
from sklearn import datasets
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.neural_network import BernoulliRBM
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import minmax_scale

from rbmix.sklearn import RBM


def nudge_dataset(X, Y):
    """The example's data: every image and its copies shifted by one pixel up, down, left and right."""
    directions = [[[0, 1, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [1, 0, 0], [0, 0, 0]],
                  [[0, 0, 0], [0, 0, 1], [0, 0, 0]], [[0, 0, 0], [0, 0, 0], [0, 1, 0]]]

    def shift(x, w):
        return convolve(x.reshape((8, 8)), mode="constant", weights=w).ravel()

    X = np.concatenate([X] + [np.apply_along_axis(shift, 1, X, vector) for vector in directions])
    return X, np.concatenate([Y for _ in range(5)], axis=0)


def run(estimator, data):
    X_train, X_test, y_train, y_test = data
    pipeline = Pipeline([("rbm", estimator),
                         ("logistic", LogisticRegression(solver="newton-cg", tol=1, C=6000))])
    start = time.perf_counter()
    pipeline.named_steps["rbm"].fit(X_train)
    seconds = time.perf_counter() - start
    pipeline.named_steps["logistic"].fit(pipeline.named_steps["rbm"].transform(X_train), y_train)
    return pipeline.score(X_test, y_test), seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--random-states", default="0,1,2,3,4", help="comma-separated random states")
    arguments = parser.parse_args()
    X, y = datasets.load_digits(return_X_y=True)
    X, y = nudge_dataset(np.asarray(X, "float32"), y)
    X = minmax_scale(X, feature_range=(0, 1))
    data = train_test_split(X, y, test_size=0.2, random_state=0)
    estimators = {
        "BernoulliRBM": lambda seed: BernoulliRBM(n_components=100, learning_rate=0.06, n_iter=10, random_state=seed),
        "rbmix RBM": lambda seed: RBM(n_components=100, learning_rate=0.06, n_iter=10, random_state=seed),
    }
    results = {name: [] for name in estimators}
    for position, seed in enumerate(int(text) for text in arguments.random_states.split(",")):
        names = list(estimators) if position % 2 == 0 else list(reversed(estimators))
        for name in names:
            accuracy, seconds = run(estimators[name](seed), data)
            results[name].append((accuracy, seconds))
            print(f"random_state {seed}  {name:13s} accuracy {accuracy:.4f}  RBM fit {seconds:6.2f} s", flush=True)
    medians = {}
    for name, runs in results.items():
        accuracies = [accuracy for accuracy, _ in runs]
        medians[name] = statistics.median(seconds for _, seconds in runs)
        spread = statistics.stdev(accuracies) if len(accuracies) > 1 else float("nan")
        print(f"{name:13s} accuracy {statistics.mean(accuracies):.4f} ± {spread:.4f} (sd of {len(runs)})  "
              f"median RBM fit {medians[name]:.2f} s")
    print(f"BernoulliRBM / rbmix RBM, median fit seconds: {medians['BernoulliRBM'] / medians['rbmix RBM']:.2f}")


if __name__ == "__main__":
    main()
