"""Benchmark: evaluate() computing every scalar measure, against one np.sort of the
scores and against scikit-learn computing its overlapping subset.

    python benchmarks/bench_evaluate.py            # n = 1e5, 1e6, 1e7
    python benchmarks/bench_evaluate.py --sizes 1e6 1e7 --repeats 3 --load 4

Data: prevalence 0.1, scores from two overlapping normals squashed to (0, 1)
("continuous": every score distinct) and the same rounded to 3 decimals ("3dp":
heavy ties); "weighted" is the continuous scores with weights uniform on [0.5, 1.5].
Times are the best of ``--repeats`` runs in this one process, as ratios to one
``np.sort`` of the scores timed in the same process under the same conditions;
memory is the peak of Python/NumPy allocations during the call above what existed
before it (tracemalloc), as a multiple of the bytes of the score array.

``--load N`` runs every case twice: quiet, then beside N busy processes that this
script starts itself (each spinning NumPy work; 2N on N cores is 2x
oversubscription), and prints both ratios to np.sort and loaded/quiet.
Each case is followed by a line of issue 32's floors and ratios, in the same run: one
``np.argsort`` of the scores, one "log pass" (``log p`` and ``log(1 - p)`` of every
row, in cache-sized blocks: what the log losses cannot do without), the probabilistic
family (every probabilistic measure, the calibration fits included, on a fresh
evaluation: its table built, nothing memoised) over the log pass, and for the weighted
case its time minus the unweighted one's over ``np.argsort``.
``--models K`` times ``bm.compare`` of K models and ``evaluate_by`` over K groups,
one after another (threads off) and in threads, and checks the results are equal.

Targets (issue 32, this machine's floors): unweighted ``to_dict()`` at most 6x
np.sort at 1e7 and 8x at 1e6 (continuous and 3dp); weighted at most the unweighted
time plus 1.5x np.argsort at 1e7; the probabilistic family at most 1.5x the log pass;
peak extra memory at most 3x the score bytes.
Targets (issue 18): unweighted ``evaluate(y, s).to_dict()`` (every measure in the
registry) at most 4x one np.sort at n = 1e6 and at most 3x at 1e7, continuous and 3dp;
weighted at most 6x at 1e7; extra peak memory at most 3x the score bytes; under 2x
oversubscription the ratio to np.sort within 1.25x of the quiet ratio; compare with
8 models and evaluate_by at n = 1e6 at least 1.6x faster in threads on 2 cores, with
the same results bit for bit. (Issue 2, at 1e7: >= 20x faster than scikit-learn.)

    python benchmarks/bench_evaluate.py --calibration --sizes 1e7

times instead ``evaluate(...).to_dict()`` with and without the calibration measures of
issue 14 (ece ... h_measure; the lowess family is NaN beyond 1e5 rows by default, so it
costs nothing there) and ``ev.reliability()``, ``ev.decision_curve()``, ``ev.cost_curve()``
from an existing evaluation. Targets (issue 14, at 1e7): at most 10% more for
``to_dict()``, each object under 0.1 s.
"""
from __future__ import annotations

import argparse
import gc
import multiprocessing as mp
import time
import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from _common import best_time, machine, make_data


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


def binmetrics_all(y: np.ndarray, s: np.ndarray,
                   w: np.ndarray | None = None) -> dict[str, float]:
    import binmetrics as bm

    return bm.evaluate(y, s, sample_weight=w, threshold=0.5, undefined="ignore").to_dict()


def log_pass(s: np.ndarray) -> float:
    """One pass computing log p and log(1 - p) of every score, in blocks of 65536."""
    total = 0.0
    for a in range(0, s.size, 1 << 16):
        b = s[a:a + (1 << 16)]
        total += float(np.log(b).sum()) + float(np.log1p(-b).sum())
    return total


def probabilistic_family(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> Any:
    """Every probabilistic measure (calibration fits included) of a fresh evaluation,
    timed without building the table."""
    import binmetrics as bm

    ids = [m.id for m in bm.iter_measures("probabilistic")]
    ev = bm.evaluate(y, s, sample_weight=w, undefined="ignore")
    t0 = time.perf_counter()
    ev.to_dict(measures=ids)
    return time.perf_counter() - t0


def _spin(stop: Any) -> None:
    """A busy process: NumPy work until told to stop."""
    a = np.random.default_rng().random(200_000)
    while not stop.is_set():
        np.sort(a)
        np.exp(a)


class Load:
    """N busy processes while the block runs."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __enter__(self) -> Load:
        ctx = mp.get_context("spawn")
        self.stop = ctx.Event()
        self.procs = [ctx.Process(target=_spin, args=(self.stop,), daemon=True)
                      for _ in range(self.n)]
        for p in self.procs:
            p.start()
        time.sleep(1.0)  # let them start spinning
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for p in self.procs:
            p.join(5)
            if p.is_alive():
                p.terminate()


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
    print(f"binmetrics {bm.__version__}, numpy {np.__version__}; {machine()}")
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
            # each object the best of ``repeats`` first calls, each on a new evaluation
            # (a first call in the process also pays its lazy imports, once)
            objs = [np.inf] * 3
            for _ in range(repeats):
                ev = bm.evaluate(y, s, undefined="ignore")
                for i, make in enumerate((ev.reliability, ev.decision_curve, ev.cost_curve)):
                    t0 = time.perf_counter()
                    make()
                    objs[i] = min(objs[i], time.perf_counter() - t0)
            print(f"{n:>10.0e} {kind:>10} | {t_old:>7.3f}s {t_all:>7.3f}s "
                  f"{(t_all / t_old - 1) * 100:>6.1f}% | "
                  + " ".join(f"{v:>7.3f}s" for v in objs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6, 1e7])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--sklearn-repeats", type=int, default=1)
    ap.add_argument("--load", type=int, default=0, metavar="N",
                    help="also time each case beside N busy processes started here")
    ap.add_argument("--models", type=int, default=0, metavar="K",
                    help="time bm.compare of K models and evaluate_by over K groups, "
                         "serial and in threads, instead")
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
          f"scikit-learn {sklearn.__version__}; {machine()}")
    if args.models:
        many_models(args.sizes, args.models, args.repeats)
        return
    header = (f"{'n':>10} {'scores':>10} | {'sort s':>8} {'evaluate':>9} {'sklearn':>9} | "
              f"{'eval/sort':>9} {'sklearn/eval':>12} | {'mem eval':>8} {'mem skl':>8}")
    if args.load:
        header += f" | {'loaded/sort':>11} {'loaded/quiet':>12}"
    print(header)
    print("-" * len(header))
    for n in (int(x) for x in args.sizes):
        y, scores = make_data(n)
        w = np.random.default_rng(1).uniform(0.5, 1.5, n)
        cases = [(kind, s, None) for kind, s in scores.items()]
        cases.insert(1, ("weighted", scores["continuous"], w))
        unweighted = 0.0
        for kind, s, wk in cases:
            binmetrics_all(y[:1000], s[:1000], None if wk is None else wk[:1000])  # first calls
            t_sort = best_time(lambda s=s: np.sort(s), args.repeats)
            t_eval = best_time(lambda y=y, s=s, wk=wk: binmetrics_all(y, s, wk), args.repeats)
            t_arg = best_time(lambda s=s: np.argsort(s), args.repeats)
            t_log = best_time(lambda s=s: log_pass(s), args.repeats)
            t_fam = min(probabilistic_family(y, s, wk) for _ in range(args.repeats))
            floors = (f"{'':>21} | np.argsort {t_arg:.3f}s, log pass {t_log:.3f}s; "
                      f"probabilistic family {t_fam:.3f}s = {t_fam / t_log:.2f}x log pass "
                      f"(target 1.5x)")
            if kind == "continuous":
                unweighted = t_eval
            elif kind == "weighted" and unweighted:
                floors += (f"; weighted - unweighted = {(t_eval - unweighted) / t_arg:.2f}x "
                           f"np.argsort (target 1.5x)")
            t_skl = (best_time(lambda y=y, s=s: sklearn_subset(y, s), args.sklearn_repeats)
                     if args.sklearn_repeats else float("nan"))
            m_eval = peak_bytes(lambda y=y, s=s, wk=wk: binmetrics_all(y, s, wk)) / s.nbytes
            m_skl = (peak_bytes(lambda y=y, s=s: sklearn_subset(y, s)) / s.nbytes
                     if args.sklearn_repeats else float("nan"))
            line = (f"{n:>10.0e} {kind:>10} | {t_sort:8.3f}s {t_eval:8.3f}s {t_skl:8.3f}s | "
                    f"{t_eval / t_sort:9.2f} {t_skl / t_eval:12.1f} | {m_eval:7.2f}x "
                    f"{m_skl:7.2f}x")
            if args.load:
                with Load(args.load):
                    l_sort = best_time(lambda s=s: np.sort(s), args.repeats)
                    l_eval = best_time(lambda y=y, s=s, wk=wk: binmetrics_all(y, s, wk),
                                       args.repeats)
                q_ratio, l_ratio = t_eval / t_sort, l_eval / l_sort
                line += f" | {l_ratio:11.2f} {l_ratio / q_ratio:12.2f}"
            print(line, flush=True)
            print(floors, flush=True)


def many_models(sizes: list[float], k: int, repeats: int) -> None:
    """bm.compare of k models and evaluate_by over k groups: threads off and on."""
    import binmetrics as bm
    from binmetrics import backends

    print(f"{'n':>10} {'task':>22} | {'serial':>8} {'threads':>8} {'speed-up':>8} | same")
    for n in (int(x) for x in sizes):
        rng = np.random.default_rng(0)
        y = rng.random(n) < 0.1
        scores = {f"m{i}": y + rng.normal(0, 1 + i / 4, n) for i in range(k)}
        group = rng.integers(0, k, n)
        import pandas as pd

        data = pd.DataFrame({"y": y, "s": scores["m0"], "g": group})
        tasks = {
            f"compare {k} models": lambda y=y, scores=scores: bm.compare(
                y, scores, measures=["auc", "accuracy"], n_resamples=20, random_state=0),
            f"evaluate_by {k} groups": lambda data=data: bm.evaluate_by(
                data, label="y", score="s", by="g"),
        }
        for name, fn in tasks.items():
            fn()  # imports and first calls
            original = backends.threads
            try:
                backends.threads = lambda: 1  # type: ignore[assignment]
                serial = best_time(fn, repeats)
                a = fn()
            finally:
                backends.threads = original  # type: ignore[assignment]
            threaded = best_time(fn, repeats)
            b = fn()
            fa, fb = a.to_frame(), b.to_frame()
            same = fa.equals(fb)
            print(f"{n:>10.0e} {name:>22} | {serial:7.3f}s {threaded:7.3f}s "
                  f"{serial / threaded:7.2f}x | {same}", flush=True)


if __name__ == "__main__":
    main()
