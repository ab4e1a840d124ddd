"""Benchmark (issue 7): the engines at scale, against in-memory evaluate() and Spark MLlib.

    python benchmarks/bench_scale.py                      # n = 1e6, 1e7, 1e8
    python benchmarks/bench_scale.py --quick              # n = 1e5, 1e6 (smoke test)
    python benchmarks/bench_scale.py --sizes 1e7 --engines memory,duckdb
    python benchmarks/bench_scale.py --from-json RESULTS  # re-print a saved run

Data: Parquet files (row groups of 1e6 rows, written once per seed into
``--data-dir`` and reused) with columns y (int8, prevalence 0.01) and p (float64):
"continuous" scores are the calibrated posterior of a normal shift model (AUC
about 0.8, every score distinct), "3dp" the same rows rounded to 3 decimals.

Every measurement runs in a fresh subprocess, one after the other, which times
``--repeats`` runs (``--memory-repeats`` for the in-memory reference,
``--spark-repeats`` for Spark and MLlib) and reports the best
and the first: on this VM, memory a process touches for the first time costs
about 2 s per GB (the host maps it lazily), which the first run pays. Its time covers
the evaluation and ``to_dict()`` of every measure (so every binmetrics engine does
the same work), reading the file included; for in-memory ``bm.evaluate`` the
arrays are loaded first and the load is reported apart; for Spark the session
start (and a warm-up on 1000 rows) is reported apart. Peak memory is the child's
peak RSS (``getrusage``), plus for Spark the JVM's peak (VmHWM of the child's
descendants).

Engines: ``memory`` bm.evaluate on NumPy arrays; ``duckdb`` evaluate_file (exact);
``duckdb_d3`` evaluate_file(decimals=3) on the continuous file; ``accumulator``
Accumulator over the file's 1e6-row batches (pyarrow); ``spark`` evaluate_spark
on local[2] (exact); ``spark_d3`` the same with decimals=3 (continuous file);
``mllib`` pyspark.ml BinaryClassificationEvaluator with its default numBins=1000
(areaUnderROC and areaUnderPR, one evaluate() each, as a user calls it);
``mllib_exact`` the same with numBins=0 (no down-sampling).
Issue 30 adds: ``polars`` bm.evaluate on ``pl.scan_parquet`` (Polars' streaming
engine); ``dask`` bm.evaluate on ``dd.read_parquet(split_row_groups=True)`` (a
partition per 1e6-row group) on a ``distributed.LocalCluster`` of 2 worker processes
(one thread, 4 GB each; their peak RSS is reported apart); ``*_d4`` each engine with
decimals=4; ``mllib_10k`` MLlib at numBins=10000; ``--padding`` the simulation of
torchmetrics-style ``DistributedSampler`` padding (no timing).

Exactness: against in-memory evaluate() on the same file, the largest
|a - b| / max(1, |b|) over the measures of ``to_dict()`` (absolute for measures in
[0, 1]); a measure NaN in one and not the other counts as a mismatch. For binned
scores: how many exact values lie inside ``Evaluation.error_bounds()``. For MLlib:
areaUnderROC against the exact AUC and areaUnderPR against the exact PR area with
straight lines between the points from (0, first precision) (``ev.pr().area(
"linear")``, which MLlib's areaUnderPR equals when unbinned), and against the
average precision.

Targets (issue 7): DuckDB exact at 1e8 rows within 3x of the in-memory time per
row at 1e7, under 4 GB peak RSS; Spark exact faster than MLlib's default-binned
metrics on the same DataFrame, and exact where MLlib is not.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import math
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

DATA_VERSION = "1"
PREVALENCE = 0.01
TARGET_AUC = 0.8
ROW_GROUP = 1_000_000
KINDS = ("continuous", "3dp")
ENGINES = ("memory", "duckdb", "duckdb_d3", "accumulator", "spark", "spark_d3", "mllib",
           "mllib_exact", "polars", "dask", "mllib_10k", "duckdb_d4", "polars_d4", "dask_d4",
           "spark_d4")
CONTINUOUS_ONLY = ("duckdb_d3", "spark_d3", "duckdb_d4", "polars_d4", "dask_d4", "spark_d4")
SPARK_ENGINES = ("spark", "spark_d3", "spark_d4", "mllib", "mllib_exact", "mllib_10k")
#: issue 30: the Dask engine's cluster (2 worker processes, one thread each: 2 cores)
DASK_WORKERS = 2
LABELS = {
    "memory": "bm.evaluate (in memory)",
    "duckdb": "evaluate_file (DuckDB)",
    "duckdb_d3": "evaluate_file decimals=3",
    "accumulator": "Accumulator, 1e6 batches",
    "spark": "evaluate_spark local[2]",
    "spark_d3": "evaluate_spark decimals=3",
    "mllib": "MLlib numBins=1000",
    "mllib_exact": "MLlib numBins=0",
    "mllib_10k": "MLlib numBins=10000",
    "polars": "bm.evaluate(LazyFrame) Polars",
    "dask": "bm.evaluate(dask) 2 workers",
    "duckdb_d4": "evaluate_file decimals=4",
    "polars_d4": "Polars decimals=4",
    "dask_d4": "Dask decimals=4",
    "spark_d4": "evaluate_spark decimals=4",
}
TOL = 1e-9  # "exact": agreement to this (relative to max(1, |value|))


# --- data ----------------------------------------------------------------------------
def chunk(seed: int, i: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of chunk i: labels (prevalence 0.01) and calibrated continuous scores.

    z ~ N(mu y, 1) with mu = sqrt(2) Phi^-1(0.8) (AUC 0.8); p = P(y = 1 | z)."""
    from scipy.special import expit, logit
    from scipy.stats import norm

    mu = math.sqrt(2.0) * float(norm.ppf(TARGET_AUC))
    rng = np.random.default_rng([seed, i])
    y = rng.random(m) < PREVALENCE
    z = rng.normal(loc=np.where(y, mu, 0.0))
    p = expit(mu * z - mu * mu / 2 + float(logit(PREVALENCE)))
    return y.astype(np.int8), p


def data_files(n: int, data_dir: Path, seed: int,
               kinds: tuple[str, ...] = KINDS) -> dict[str, Path]:
    """The Parquet files of n rows (written unless they exist with these parameters)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    params = json.dumps({"version": DATA_VERSION, "n": n, "seed": seed,
                         "prevalence": PREVALENCE, "auc": TARGET_AUC, "row_group": ROW_GROUP})
    paths = {k: data_dir / f"scale_n{n}_s{seed}_{k}.parquet" for k in kinds}

    def fresh(path: Path) -> bool:
        try:
            meta = pq.read_schema(path).metadata or {}
        except (OSError, pa.ArrowInvalid):
            return False
        return meta.get(b"binmetrics_bench") == params.encode()

    if all(fresh(p) for p in paths.values()):
        return paths
    data_dir.mkdir(parents=True, exist_ok=True)
    schema = pa.schema([("y", pa.int8()), ("p", pa.float64())],
                       metadata={"binmetrics_bench": params})
    t0 = time.perf_counter()
    tmp = {k: p.with_suffix(".tmp") for k, p in paths.items()}
    writers = {k: pq.ParquetWriter(tmp[k], schema) for k in kinds}
    try:
        for i, start in enumerate(range(0, n, ROW_GROUP)):
            y, p = chunk(seed, i, min(ROW_GROUP, n - start))
            for k, s in (("continuous", p), ("3dp", np.round(p, 3))):
                if k not in writers:
                    continue
                writers[k].write_table(pa.table({"y": y, "p": s}, schema=schema),
                                       row_group_size=ROW_GROUP)
    finally:
        for w in writers.values():
            w.close()
    for k in kinds:
        os.replace(tmp[k], paths[k])
    print(f"# wrote {n:.0e} rows x {len(kinds)} files in {time.perf_counter() - t0:.1f} s "
          f"({', '.join(f'{p.stat().st_size / 1e9:.2f} GB' for p in paths.values())})",
          flush=True)
    return paths


# --- the child: one measurement --------------------------------------------------------
def peak_rss_self() -> float:
    """Peak resident memory of this process, bytes (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024.0


def descendants(pid: int) -> set[int]:
    """The living descendants of a process (from /proc)."""
    parent: dict[int, int] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as f:
                    parent[int(d)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, frontier = set(), {pid}
    while frontier:
        frontier = {c for c, p in parent.items() if p in frontier} - found
        found |= frontier
    return found


def status_bytes(pids: set[int], field: str) -> float:
    """Sum of a /proc/<pid>/status memory field (VmRSS, VmHWM) over processes, bytes."""
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith(field + ":"):
                        total += float(line.split()[1]) * 1024.0
        except OSError:
            pass
    return total


def peak_rss_descendants() -> float:
    """Sum of the peak RSS (VmHWM) of this process's living descendants (the JVM)."""
    return status_bytes(descendants(os.getpid()), "VmHWM")


def mem_available() -> float:
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith("MemAvailable:"):
                return float(line.split()[1]) * 1024.0
    return math.inf


def clean(d: dict[str, Any]) -> dict[str, float]:
    return {k: float(v) for k, v in d.items() if isinstance(v, (int, float, np.number))}


def bounds_of(ev: Any) -> dict[str, list[Any]]:
    frame = ev.error_bounds()
    return {r.id: [float(r.low), float(r.high), r.bound] for r in frame.itertuples()}


def spark_session(memory: str) -> Any:
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("binmetrics-bench-scale")
               .config("spark.driver.memory", memory)
               .config("spark.driver.maxResultSize", "0")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    return session


def mllib_areas(df: Any, num_bins: int) -> dict[str, float]:
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    e = BinaryClassificationEvaluator(rawPredictionCol="p", labelCol="y", numBins=num_bins)
    return {"areaUnderROC": e.evaluate(df, {e.metricName: "areaUnderROC"}),
            "areaUnderPR": e.evaluate(df, {e.metricName: "areaUnderPR"})}


def child(engine: str, path: str, spark_memory: str, repeats: int) -> dict[str, Any]:
    warnings.simplefilter("ignore")
    import duckdb  # noqa: F401  (imported before any timing)
    import pyarrow.parquet as pq

    import binmetrics as bm
    from binmetrics.engines import Accumulator, evaluate_file, evaluate_spark

    out: dict[str, Any] = {}
    work: Any
    if engine == "memory":
        t0 = time.perf_counter()
        table = pq.read_table(path, columns=["y", "p"])
        y, s = table.column("y").to_numpy(), table.column("p").to_numpy()
        del table
        out["load_seconds"] = time.perf_counter() - t0
        bm.evaluate(y[:1000], s[:1000], undefined="ignore").to_dict()  # first-call costs

        def work() -> tuple[Any, dict[str, Any]]:
            ev = bm.evaluate(y, s, undefined="ignore")
            return ev, ev.to_dict()
    elif engine in ("duckdb", "duckdb_d3", "duckdb_d4"):
        decimals = {"duckdb_d3": 3, "duckdb_d4": 4}.get(engine)

        def work() -> tuple[Any, dict[str, Any]]:
            ev = evaluate_file(path, label="y", score="p", decimals=decimals, undefined="ignore")
            return ev, ev.to_dict()
    elif engine == "accumulator":
        def work() -> tuple[Any, dict[str, Any]]:
            acc = Accumulator()
            for batch in pq.ParquetFile(path).iter_batches(batch_size=ROW_GROUP,
                                                           columns=["y", "p"]):
                acc.update(batch.column("y").to_numpy(), batch.column("p").to_numpy())
            ev = acc.evaluate(undefined="ignore")
            return ev, ev.to_dict()
    elif engine in ("polars", "polars_d4"):
        import polars as pl

        decimals = 4 if engine == "polars_d4" else None

        def work() -> tuple[Any, dict[str, Any]]:
            ev = bm.evaluate(pl.scan_parquet(path), label="y", score="p", decimals=decimals,
                             undefined="ignore")
            return ev, ev.to_dict()
    elif engine in ("dask", "dask_d4"):
        import dask.dataframe as dd
        from distributed import Client, LocalCluster

        t0 = time.perf_counter()
        cluster = LocalCluster(n_workers=DASK_WORKERS, threads_per_worker=1, processes=True,
                               dashboard_address=":0", memory_limit="4GB")
        client = Client(cluster)
        out["start_seconds"], out["warmup_seconds"] = time.perf_counter() - t0, 0.0
        decimals = 4 if engine == "dask_d4" else None

        def work() -> tuple[Any, dict[str, Any]]:
            ddf = dd.read_parquet(path, columns=["y", "p"], split_row_groups=True)
            ev = bm.evaluate(ddf, label="y", score="p", decimals=decimals, undefined="ignore")
            return ev, ev.to_dict()
    elif engine in SPARK_ENGINES:
        import pandas as pd

        t0 = time.perf_counter()
        spark = spark_session(spark_memory)
        out["start_seconds"] = time.perf_counter() - t0
        rng = np.random.default_rng(0)
        tiny = spark.createDataFrame(pd.DataFrame({
            "y": (rng.random(1000) < 0.1).astype(np.int8), "p": rng.random(1000)}))
        decimals = {"spark_d3": 3, "spark_d4": 4}.get(engine)
        bins = {"mllib": 1000, "mllib_10k": 10000}.get(engine, 0)

        def on(df: Any) -> tuple[Any, dict[str, Any]]:
            if engine.startswith("spark"):
                ev = evaluate_spark(df, label="y", score="p", decimals=decimals,
                                    undefined="ignore")
                return ev, ev.to_dict()
            return None, mllib_areas(df, bins)

        t0 = time.perf_counter()
        on(tiny)
        out["warmup_seconds"] = time.perf_counter() - t0
        df = spark.read.parquet(path)

        def work() -> tuple[Any, dict[str, Any]]:
            return on(df)
    else:
        raise ValueError(f"unknown engine {engine!r}")
    times = []
    for i in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        ev, values = work()
        times.append(time.perf_counter() - t0)
        if i < repeats - 1:
            del ev, values
    out["seconds"], out["first_seconds"] = min(times), times[0]
    if engine == "memory":
        out["extra"] = {"pr_linear": ev.pr().area("linear"),
                        "average_precision": ev["average_precision"], "auc": ev["auc"]}
    if engine in SPARK_ENGINES:
        out["rss_jvm"] = peak_rss_descendants()
        spark.stop()
    if engine.endswith(("_d3", "_d4")):
        out["bounds"] = bounds_of(ev)
        out["auc"] = float(ev["auc"])
    if engine.startswith("dask"):
        out["rss_workers"] = peak_rss_descendants()
        client.close()
        cluster.close()
    if ev is not None:
        out["n_distinct"] = int(ev.table.n_distinct)
    out["values"] = clean(values)
    out["rss_python"] = peak_rss_self()
    return out


# --- the parent: run, compare, print --------------------------------------------------------
def run_child(engine: str, path: Path, args: argparse.Namespace) -> dict[str, Any]:
    repeats = (args.spark_repeats if engine in SPARK_ENGINES
               else args.memory_repeats if engine == "memory" else args.repeats)
    cmd = [sys.executable, os.path.abspath(__file__), "--child", engine, "--file", str(path),
           "--spark-memory", args.spark_memory, "--repeats", str(repeats)]
    load = os.getloadavg()[0]
    out_f, err_f = tempfile.TemporaryFile("w+"), tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(cmd, stdout=out_f, stderr=err_f, text=True,
                            start_new_session=True)
    t0, killed, peak = time.perf_counter(), "", 0.0
    while proc.poll() is None:  # a watchdog: time, and memory (the machine is shared)
        tree = {proc.pid} | descendants(proc.pid)
        rss = status_bytes(tree, "VmRSS")
        peak = max(peak, rss)
        if time.perf_counter() - t0 > args.timeout:
            killed = f"did not finish within {args.timeout:.0f} s"
        elif rss > args.max_rss * 1e9:
            killed = f"stopped at {rss / 1e9:.1f} GB RSS (limit --max-rss {args.max_rss:g} GB)"
        elif mem_available() < 1.5e9:
            killed = f"stopped at {rss / 1e9:.1f} GB RSS: the machine ran low on memory"
        if killed:
            os.killpg(proc.pid, signal.SIGKILL)  # the child's own session: it and its JVM
            proc.wait()
            return {"error": killed, "load": load, "watch_peak": peak}
        try:
            proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            pass
    out_f.seek(0)
    err_f.seek(0)
    stdout, stderr = out_f.read(), err_f.read()
    lines = [ln for ln in stdout.splitlines() if ln.startswith("RESULT ")]
    if proc.returncode != 0 or not lines:
        tail = " | ".join(stderr.strip().splitlines()[-3:])[-400:]
        return {"error": f"exit {proc.returncode}: {tail}", "load": load}
    res: dict[str, Any] = json.loads(lines[-1][len("RESULT "):])
    res["load"] = load
    res["watch_peak"] = peak
    return res


def max_diff(values: dict[str, float], ref: dict[str, float]) -> tuple[float, int, str]:
    """Largest |a - b| / max(1, |b|) over the common measures, NaN mismatches, worst id."""
    worst, arg, mismatches = 0.0, "", 0
    for k, b in ref.items():
        if k not in values:
            continue
        a = values[k]
        if math.isnan(a) or math.isnan(b):
            mismatches += math.isnan(a) != math.isnan(b)
            continue
        d = abs(a - b) / max(1.0, abs(b))
        if d > worst:
            worst, arg = d, k
    return worst, mismatches, arg


def exactness(r: dict[str, Any], ref: dict[str, Any] | None) -> str:
    """The exactness column (also stores the numbers in r)."""
    if "error" in r:
        return ""
    if ref is None or "error" in ref:
        if "bounds" in r:  # binned, too large for memory: the exact AUC lies in the bound
            low, high, _ = r["bounds"]["auc"]
            return (f"(no in-memory reference) AUC {r['auc']:.6f}, exact AUC in "
                    f"[{low:.6f}, {high:.6f}] (+-{(high - low) / 2:.1e})")
        return "(no in-memory reference)"
    exact = ref["values"]
    if r["engine"].startswith("mllib"):
        v, x = r["values"], ref["extra"]
        r["d_roc"] = v["areaUnderROC"] - x["auc"]
        r["d_pr"] = v["areaUnderPR"] - x["pr_linear"]
        r["d_ap"] = v["areaUnderPR"] - x["average_precision"]
        return (f"ROC {r['d_roc']:+.1e}, PR {r['d_pr']:+.1e} "
                f"(vs AP {r['d_ap']:+.1e})")
    if "bounds" in r:
        inside = outside = none = 0
        for k, (low, high, kind) in r["bounds"].items():
            b = exact.get(k, math.nan)
            if kind == "none" or math.isnan(b):
                none += 1
                continue
            slack = TOL * max(1.0, abs(b))
            if low - slack <= b <= high + slack:
                inside += 1
            else:
                outside += 1
        r["bounds_inside"], r["bounds_outside"] = inside, outside
        low, high, _ = r["bounds"]["auc"]
        return (f"in bounds {inside}/{inside + outside} ({none} unbounded); "
                f"AUC err {r['values']['auc'] - exact['auc']:+.1e}, "
                f"bound +-{(high - low) / 2:.1e}")
    if r["engine"] == "memory":
        return "reference"
    d, mism, arg = max_diff(r["values"], exact)
    r["max_diff"], r["nan_mismatch"] = d, mism
    return f"max diff {d:.1e}" + (f" ({arg})" if d > TOL else "") + \
        (f", {mism} NaN mismatches" if mism else "")


def fmt_n(n: int) -> str:
    return f"{n:.0e}".replace("e+0", "e").replace("e+", "e")


def report(results: list[dict[str, Any]], meta: dict[str, Any]) -> list[str]:
    """The table, the targets and the growth, as markdown lines (also printed)."""
    ref = {(r["n"], r["kind"]): r for r in results
           if r["engine"] == "memory" and "error" not in r}
    n_base = 10**7 if any(n == 10**7 for n, _ in ref) else max((n for n, _ in ref), default=0)
    base = {k: ref[(n, k)]["seconds"] / n for (n, k) in ref if n == n_base}
    lines = ["| n | scores | engine | seconds | first run | rows/s | peak RSS | ratio | "
             "exactness | aside |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        n, kind = r["n"], r["kind"]
        ex = exactness(r, ref.get((n, kind)))
        if "error" in r:
            lines.append(f"| {fmt_n(n)} | {kind} | {LABELS[r['engine']]} | - | - | - | - | - | "
                         f"{r['error']} | load avg {r['load']:.1f} |")
            continue
        sec = r["seconds"]
        rss = (r["rss_python"] + r.get("rss_jvm", 0.0)) / 1e9
        rss_s = f"{rss:.2f} GB" + (f" (JVM {r['rss_jvm'] / 1e9:.1f})" if "rss_jvm" in r else "")
        if "rss_workers" in r:
            rss_s += f" (+ workers {r['rss_workers'] / 1e9:.1f})"
        ratio = f"{sec / n / base[kind]:.2f}" if kind in base else "-"
        r["ratio"] = sec / n / base[kind] if kind in base else math.nan
        aside = [f"load avg {r['load']:.1f}"]
        if "load_seconds" in r:
            aside.append(f"file load {r['load_seconds']:.2f} s")
        if "start_seconds" in r:
            aside.append(f"session {r['start_seconds']:.1f} s + warm-up "
                         f"{r['warmup_seconds']:.1f} s")
        if "n_distinct" in r:
            aside.append(f"{r['n_distinct']} distinct")
        lines.append(f"| {fmt_n(n)} | {kind} | {LABELS[r['engine']]} | {sec:.2f} | "
                     f"{r['first_seconds']:.2f} | {n / sec:.2e} | {rss_s} | {ratio} | {ex} | "
                     f"{', '.join(aside)} |")
    lines += ["", "seconds: the best of the child's runs, first run: its first (cold) run; "
              f"ratio: time per row / in-memory evaluate's (best) time per row at {fmt_n(n_base)} "
              "(same scores); peak RSS: the child process (plus the JVM's for Spark).", ""]
    lines += targets(results, base, n_base)
    lines += ["", *growth(results)]
    return lines


def targets(results: list[dict[str, Any]], base: dict[str, float], n_base: int) -> list[str]:
    out = ["Targets:", ""]
    by = {(r["n"], r["kind"], r["engine"]): r for r in results}
    nmax = max(r["n"] for r in results)
    for kind in KINDS:
        r = by.get((nmax, kind, "duckdb"))
        if r is None:
            continue
        if "error" in r:
            out.append(f"- DuckDB exact at {fmt_n(nmax)}, {kind}: MISSED ({r['error']})")
            continue
        rss = r["rss_python"] / 1e9
        if kind in base:
            ok = r["ratio"] <= 3.0
            out.append(f"- DuckDB exact at {fmt_n(nmax)}, {kind}: {r['ratio']:.2f}x the "
                       f"in-memory time per row at {fmt_n(n_base)} (target <= 3x): "
                       f"{'met' if ok else 'MISSED'}; peak RSS {rss:.2f} GB (target < 4 GB): "
                       f"{'met' if rss < 4 else 'MISSED'}")
    for (n, kind, eng), r in by.items():
        if eng != "spark":
            continue
        m = by.get((n, kind, "mllib"))
        if m is None:
            continue
        if "error" in r or "error" in m:
            errs = [f"{who} {x['error']}" for who, x in (("evaluate_spark", r), ("MLlib", m))
                    if "error" in x]
            out.append(f"- Spark vs MLlib at {fmt_n(n)}, {kind}: {'; '.join(errs)}")
            continue
        faster = r["seconds"] < m["seconds"]
        exact = r.get("max_diff", math.nan) <= TOL and not r.get("nan_mismatch", 0)
        mll_off = max(abs(m.get("d_roc", math.nan)), abs(m.get("d_pr", math.nan)))
        out.append(f"- Spark vs MLlib at {fmt_n(n)}, {kind}: evaluate_spark {r['seconds']:.1f} "
                   f"s vs MLlib {m['seconds']:.1f} s ({m['seconds'] / r['seconds']:.2f}x): "
                   f"{'faster' if faster else 'SLOWER'}; evaluate_spark max diff "
                   f"{r.get('max_diff', math.nan):.1e} ({'exact' if exact else 'NOT exact'}), "
                   f"MLlib off by up to {mll_off:.1e}"
                   f" ({'binned' if mll_off > TOL else 'exact here'})")
    return out


def growth(results: list[dict[str, Any]]) -> list[str]:
    """Time ratios between consecutive sizes (10 = linear in n)."""
    times: dict[tuple[str, str], dict[int, float]] = {}
    for r in results:
        if "error" not in r:
            times.setdefault((r["engine"], r["kind"]), {})[r["n"]] = r["seconds"]
    sizes = sorted({r["n"] for r in results})
    steps = list(itertools.pairwise(sizes))
    out = ["Growth (time ratio between sizes; n x10 gives 10 when linear):", "",
           "| engine | scores | " + " | ".join(f"{fmt_n(a)} -> {fmt_n(b)}" for a, b in steps)
           + " |", "|---|---|" + "---|" * len(steps)]
    for (eng, kind), t in times.items():
        cells = [f"{t[b] / t[a]:.1f}" if a in t and b in t else "-" for a, b in steps]
        out.append(f"| {LABELS[eng]} | {kind} | " + " | ".join(cells) + " |")
    return out


def replicate(path: Path, k: int) -> Path:
    """A glob of k symbolic links to ``path`` (its rows k times)."""
    d = path.parent / f"{path.stem}_x{k}"
    d.mkdir(exist_ok=True)
    for i in range(k):
        link = d / f"copy{i:03d}.parquet"
        if not link.exists():
            link.symlink_to(path)
    return d / "*.parquet"


def padding_report(seed: int) -> list[str]:
    """torchmetrics-style distributed AUC, simulated (issue 30; torchmetrics #1297).

    ``DistributedSampler`` gives each of W ranks ceil(n / W) rows, padding the last
    ranks with the first rows again; a metric that gathers the ranks' predictions
    then counts those rows twice, and one that averages the ranks' AUCs is a
    different statistic. binmetrics merges the ranks' count tables (of the rows
    without padding: each rank knows its real rows), which gives the AUC of the n
    rows whatever W is.
    """
    import binmetrics as bm
    from binmetrics.engines import Accumulator

    lines = ["| n | ranks W | padded rows | gathered, padded | mean of per-rank AUCs | "
             "merged count tables (binmetrics) |", "|---|---|---|---|---|---|"]
    for n in (1_001, 100_003):
        y, s = chunk(seed, 0, n)
        y = (np.arange(n) % 7 == 0) | (y == 1)  # a validation set with enough positives
        exact = bm.evaluate(y, s)["auc"]
        for w in (1, 2, 3, 8, 64):
            per = -(-n // w)
            idx = np.arange(per * w) % n  # DistributedSampler(shuffle=False, drop_last=False)
            ranks = [idx[r::w] for r in range(w)]  # rank r takes every w-th index
            padded = bm.evaluate(y[idx], s[idx])["auc"]
            means = [bm.evaluate(y[i], s[i], undefined="ignore")["auc"] for i in ranks]
            mean = float(np.nanmean(means))
            real = [i[: max(0, min(per, (n - r + w - 1) // w))] for r, i in enumerate(ranks)]
            acc = Accumulator()
            for i in real:
                acc.update(y[i], s[i])
            merged = acc.evaluate()["auc"]
            lines.append(f"| {n} | {w} | {per * w - n} | {padded - exact:+.2e} | "
                         f"{mean - exact:+.2e} | {merged - exact:+.1e} |")
    lines += ["", "Differences from the AUC of the n rows (bm.evaluate); the padded rows "
              "are the first rows again, as DistributedSampler(drop_last=False) pads."]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1e6,1e7,1e8", help="comma-separated row counts")
    ap.add_argument("--quick", action="store_true", help="n = 1e5, 1e6 (smoke test)")
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--data-dir", type=Path,
                    default=Path(tempfile.gettempdir()) / "binmetrics_bench_scale")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--memory-max", type=float, default=1e8,
                    help="largest n for in-memory evaluate")
    ap.add_argument("--spark-max", type=float, default=1e8, help="largest n for Spark/MLlib")
    ap.add_argument("--mllib-exact-max", type=float, default=1e7,
                    help="largest n for MLlib with numBins=0")
    ap.add_argument("--spark-memory", default="8g", help="Spark driver memory (local mode)")
    ap.add_argument("--repeats", type=int, default=2,
                    help="timed runs per measurement (best reported, first shown apart)")
    ap.add_argument("--memory-repeats", type=int, default=5,
                    help="the same for in-memory evaluate (the reference: cheap, so more)")
    ap.add_argument("--spark-repeats", type=int, default=1, help="the same for Spark/MLlib")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds per measurement")
    ap.add_argument("--max-rss", type=float, default=16.0,
                    help="stop a measurement whose processes exceed this many GB")
    ap.add_argument("--out", type=Path, help="save the results as JSON (default: data dir)")
    ap.add_argument("--from-json", type=Path, help="print the report of a saved run")
    ap.add_argument("--kinds", default=",".join(KINDS), help="score kinds to write and run")
    ap.add_argument("--replicas", type=int, default=1,
                    help="read each file this many times (a glob of symbolic links to it): "
                         "n x replicas rows whose every measure is that of one copy, so the "
                         "in-memory values at n are the exact reference (issue 30: 1e9 rows "
                         "from the 1e8 file without writing 9 GB more)")
    ap.add_argument("--padding", action="store_true",
                    help="issue 30: what DistributedSampler's padding does to a naive "
                         "distributed AUC (simulated; no timing), then exit")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print("RESULT " + json.dumps(child(args.child, args.file, args.spark_memory,
                                             args.repeats)),
              flush=True)
        return
    if args.from_json:
        saved = json.loads(args.from_json.read_text())
        print("\n".join(report(saved["results"], saved["meta"])))
        return
    if args.padding:
        print("\n".join(padding_report(args.seed)))
        return
    kinds = tuple(k.strip() for k in args.kinds.split(","))
    sizes = [int(float(x)) for x in ("1e5,1e6" if args.quick else args.sizes).split(",")]
    engines = [e.strip() for e in args.engines.split(",")]
    unknown = set(engines) - set(ENGINES)
    if unknown:
        ap.error(f"unknown engines {sorted(unknown)}; choose from {', '.join(ENGINES)}")
    import duckdb
    import pyarrow
    import pyspark

    import binmetrics as bm

    meta = {"binmetrics": bm.__version__, "numpy": np.__version__, "duckdb": duckdb.__version__,
            "pyarrow": pyarrow.__version__, "pyspark": pyspark.__version__,
            "cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d %H:%M"),
            "binmetrics_from": os.path.dirname(bm.__file__)}
    print("# " + ", ".join(f"{k} {v}" for k, v in meta.items()), flush=True)
    out_path = args.out or args.data_dir / "bench_scale_results.json"
    results: list[dict[str, Any]] = []
    for n in sizes:
        files = data_files(n, args.data_dir, args.seed, kinds)
        if args.replicas > 1:
            files = {k: replicate(p, args.replicas) for k, p in files.items()}
        for kind in kinds:
            for eng in engines:
                if ((eng in CONTINUOUS_ONLY and kind != "continuous")
                        or (eng == "memory" and n > args.memory_max)
                        or (eng in SPARK_ENGINES and n > args.spark_max)
                        or (eng == "mllib_exact" and n > args.mllib_exact_max)):
                    continue
                r = run_child(eng, files[kind], args)
                r.update(n=n * args.replicas, kind=kind, engine=eng)
                results.append(r)
                done = (f"{r['seconds']:8.2f} s  peak "
                        f"{(r['rss_python'] + r.get('rss_jvm', 0)) / 1e9:5.2f} GB"
                        if "error" not in r else r["error"])
                print(f"# {fmt_n(n):>4} {kind:>10} {LABELS[eng]:<30} {done}", flush=True)
                out_path.parent.mkdir(parents=True, exist_ok=True)
                out_path.write_text(json.dumps({"meta": meta, "results": results}))
    print()
    print("\n".join(report(results, meta)))
    print(f"\n# results saved to {out_path}")


if __name__ == "__main__":
    main()
