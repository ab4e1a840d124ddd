"""Benchmark: choosing a threshold from an existing evaluation (issue 27).

    python benchmarks/bench_thresholds.py                  # n = 1e7 cuts, 1e6 bootstrap
    python benchmarks/bench_thresholds.py --n 1e7 --n-ci 1e6 --resamples 2000 --repeats 3
    python benchmarks/bench_thresholds.py --n 1e7 --repeats 3 --skip-ci   # part (a) only

(a) At n (default 1e7, prevalence 0.1, continuous and 3dp scores, as bench_evaluate.py),
    each against one ``np.sort`` of the scores (the baseline, timed in the same run):
    ``ev.best_threshold("tpr", subject_to={"ppv": (">=", 0.5)})`` (and ``"mcc"`` under
    ``fpr >= 0.05``, which scores the first cut of the run the binary search on the FPR
    leaves and the run's cuts ending at positive scores; and ``"f1"`` alone) and each
    at-fixed measure
    (``ev.value("tpr_at_ppv", ppv=0.5)``...), on an evaluation already built
    (a fresh one per repeat, so no cached cumulative sums are reused).
    Target: each under one sort (ratio < 1).
(b) At n-ci (default 1e6): ``ev.best_threshold("f1", ci=True, n_resamples=B,
    random_state=0)``. Target: under 10 s with B = 2000 on 2 cores. The baseline, in
    the same run: the same call scanning every cut of every replicate (the path of a
    measure not declared ``monotone_in_fp``), with ``--ci-baseline-resamples`` replicates
    (default B), compared per replicate.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
import warnings

import numpy as np
from _common import best_time, machine, make_data

import binmetrics as bm
from binmetrics.evaluation import threshold_ci

AT_FIXED = {"tpr_at_ppv": {"ppv": 0.5}, "ppv_at_tpr": {"tpr": 0.5},
            "tpr_at_tnr": {"tnr": 0.9}, "tnr_at_min_tpr": {"tpr": 0.5}}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=float, default=1e7)
    ap.add_argument("--n-ci", type=float, default=1e6)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--data", nargs="+", default=["continuous", "3dp"])
    ap.add_argument("--ci-baseline-resamples", type=int, default=None)
    ap.add_argument("--skip-cuts", action="store_true", help="only part (b)")
    ap.add_argument("--skip-ci", action="store_true", help="only part (a)")
    args = ap.parse_args()
    print(machine())
    if not args.skip_cuts:
        part_a(args)
    if not args.skip_ci:
        part_b(args)


def _ci(ev: bm.Evaluation, n_resamples: int, every_cut: bool) -> tuple[float, object]:
    """Time best_threshold("f1", ci=True); ``every_cut``: scanning every cut."""
    orig = threshold_ci._replicate_streams

    def blocks(table, m, constraints, n, random_state):  # the scan of every cut
        return orig(table, dataclasses.replace(m, monotone_in_fp=False), constraints, n,
                    random_state)

    if every_cut:
        threshold_ci._replicate_streams = blocks
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            best = ev.best_threshold("f1", ci=True, n_resamples=n_resamples, random_state=0)
            return time.perf_counter() - t0, best
    finally:
        threshold_ci._replicate_streams = orig


def part_a(args: argparse.Namespace) -> None:
    y, scores = make_data(int(args.n))
    print(f"(a) n = {args.n:.0e}: time / one np.sort of the scores")
    print("| scores | task | time | np.sort | ratio |\n|---|---|---|---|---|")
    for name in args.data:
        s = scores[name]
        sort = best_time(lambda s=s: np.sort(s), args.repeats)
        tasks = {"best_threshold(tpr, ppv >= 0.5)": lambda ev: ev.best_threshold(
            "tpr", subject_to={"ppv": (">=", 0.5)}),
                 # a constraint that fewer false positives may break: the run the
                 # binary search on the FPR leaves, scored at its first cut and at
                 # the cuts ending at positive scores
                 "best_threshold(mcc, fpr >= 0.05)": lambda ev: ev.best_threshold(
            "mcc", subject_to={"fpr": (">=", 0.05)}),
                 "best_threshold(f1)": lambda ev: ev.best_threshold("f1")}
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


def part_b(args: argparse.Namespace) -> None:
    y, scores = make_data(int(args.n_ci))
    base_b = args.ci_baseline_resamples or args.resamples
    print(f"(b) n = {args.n_ci:.0e}: best_threshold('f1', ci=True, "
          f"n_resamples={args.resamples}); baseline: every cut, {base_b} replicates")
    print("| scores | time | per replicate | every cut, per replicate | ratio | threshold |")
    print("|---|---|---|---|---|---|")
    for name in args.data:
        ev = bm.evaluate(y, scores[name])
        _ci(ev, 2, every_cut=False)  # warm: imports, the cumulative sums of the data
        base, _ = _ci(ev, base_b, every_cut=True)
        took, best = _ci(ev, args.resamples, every_cut=False)
        per, per_base = took / args.resamples, base / base_b
        print(f"| {name} | {took:.2f} s | {1e3 * per:.1f} ms | {1e3 * per_base:.1f} ms | "
              f"{per / per_base:.2f} | {best.threshold:.4g} [{best.threshold_ci.low:.4g}, "
              f"{best.threshold_ci.high:.4g}] |")


if __name__ == "__main__":
    main()
