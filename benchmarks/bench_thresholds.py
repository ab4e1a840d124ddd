"""Benchmark: choosing a threshold from an existing evaluation (issue 27).

    python benchmarks/bench_thresholds.py                  # n = 1e7 cuts, 1e6 bootstrap
    python benchmarks/bench_thresholds.py --n 1e7 --n-ci 1e6 --resamples 2000 --repeats 3

(a) At n (default 1e7, prevalence 0.1, continuous and 3dp scores, as bench_evaluate.py),
    each against one ``np.sort`` of the scores (the baseline, timed in the same run):
    ``ev.best_threshold("tpr", subject_to={"ppv": (">=", 0.5)})`` and each at-fixed
    measure (``ev.value("tpr_at_ppv", ppv=0.5)``...), on an evaluation already built
    (a fresh one per repeat, so no cached cumulative sums are reused).
    Target: each under one sort (ratio < 1).
(b) At n-ci (default 1e6): ``ev.best_threshold("f1", ci=True, n_resamples=B,
    random_state=0)``. Target: under 10 s with B = 2000 on 2 cores.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from _common import best_time, machine, make_data

import binmetrics as bm

AT_FIXED = {"tpr_at_ppv": {"ppv": 0.5}, "ppv_at_tpr": {"tpr": 0.5},
            "tpr_at_tnr": {"tnr": 0.9}, "tnr_at_min_tpr": {"tpr": 0.5}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=float, default=1e7)
    ap.add_argument("--n-ci", type=float, default=1e6)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--data", nargs="+", default=["continuous", "3dp"])
    args = ap.parse_args()
    print(machine())
    y, scores = make_data(int(args.n))
    print(f"(a) n = {args.n:.0e}: time / one np.sort of the scores")
    print("| scores | task | time | np.sort | ratio |\n|---|---|---|---|---|")
    for name in args.data:
        s = scores[name]
        sort = best_time(lambda s=s: np.sort(s), args.repeats)
        tasks = {"best_threshold(tpr, ppv >= 0.5)": lambda ev: ev.best_threshold(
            "tpr", subject_to={"ppv": (">=", 0.5)})}
        for mid, params in AT_FIXED.items():
            tasks[mid] = lambda ev, mid=mid, params=params: ev.value(mid, **params)
        for label, task in tasks.items():
            best = float("inf")
            for _ in range(args.repeats):
                ev = bm.evaluate(y, s)
                t0 = time.perf_counter()
                task(ev)
                best = min(best, time.perf_counter() - t0)
            print(f"| {name} | {label} | {best:.3f} s | {sort:.3f} s | {best / sort:.2f} |")
    y, scores = make_data(int(args.n_ci))
    print(f"(b) n = {args.n_ci:.0e}: best_threshold('f1', ci=True, "
          f"n_resamples={args.resamples})")
    for name in args.data:
        ev = bm.evaluate(y, scores[name])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            best = ev.best_threshold("f1", ci=True, n_resamples=args.resamples,
                                     random_state=0)
            took = time.perf_counter() - t0
        print(f"| {name} | {took:.2f} s | threshold {best.threshold:.4g} "
              f"[{best.threshold_ci.low:.4g}, {best.threshold_ci.high:.4g}] |")


if __name__ == "__main__":
    main()
