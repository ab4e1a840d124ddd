"""Benchmark: between-group gaps with bootstrap intervals (issue 28).

    python benchmarks/bench_group_gaps.py                      # n = 1e7, 100 groups, B = 2000
    python benchmarks/bench_group_gaps.py --n 1e6 --groups 100 --resamples 2000 --repeats 1

Data: ``make_data`` (prevalence 0.1, continuous scores) with a group column of
``--groups`` values drawn uniformly. Timed, each the best of ``--repeats``:

(a) ``evaluate_by(df, by="g", measures=["tpr", "ppv"])``: one count table per group
    (the sorts), the per-group values.
(b) ``g.difference("tpr", ci=True, n_resamples=B)`` and the same for "ppv": the gap, its
    percentile interval and the p-value of "no gap" from a bootstrap stratified by
    group and class (each group's 2x2 table resampled: one multinomial draw per class
    and replicate, no sort).
(c) ``bm.fairness(y, p, sensitive=g, ...)`` with ``n_resamples=B`` is left out at this
    size: its AUC and ECE gaps resample each group's full table.

Baselines, in the same run: one ``np.sort`` of the scores, and fairlearn's
``MetricFrame`` (recall and precision by group, no bootstrap) on the same rows.
Target (issue 28): (b) under 30 s at n = 1e7 with 100 groups and B = 2000.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd
from _common import best_time, machine, make_data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=float, default=1e7)
    ap.add_argument("--groups", type=int, default=100)
    ap.add_argument("--resamples", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--no-fairlearn", action="store_true")
    args = ap.parse_args()
    n = int(args.n)
    import binmetrics as bm

    print(machine())
    y, scores = make_data(n)
    p = scores["continuous"]
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"y": y.astype(np.int8), "p": p,
                       "g": rng.integers(0, args.groups, n).astype(np.int16)})
    t_sort = best_time(lambda: np.sort(p), args.repeats)
    holder: dict[str, bm.ByResult] = {}

    def build() -> None:
        holder["g"] = bm.evaluate_by(df, label="y", score="p", by="g", measures=["tpr", "ppv"])

    t_by = best_time(build, args.repeats)
    g = holder["g"]
    results = {}

    def gaps() -> None:
        for m in ("tpr", "ppv"):
            results[m] = g.difference(m, ci=True, n_resamples=args.resamples, random_state=0)

    t_gaps = best_time(gaps, args.repeats)
    print(f"n = {n:.0e}, groups = {args.groups}, B = {args.resamples}")
    print(f"np.sort:                      {t_sort:8.3f} s")
    print(f"evaluate_by (tables, values): {t_by:8.3f} s  ({t_by / t_sort:.1f}x sort)")
    print(f"tpr + ppv gaps with ci:       {t_gaps:8.3f} s  (target < 30 s)")
    for m, r in results.items():
        print(f"  {m}: gap {r.estimate:.4f} [{r.ci.low:.4f}, {r.ci.high:.4f}], "
              f"p = {r.pvalue:.3g}")
    if not args.no_fairlearn:
        from fairlearn.metrics import MetricFrame
        from sklearn.metrics import precision_score, recall_score

        pred = (p >= 0.5).astype(int)

        def frame() -> None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                mf = MetricFrame(metrics={"tpr": recall_score, "ppv": precision_score},
                                 y_true=df["y"], y_pred=pred, sensitive_features=df["g"])
                mf.difference()

        t_fl = best_time(frame, args.repeats)
        print(f"fairlearn MetricFrame (values and difference, no intervals): {t_fl:8.3f} s "
              f"({t_fl / t_by:.1f}x evaluate_by)")


if __name__ == "__main__":
    main()
