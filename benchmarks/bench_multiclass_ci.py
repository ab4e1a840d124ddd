"""Benchmark: ``mev.ci_table()`` (issue 31), the bootstrap intervals of the default
multiclass measures (the "summary" preset: TPR, TNR, PPV, NPV, F1 and the AUC averaged
one-vs-rest; accuracy, balanced accuracy, MCC and Brier native), all on one set of
replicates, against the naive loop (redraw the rows, call scikit-learn's functions on
each replicate), timed on a few replicates and scaled.

    python benchmarks/bench_multiclass_ci.py                       # k = 10, n = 1e6, B = 1000
    python benchmarks/bench_multiclass_ci.py --n 1e5 --resamples 200 --naive-iterations 3

Data: k classes of equal prevalence, probabilities a softmax of normal logits with the
true class's logit raised by 1.5 (every probability distinct). The evaluation is built
before the clock starts (its one-vs-rest tables are built by the first call, inside it).
Both the wall-clock and the process CPU time are printed: on a shared machine the CPU
time is the steadier figure. ``ci_table`` evaluates its streams of replicates in threads,
one per core this process may use; ``OMP_NUM_THREADS=1`` times it in one thread (same
intervals).
Target (issue 31): under 60 s for k = 10, n = 1e6, B = 1000 on 2 cores.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from _common import machine


def make_data(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), y] += 1.5
    p = np.exp(logits)
    return y, p / p.sum(axis=1, keepdims=True)


def naive_replicate(y: np.ndarray, p: np.ndarray, rows: np.ndarray) -> list[float]:
    from sklearn import metrics as skm

    yy, pp = y[rows], p[rows]
    pred = np.argmax(pp, axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [skm.recall_score(yy, pred, average="weighted"),
                skm.precision_score(yy, pred, average="weighted"),
                skm.f1_score(yy, pred, average="weighted"),
                skm.accuracy_score(yy, pred), skm.balanced_accuracy_score(yy, pred),
                skm.matthews_corrcoef(yy, pred),
                skm.roc_auc_score(yy, pp, multi_class="ovr", average="weighted"),
                skm.brier_score_loss(yy, pp, labels=np.arange(p.shape[1]))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=float, default=1e6)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--naive-iterations", type=int, default=2)
    a = ap.parse_args()
    import binmetrics as bm

    n, k, B = int(a.n), a.k, a.resamples
    print(machine())
    y, p = make_data(n, k)
    mev = bm.evaluate(y, p)
    t0, c0 = time.perf_counter(), time.process_time()
    table = mev.ci_table(n_resamples=B, random_state=0)
    t_bm, c_bm = time.perf_counter() - t0, time.process_time() - c0
    print(table[["measure", "average", "estimate", "low", "high"]].to_string(index=False))
    t0 = time.perf_counter()
    for rows in mev.bootstrap_indices(a.naive_iterations, random_state=0):
        naive_replicate(y, p, rows)
    t_naive = (time.perf_counter() - t0) / a.naive_iterations * B
    print(f"k={k} n={n:.0e} B={B}: ci_table {t_bm:.1f} s wall, {c_bm:.1f} s CPU; naive "
          "scikit-learn loop "
          f"{t_naive:.0f} s (scaled from {a.naive_iterations} replicates); "
          f"ratio {t_naive / t_bm:.1f}x")


if __name__ == "__main__":
    main()
