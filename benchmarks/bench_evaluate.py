"""Benchmark: evaluate() computing every scalar measure, against one np.sort of the
scores and against scikit-learn computing its overlapping subset.

    python benchmarks/bench_evaluate.py            # n = 1e5, 1e6, 1e7
    python benchmarks/bench_evaluate.py --sizes 1e5 1e6 --repeats 3

Data: prevalence 0.1, scores from two overlapping normals squashed to (0, 1)
("continuous": every score distinct) and the same rounded to 3 decimals ("3dp":
heavy ties). Times are the best of ``--repeats`` runs in this one process; memory
is the peak of Python/NumPy allocations during the call above what existed
before it (tracemalloc), as a multiple of the bytes of the score array.

Targets (issue 2, at n = 1e7): evaluate >= 20x faster than scikit-learn, at most
5x one np.sort, extra peak memory at most 4x the score array.

    python benchmarks/bench_evaluate.py --calibration --sizes 1e7

times instead ``evaluate(...).to_dict()`` with and without the calibration measures of
issue 14 (ece ... h_measure; the lowess family refuses beyond 1e6 rows, so it costs
nothing there) and ``ev.reliability()``, ``ev.decision_curve()``, ``ev.cost_curve()``
from an existing evaluation. Targets (issue 14, at 1e7): at most 10% more for
``to_dict()``, each object under 0.1 s.
"""

from __future__ import annotations

import argparse
import gc
import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from _common import best_time, make_data


def peak_bytes(fn: Callable[[], Any]) -> int:
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    base, _ = tracemalloc.get_traced_memory()
    result = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    return peak - base


def binmetrics_all(y: np.ndarray, s: np.ndarray) -> dict[str, float]:
    import binmetrics as bm

    return bm.evaluate(y, s, threshold=0.5, undefined="ignore").to_dict()


def sklearn_subset(y: np.ndarray, s: np.ndarray) -> list[Any]:
    from sklearn import metrics

    pred = s >= 0.5
    return [
        metrics.roc_auc_score(y, s),
        metrics.average_precision_score(y, s),
        metrics.roc_curve(y, s),
        metrics.precision_recall_curve(y, s),
        metrics.log_loss(y, s),
        metrics.brier_score_loss(y, s),
        metrics.matthews_corrcoef(y, pred),
        metrics.f1_score(y, pred),
        metrics.confusion_matrix(y, pred),
    ]


def calibration_overhead(sizes: list[float], repeats: int) -> None:
    """to_dict() with and without the calibration measures; the result objects."""
    import time

    import binmetrics as bm
    from binmetrics.measures import calibration, lowess

    new = {m.id for m in bm.iter_measures()
           if m.func.__module__ in (calibration.__name__, lowess.__name__)}
    old = [m.id for m in bm.iter_measures() if m.id not in new]
    print(f"calibration measures: {', '.join(sorted(new))}")
    print(f"{'n':>10} {'scores':>10} | {'without':>8} {'with':>8} {'extra':>7} | "
          f"{'reliab.':>8} {'decision':>8} {'cost':>8}")
    for n in (int(x) for x in sizes):
        y, scores = make_data(n)
        for kind, s in scores.items():
            def run(chosen: list[str] | None, y: np.ndarray = y,
                    s: np.ndarray = s) -> dict[str, float]:
                return bm.evaluate(y, s, undefined="ignore").to_dict(measures=chosen)

            t_old = best_time(lambda run=run: run(old), repeats)
            t_all = best_time(lambda run=run: run(None), repeats)
            ev = bm.evaluate(y, s, undefined="ignore")
            objs = []
            for make in (ev.reliability, ev.decision_curve, ev.cost_curve):
                t0 = time.perf_counter()
                make()
                objs.append(time.perf_counter() - t0)
            print(f"{n:>10.0e} {kind:>10} | {t_old:>7.3f}s {t_all:>7.3f}s "
                  f"{(t_all / t_old - 1) * 100:>6.1f}% | "
                  + " ".join(f"{v:>7.3f}s" for v in objs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6, 1e7])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sklearn-repeats", type=int, default=1)
    ap.add_argument("--calibration", action="store_true",
                    help="time the calibration measures and objects (issue 14) instead")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    if args.calibration:
        calibration_overhead(args.sizes, args.repeats)
        return
    import sklearn

    import binmetrics as bm

    print(f"binmetrics {bm.__version__}, numpy {np.__version__}, "
          f"scikit-learn {sklearn.__version__}")
    header = (f"{'n':>10} {'scores':>10} | {'sort s':>8} {'evaluate':>9} {'sklearn':>9} | "
              f"{'eval/sort':>9} {'sklearn/eval':>12} | {'mem eval':>8} {'mem skl':>8}")
    print(header)
    print("-" * len(header))
    for n in (int(x) for x in args.sizes):
        y, scores = make_data(n)
        for kind, s in scores.items():
            binmetrics_all(y[:1000], s[:1000])  # imports and first-call costs
            t_sort = best_time(lambda s=s: np.sort(s), args.repeats)
            t_eval = best_time(lambda y=y, s=s: binmetrics_all(y, s), args.repeats)
            t_skl = best_time(lambda y=y, s=s: sklearn_subset(y, s), args.sklearn_repeats)
            m_eval = peak_bytes(lambda y=y, s=s: binmetrics_all(y, s)) / s.nbytes
            m_skl = peak_bytes(lambda y=y, s=s: sklearn_subset(y, s)) / s.nbytes
            print(f"{n:>10.0e} {kind:>10} | {t_sort:8.3f}s {t_eval:8.3f}s {t_skl:8.3f}s | "
                  f"{t_eval / t_sort:9.2f} {t_skl / t_eval:12.1f} | {m_eval:7.2f}x {m_skl:7.2f}x",
                  flush=True)


if __name__ == "__main__":
    main()
