"""Benchmark: the lowess family (ici, e50, e90, emax) at any size, and its share of
``evaluate(...).to_dict()``.

    python benchmarks/bench_lowess.py                      # ici at 1e5, 1e6, 1e7
    python benchmarks/bench_lowess.py --sizes 1e5 1e6 --to-dict

Data: ``_common.make_data`` (prevalence 0.1; "continuous": every score distinct, "3dp":
rounded to 3 decimals). For each size and kind: the time of
``ev.value("ici", max_rows=None)`` on a fresh evaluation (the table built beforehand,
nothing memoised; the other three measures then read the same smoothed gaps), the best
of ``--repeats``, and the peak of Python/NumPy allocations during the call
(tracemalloc, one extra call).

``--to-dict`` times instead ``evaluate(y, s).to_dict()`` (every measure, the default
``max_rows``) and the same without the lowess family, and the lowess family alone at
that size with ``max_rows=None``: what ``to_dict()`` would add if the default limit
covered that size.
"""
from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
import warnings
from typing import Any

import numpy as np
from _common import best_time, machine, make_data

LOWESS = ("ici", "e50", "e90", "emax")


def ici_time(y: np.ndarray, s: np.ndarray, repeats: int) -> tuple[float, float, float]:
    """(best time, peak extra bytes, value) of ici(max_rows=None) on fresh evaluations."""
    import binmetrics as bm

    best, value = float("inf"), float("nan")
    for _ in range(repeats):
        ev = bm.evaluate(y, s, undefined="ignore")
        gc.collect()
        t0 = time.perf_counter()
        value = ev.value("ici", max_rows=None)
        best = min(best, time.perf_counter() - t0)
    ev = bm.evaluate(y, s, undefined="ignore")
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    ev.value("ici", max_rows=None)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return best, float(peak - base), value


def to_dict_share(y: np.ndarray, s: np.ndarray, repeats: int) -> tuple[float, float, float]:
    """(to_dict() of every measure, the same without the lowess family, the lowess
    family at this size with max_rows=None), each on fresh evaluations."""
    import binmetrics as bm

    others = [m.id for m in bm.iter_measures() if m.id not in LOWESS]

    def run(measures: list[str] | None) -> Any:
        return bm.evaluate(y, s, threshold=0.5, undefined="ignore").to_dict(measures=measures)

    def family() -> float:
        ev = bm.evaluate(y, s, undefined="ignore")
        t0 = time.perf_counter()
        for mid in LOWESS:
            ev.value(mid, max_rows=None)
        return time.perf_counter() - t0

    t_all = best_time(lambda: run(None), repeats)
    t_others = best_time(lambda: run(others), repeats)
    t_family = min(family() for _ in range(repeats))
    return t_all, t_others, t_family


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6, 1e7])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--to-dict", action="store_true",
                    help="time to_dict() with and without the lowess family instead")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    import binmetrics as bm

    print(f"binmetrics {bm.__version__}, numpy {np.__version__}; {machine()}")
    if args.to_dict:
        print(f"{'n':>8} {'scores':>10} | {'to_dict':>8} {'w/o lowess':>10} "
              f"{'lowess(max_rows=None)':>22}")
    else:
        print(f"{'n':>8} {'scores':>10} | {'ici time':>9} {'peak MB':>8} {'ici':>18}")
    for n in (int(x) for x in args.sizes):
        y, scores = make_data(n)
        for kind, s in scores.items():
            if args.to_dict:
                t_all, t_others, t_family = to_dict_share(y, s, args.repeats)
                print(f"{n:>8.0e} {kind:>10} | {t_all:>7.3f}s {t_others:>9.3f}s "
                      f"{t_family:>21.3f}s", flush=True)
            else:
                t, peak, value = ici_time(y, s, args.repeats)
                print(f"{n:>8.0e} {kind:>10} | {t:>8.3f}s {peak / 1e6:>8.1f} "
                      f"{value:>18.15f}", flush=True)


if __name__ == "__main__":
    main()
