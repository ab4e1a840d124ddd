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

    python benchmarks/bench_inference.py --scale --n 1e6 --resamples 2000 [--load 4]
    python benchmarks/bench_inference.py --scale --n 1e6 --resamples 20 40 --measures all

(c) Intervals at scale (issue 32): on n continuous scores (all distinct), the floors
(``np.sort`` and ``np.argsort`` of the scores; one "draw": the stratified index draws of
one replicate and their counts per cell, times B, in one thread with ``np.bincount`` and
in two threads counted as the bootstrap counts them, compiled with the ``fast`` extra),
then ``ev.ci(m, method="bootstrap")``
of single measures and ``ev.ci_table(method="bootstrap")`` of every measure defined on
the data. With two values of ``--resamples`` (B1 < B2) each time is measured at both and
extrapolated linearly to ``--target`` replicates (default 2000), which leaves out the
fixed costs a scaling by B2 alone would multiply; with one value it is timed as it is.
``--load N`` repeats the single-measure times beside N busy processes. Targets at
n = 1e6 and 2000 replicates on 2 cores: each ``ev.ci(m)`` under 5 s, ``ci_table()`` of
every measure under 60 s.
"""

from __future__ import annotations

import argparse
import gc
import sys
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


#: the single measures timed by --scale: one of each way a replicate is evaluated
SCALE_MEASURES = ["mcc", "auc", "average_precision", "mean_rank_positives", "best_f1",
                  "tpr_at_fpr", "brier", "log_loss", "spiegelhalter_z", "ece",
                  "calibration_slope", "bedroc", "h_measure"]


def _extrapolated(fn: Callable[[int], Any], counts: list[int], target: int,
                  repeats: int = 2) -> float:
    """The time of fn(target): the best of ``repeats`` runs at each count, then linear in
    the count."""
    times = [timed(lambda b=b: fn(b), repeats)[0] for b in counts]
    if len(counts) == 1:
        return times[0] * target / counts[0]
    (b1, b2), (t1, t2) = counts[:2], times[:2]
    return t1 + (t2 - t1) * (target - b1) / (b2 - b1)


def scale(args: argparse.Namespace) -> None:
    """(c): the floors, single intervals and the interval table at n distinct scores."""
    from _common import machine

    import binmetrics as bm

    n, target = int(args.n), args.target
    counts = sorted(args.resamples_list)
    y, scores = make_data(n)
    s = scores["continuous"]
    ev = bm.evaluate(y, s, undefined="ignore")
    values = ev.to_dict()
    defined = [k for k, v in values.items() if not np.isnan(v)]
    chosen = defined if args.measures == ["all"] else args.measures
    print(f"binmetrics {bm.__version__}, numpy {np.__version__}; {machine()}")
    how = ("" if counts == [target] else
           f"measured at {' and '.join(map(str, counts))}, linear in the replicates")
    print(f"n = {n:.0e} distinct scores, prevalence 0.1; times for {target} replicates {how}")
    t_sort, _ = timed(lambda: np.sort(s), 3)
    t_arg, _ = timed(lambda: np.argsort(s), 3)
    P = int(y.sum())
    rng = np.random.default_rng(0)

    def draw(b: int) -> None:
        for _ in range(b):
            np.bincount(rng.integers(0, P, P, dtype=np.intp), minlength=P)
            np.bincount(rng.integers(0, n - P, n - P, dtype=np.intp), minlength=n - P)

    t_draw = _extrapolated(draw, counts, target)
    from concurrent.futures import ThreadPoolExecutor

    from binmetrics.inference._counting import compiled_kernels, draw_counts

    def draw_threads(b: int) -> None:  # the same on 2 threads, counted as the bootstrap does
        def one(seed: int) -> None:
            g = np.random.default_rng(seed)
            for _ in range(b // 2):
                draw_counts(g, P, (1, P))
                draw_counts(g, n - P, (1, n - P))

        with ThreadPoolExecutor(2) as ex:
            list(ex.map(one, [1, 2]))

    how_counted = "compiled" if compiled_kernels(n) is not None else "np.bincount"
    t_draw2 = _extrapolated(draw_threads, counts, target)
    print(f"floors: np.sort {t_sort:.3f} s, np.argsort {t_arg:.3f} s, draws and counts of "
          f"{target} replicates {t_draw:.2f} s (one thread, np.bincount), "
          f"{t_draw2:.2f} s (two threads, {how_counted})")
    print(f"{'interval':<34} | {'time':>9} | {'/ draws':>7} | target")

    def ci(m: str) -> Callable[[int], Any]:
        return lambda b: ev.ci(m, method="bootstrap", n_resamples=b, random_state=0,
                               progress=False)

    ev.ci("auc", method="bootstrap", n_resamples=2, random_state=0, progress=False)  # imports
    rows = []
    for m in chosen:
        t = _extrapolated(ci(m), counts, target)
        line = f"{'ci(' + m + ')':<34} | {t:8.2f}s | {t / t_draw:6.1f}x | < 5 s"
        if args.load:
            with _load(args.load):
                lt = _extrapolated(ci(m), counts, target)
            line += f" | loaded {lt:.2f} s ({lt / t:.2f}x quiet)"
        rows.append(t)
        print(line, flush=True)
    if rows:
        print(f"{'sum of the single intervals':<34} | {sum(rows):8.2f}s |")
    t = _extrapolated(lambda b: ev.summary(n_resamples=b, random_state=0, progress=False),
                      counts, target)
    print(f"{'summary()':<34} | {t:8.2f}s | {t / t_draw:6.1f}x | < 60 s", flush=True)
    if not args.no_table:
        t = _extrapolated(lambda b: ev.ci_table(defined, method="bootstrap", n_resamples=b,
                                                random_state=0, progress=False),
                          counts, target)
        print(f"{f'ci_table() of {len(defined)} measures':<34} | {t:8.2f}s | "
              f"{t / t_draw:6.1f}x | < 60 s", flush=True)


def _load(k: int) -> Any:
    from bench_evaluate import Load

    return Load(k)


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
    ap.add_argument("--scale", action="store_true", help="(c) intervals at scale instead")
    ap.add_argument("--resamples-list", dest="resamples_list", nargs="+", type=int,
                    default=None, help=argparse.SUPPRESS)
    ap.add_argument("--target", type=int, default=2000,
                    help="--scale: replicates the times are given for")
    ap.add_argument("--measures", type=lambda v: v.split(","), default=SCALE_MEASURES,
                    help="--scale: measures of the single intervals (comma-separated, "
                         "or 'all')")
    ap.add_argument("--no-table", action="store_true", help="--scale: skip ci_table()")
    ap.add_argument("--load", type=int, default=0, metavar="N",
                    help="--scale: also time the single intervals beside N busy processes")
    argv = sys.argv[1:]
    if "--scale" in argv and "--resamples" in argv:  # --resamples B1 [B2]
        i = argv.index("--resamples")
        vals = []
        while i + 1 < len(argv) and argv[i + 1].isdigit():
            vals.append(argv.pop(i + 1))
        argv.pop(i)
        argv += ["--resamples-list", *vals]
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore")
    if args.scale:
        if args.resamples_list is None:
            args.resamples_list = [args.target]
        scale(args)
        return
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
