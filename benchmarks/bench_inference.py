"""Benchmark: bootstrap interval and permutation test of the AUC by binmetrics (one
sort, then resampled counts over the sorted table) against the naive loops
(resample or permute the rows, call scikit-learn's roc_auc_score each time).

    python benchmarks/bench_inference.py                 # n = 1e5, B = 1000, 1000 permutations
    python benchmarks/bench_inference.py --n 1e5 --resamples 1000 --permutations 1000 \
        --repeats 3 --naive-iterations 1000 --data continuous 3dp

Data: prevalence 0.1, scores from two overlapping normals squashed to (0, 1)
("continuous": every score distinct; "3dp": the same rounded to 3 decimals, heavy
ties), as in bench_evaluate.py.

(a) Bootstrap: stratified (positives and negatives resampled separately, as
    binmetrics does by default), B replicates, 95% percentile interval.
    binmetrics: ``CountTable.from_arrays`` + ``bootstrap(table, "auc")`` +
    ``.ci("auc")``. Naive: per replicate, draw P positive and N negative row indices
    with replacement and call ``roc_auc_score`` on the resampled rows.
(b) Permutation test: binmetrics ``permutation_test(table, "auc")`` (from the raw
    arrays, sort included) against, per permutation, ``roc_auc_score(
    rng.permutation(y), s)``.

binmetrics times are the best of ``--repeats`` runs; each naive loop runs once (it
takes about half a minute at n = 1e5). With ``--naive-iterations k`` below B the
naive time is measured on k iterations and scaled to B (printed as such).
Targets (issue 3, continuous, n = 1e5): bootstrap >= 25x, permutations >= 50x.
"""

from __future__ import annotations

import argparse
import gc
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from _common import make_data


def timed(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def binmetrics_bootstrap(y: np.ndarray, s: np.ndarray, B: int) -> tuple[float, float]:
    from binmetrics import CountTable
    from binmetrics.inference.resampling import bootstrap

    table = CountTable.from_arrays(y, s)
    res = bootstrap(table, "auc", n_resamples=B, random_state=0)
    iv = res.ci("auc", kind="percentile", level=0.95)
    return iv.low, iv.high


def naive_bootstrap(y: np.ndarray, s: np.ndarray, B: int) -> tuple[float, float]:
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(0)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    values = np.empty(B)
    for b in range(B):
        idx = np.concatenate((pos[rng.integers(0, pos.size, pos.size)],
                              neg[rng.integers(0, neg.size, neg.size)]))
        values[b] = roc_auc_score(y[idx], s[idx])
    lo, hi = np.quantile(values, [0.025, 0.975])
    return float(lo), float(hi)


def binmetrics_permutation(y: np.ndarray, s: np.ndarray, B: int) -> float:
    from binmetrics import CountTable
    from binmetrics.inference.resampling import permutation_test

    table = CountTable.from_arrays(y, s)
    return permutation_test(table, "auc", n_resamples=B, random_state=0).pvalue


def naive_permutation(y: np.ndarray, s: np.ndarray, B: int) -> float:
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(0)
    observed = roc_auc_score(y, s)
    null = np.array([roc_auc_score(rng.permutation(y), s) for _ in range(B)])
    return float((1 + np.count_nonzero(null >= observed)) / (1 + B))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=float, default=1e5)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--permutations", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--naive-iterations", type=int, default=None,
                    help="time the naive loops on this many iterations and scale (default: all)")
    ap.add_argument("--data", nargs="+", default=["continuous"], choices=["continuous", "3dp"])
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    import sklearn

    import binmetrics as bm

    n = int(args.n)
    print(f"binmetrics {bm.__version__}, numpy {np.__version__}, "
          f"scikit-learn {sklearn.__version__}; n = {n:.0e}, prevalence 0.1")
    y, scores = make_data(n)
    binmetrics_bootstrap(y[:2000], scores["continuous"][:2000], 10)  # imports, first calls
    header = (f"{'task':<28} {'scores':>10} | {'binmetrics':>10} {'naive':>10} | {'ratio':>7} "
              f"{'target':>6} | result binmetrics / naive")
    print(header)
    print("-" * len(header))
    tasks = [
        (f"bootstrap CI, B = {args.resamples}", args.resamples, binmetrics_bootstrap,
         naive_bootstrap, 25),
        (f"permutation test, {args.permutations}", args.permutations, binmetrics_permutation,
         naive_permutation, 50),
    ]
    for kind in args.data:
        s = scores[kind]
        for name, B, fast, naive, target in tasks:
            t_fast, r_fast = timed(lambda s=s, B=B, fast=fast: fast(y, s, B), args.repeats)
            k = B if args.naive_iterations is None else min(B, args.naive_iterations)
            t_naive, r_naive = timed(lambda s=s, k=k, naive=naive: naive(y, s, k), 1)
            t_naive *= B / k
            scaled = "" if k == B else f" (scaled from {k})"
            ratio = t_naive / t_fast
            fmt = (lambda r: f"[{r[0]:.4f}, {r[1]:.4f}]") if isinstance(r_fast, tuple) else (
                lambda r: f"p = {r:.4g}")
            print(f"{name:<28} {kind:>10} | {t_fast:9.3f}s {t_naive:9.2f}s | {ratio:6.1f}x "
                  f"{target:>5}x | {fmt(r_fast)} / {fmt(r_naive)}{scaled}", flush=True)


if __name__ == "__main__":
    main()
