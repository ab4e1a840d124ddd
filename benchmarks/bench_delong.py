"""Benchmark: DeLong's AUC variance and interval by binmetrics (one sort, then the
placements from the count table) against the naive O(n+ n-) formula (the matrix of
psi(X_i, Y_j) over every positive-negative pair).

    python benchmarks/bench_delong.py                  # n = 1e4 and 1e5
    python benchmarks/bench_delong.py --sizes 1e4 1e5 1e6 --naive-max 1e5 --repeats 3

Data: prevalence 0.1, scores from two overlapping normals ("continuous": every score
distinct) and the same rounded to 2 decimals ("2dp": heavy ties). Times are the best
of ``--repeats`` runs (default 7) in this one process.

binmetrics is timed twice: ``auc_ci(y, s)`` from the raw arrays (validation, the
sort, the placements, the interval) and ``auc_ci(ev)`` on an existing evaluation
(the table is built already: O(distinct scores)).

The naive formula walks the pairs in blocks of positives, so its memory stays at
``--block`` x n- values (about 45 MB at n = 1e5) while its time is O(n+ n-). Building
the whole pair matrix at once, as the textbook formula reads, would need
n+ x n- x 8 bytes: 72 MB at n = 1e4 but 7.2 GB at n = 1e5, too much for a
benchmark; hence the blocks. ``--naive-max`` skips the naive formula above a size.
"""

from __future__ import annotations

import argparse

import numpy as np
from _common import best_time, make_data

from binmetrics import evaluate
from binmetrics.inference.intervals import auc_ci


def naive_delong(y: np.ndarray, s: np.ndarray, block: int = 64,
                 level: float = 0.95) -> tuple[float, float, float, float]:
    """AUC, variance and interval from every pair: V10_i = mean_j psi(X_i, Y_j),
    V01_j = mean_i psi(X_i, Y_j), Var = var(V10)/m + var(V01)/n (ddof = 1), clipped."""
    from scipy.special import ndtri

    X, Y = s[y], s[~y]
    m, n = X.size, Y.size
    v10 = np.empty(m)
    v01 = np.zeros(n)
    for a in range(0, m, block):
        xb = X[a:a + block, None]
        psi = (xb > Y).astype(np.float64)
        psi += 0.5 * (xb == Y)
        v10[a:a + block] = psi.sum(axis=1) / n
        v01 += psi.sum(axis=0)
    v01 /= m
    theta = float(v10.mean())
    var = float(v10.var(ddof=1) / m + v01.var(ddof=1) / n)
    z = float(ndtri(1 - (1 - level) / 2))
    sd = var ** 0.5
    return theta, var, max(theta - z * sd, 0.0), min(theta + z * sd, 1.0)




def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e4, 1e5])
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--naive-max", type=float, default=1e5,
                    help="largest n for the naive O(n+ n-) formula")
    ap.add_argument("--block", type=int, default=64, help="positives per naive block")
    args = ap.parse_args(argv)

    print(f"{'n':>9} {'data':>10} {'distinct':>9} {'binmetrics':>11} {'from table':>11} "
          f"{'naive':>10} {'ratio':>9} {'max |diff|':>11}")
    for size in args.sizes:
        n = int(size)
        y, variants = make_data(n, decimals=2)
        for name, s in variants.items():
            ev = evaluate(y, s)
            t_fast = best_time(lambda y=y, s=s: auc_ci(y, s), args.repeats)
            t_table = best_time(lambda ev=ev: auc_ci(ev), args.repeats)
            fast = auc_ci(y, s)
            if n <= args.naive_max:
                reps = 1 if n > 2e4 else args.repeats
                t_naive = best_time(lambda y=y, s=s: naive_delong(y, s, args.block), reps)
                theta, _, low, high = naive_delong(y, s, args.block)
                diff = max(abs(theta - fast.estimate), abs(low - fast.low),
                           abs(high - fast.high))
                naive_txt, ratio_txt, diff_txt = (f"{t_naive:10.4f}", f"{t_naive / t_fast:8.0f}x",
                                                  f"{diff:11.1e}")
            else:
                naive_txt, ratio_txt, diff_txt = f"{'skipped':>10}", f"{'-':>9}", f"{'-':>11}"
            print(f"{n:>9} {name:>10} {ev.table.n_distinct:>9} {t_fast:11.4f} {t_table:11.4f} "
                  f"{naive_txt} {ratio_txt} {diff_txt}")
    print("times in seconds (best of --repeats; the naive formula once above n = 2e4); "
          "ratio = naive / binmetrics from the raw arrays")


if __name__ == "__main__":
    main()
