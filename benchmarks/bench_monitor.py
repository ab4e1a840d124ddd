"""Benchmark: ``bm.monitor`` over a year of daily 7-day sliding windows (issue 29).

    python benchmarks/bench_monitor.py                     # n = 1e7, 365 windows
    python benchmarks/bench_monitor.py --n 1e6 --repeats 3 --rebuild
    python benchmarks/bench_monitor.py --duckdb            # also from a Parquet file
    python benchmarks/bench_monitor.py --n 1e6 --spark     # also a Spark DataFrame

Data: ``--n`` rows spread uniformly over 371 days (so that 365 full 7-day windows slide
by one day), prevalence 0.1, continuous scores from two overlapping normals (every score
distinct: the hardest case for the tables). Measures: the AUC and ten confusion measures
(tpr, fpr, tnr, fnr, ppv, npv, accuracy, f1, mcc, balanced_accuracy), intervals off.

Baselines in the same run: one ``bm.evaluate`` of all the rows (the cost of one sort of
everything), and with ``--rebuild`` a fresh ``bm.evaluate`` of each window's rows (what a
hand-written loop does: 7x the rows sorted again), on the rows already sorted by time.
With ``--duckdb`` the same rows are written to a Parquet file (not timed) and
``bm.monitor(path, ...)`` is timed: DuckDB reads the file and groups the rows by day and
score, then the windows slide as in memory (the same result, checked). With ``--spark``
the Parquet file is read by a ``local[2]`` Spark session (its start not timed) and
``bm.monitor`` of that Spark DataFrame is timed: Spark groups the rows by day and score.
"""

from __future__ import annotations

import argparse
import os
import tempfile

import numpy as np
import pandas as pd
from _common import best_time, machine, make_data

import binmetrics as bm

MEASURES = ["auc", "tpr", "fpr", "tnr", "fnr", "ppv", "npv", "accuracy", "f1", "mcc",
            "balanced_accuracy"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=float, default=1e7)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--rebuild", action="store_true", help="also time a fresh evaluate "
                    "per window")
    ap.add_argument("--duckdb", action="store_true", help="also time monitor of a Parquet "
                    "file of the rows (DuckDB)")
    ap.add_argument("--spark", action="store_true", help="also time monitor of a Spark "
                    "DataFrame of the rows (local[2])")
    args = ap.parse_args()
    n = int(args.n)
    print(machine())
    y, scores = make_data(n)
    p = scores["continuous"]
    rng = np.random.default_rng(1)
    ts = pd.Timestamp("2026-01-01") + pd.to_timedelta(np.sort(rng.uniform(0, 371, n)), "D")
    df = pd.DataFrame({"ts": ts, "y": y, "p": p})
    ref = ("2026-01-01", "2026-03-31")

    def run() -> bm.MonitorResult:
        return bm.monitor(df, label="y", score="p", time="ts", window="7D", step="1D",
                          reference=ref, measures=MEASURES)

    mon = run()
    t_mon = best_time(run, args.repeats)
    t_one = best_time(lambda: bm.evaluate(y, p).to_dict(measures=MEASURES), args.repeats)
    print(f"n={n:.0e}, windows={len(mon)} (7D sliding by 1D), measures={len(MEASURES)}")
    print(f"monitor            {t_mon:8.3f} s  ({t_mon / len(mon) * 1e3:.2f} ms per window)")
    print(f"one evaluate (all) {t_one:8.3f} s  monitor / one evaluate = {t_mon / t_one:.1f}")
    if args.rebuild:
        f = mon.to_frame()
        t = df["ts"].to_numpy()
        lo = np.searchsorted(t, f["start"].to_numpy())
        hi = np.searchsorted(t, f["end"].to_numpy())

        def rebuild() -> None:
            for a, b in zip(lo, hi, strict=True):
                bm.evaluate(y[a:b], p[a:b]).to_dict(measures=MEASURES)

        t_re = best_time(rebuild, args.repeats)
        print(f"fresh evaluate per window {t_re:8.3f} s  rebuild / monitor = "
              f"{t_re / t_mon:.2f}")
    if args.duckdb:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "scored.parquet")
            df.to_parquet(path)

            def run_file() -> bm.MonitorResult:
                return bm.monitor(path, label="y", score="p", time="ts", window="7D",
                                  step="1D", reference=ref, measures=MEASURES)

            pd.testing.assert_frame_equal(run_file().to_frame(), mon.to_frame())
            t_file = best_time(run_file, args.repeats)
        print(f"monitor of a Parquet file (DuckDB) {t_file:8.3f} s  file / in memory = "
              f"{t_file / t_mon:.2f}")
    if args.spark:
        _spark(df, mon, ref, t_mon, args.repeats)


def _spark(df: pd.DataFrame, mon: bm.MonitorResult, ref: tuple[str, str], t_mon: float,
           repeats: int) -> None:
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("bench_monitor")
             .config("spark.ui.enabled", "false").config("spark.sql.session.timeZone", "UTC")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "scored.parquet")
            # microseconds: Spark's precision (it does not read nanosecond timestamps)
            df.to_parquet(path, coerce_timestamps="us", allow_truncated_timestamps=True)
            sdf = spark.read.parquet(path)

            def run_spark() -> bm.MonitorResult:
                return bm.monitor(sdf, label="y", score="p", time="ts", window="7D",
                                  step="1D", reference=ref, measures=MEASURES)

            got = run_spark().to_frame()
            want = mon.to_frame()
            for c in ("start", "end"):  # a Spark timestamp is an instant: in UTC
                if got[c].dt.tz is not None:
                    got[c] = got[c].dt.tz_localize(None)
            pd.testing.assert_frame_equal(got, want)
            t_spark = best_time(run_spark, repeats)
    finally:
        spark.stop()
    print(f"monitor of a Spark DataFrame (local[2]) {t_spark:8.3f} s  Spark / in memory = "
          f"{t_spark / t_mon:.2f}")


if __name__ == "__main__":
    main()
