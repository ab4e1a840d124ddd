"""Benchmark: ``binmetrics report`` on a 1e6-row Parquet file, timed as a command.

    python benchmarks/bench_report.py                 # n = 1e6, one and two models
    python benchmarks/bench_report.py --sizes 1e5 1e6 --repeats 3

Data: prevalence 0.1, "continuous" probability scores from two overlapping normals
(every score distinct; ``_common.make_data``), and for the two-model case a second,
noisier model on the same rows (wide format, ``--score p,q``: the paired DeLong and
McNemar tests run too). The file is written once (zstd Parquet) into a temporary
folder. Each run is a fresh ``python -m binmetrics report FILE --label y --score ...
-o report.html`` subprocess, so the time includes starting Python, importing
binmetrics, reading the file, evaluating every measure, the curves and their
thinning, the slider's measures at up to 1000 thresholds, and the atomic write.
The time shown is the best of ``--repeats`` runs.

Targets (issue 6, at n = 1e6): under 10 seconds; the HTML under 5 MB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from _common import make_data

TARGET_SECONDS = 10.0
TARGET_BYTES = 5_000_000


def write_data(path: Path, n: int, seed: int = 0) -> None:
    """A Parquet file: label y, scores p (model 1) and q (a noisier model 2)."""
    y, variants = make_data(n, seed=seed)
    p = variants["continuous"]
    rng = np.random.default_rng(seed + 1)
    q = 1.0 / (1.0 + np.exp(-(np.log(p / (1 - p)) + rng.normal(0.0, 1.0, n))))
    pd.DataFrame({"y": y.astype(np.int8), "p": p, "q": q}).to_parquet(
        path, compression="zstd", index=False)


def run_once(data: Path, out: Path, scores: str) -> float:
    cmd = [sys.executable, "-m", "binmetrics", "report", str(data), "--label", "y",
           "--score", scores, "-o", str(out)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", type=float, default=[1e6])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)

    print(f"{'n':>9} {'models':>7} {'seconds':>8} {'target':>7} {'HTML MB':>8} {'target':>7}  "
          "status")
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            n = int(size)
            data = Path(tmp) / f"scores_{n}.parquet"
            write_data(data, n)
            for scores in ("p", "p,q"):
                out = Path(tmp) / "report.html"
                best = min(run_once(data, out, scores) for _ in range(args.repeats))
                size_b = os.path.getsize(out)
                ok = best < TARGET_SECONDS and size_b < TARGET_BYTES
                print(f"{n:>9.0e} {scores.count(',') + 1:>7} {best:>8.2f} "
                      f"{TARGET_SECONDS:>7.0f} {size_b / 1e6:>8.2f} {TARGET_BYTES / 1e6:>7.0f}  "
                      f"{'met' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()
