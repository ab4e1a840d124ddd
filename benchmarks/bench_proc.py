"""Benchmark: pROC's bootstrap and Venkatraman roc.test against bm.roc_test.

    python benchmarks/bench_proc.py                       # n = 1e5, 2000 replicates
    python benchmarks/bench_proc.py --n 1e4 --proc-boot 200
    python benchmarks/bench_proc.py --method venkatraman --n 1e4 --boot 200 --proc-boot 2

Data: ``make_data`` (prevalence 0.1, continuous scores) for model A, model B = A's
logit plus N(0, 1) noise. binmetrics builds each model's count table once and draws
every replicate as a count vector (no sort); pROC rebuilds both ROC curves for every
replicate. pROC is run with ``--proc-boot`` replicates (default 100: 2000 would take
long) and its time is scaled linearly to ``--boot`` (its cost is one ROC build per
replicate, so linear). Needs R with pROC (``Rscript``); without it the pROC side is
skipped with a message.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from _common import make_data

import binmetrics as bm

R_SCRIPT = """
suppressMessages(library(pROC))
d <- read.csv("{csv}")
r1 <- roc(d$y, d$a, levels = c(0, 1), direction = "<", quiet = TRUE)
r2 <- roc(d$y, d$b, levels = c(0, 1), direction = "<", quiet = TRUE)
set.seed(1)
t0 <- Sys.time()
t <- roc.test(r1, r2, method = "{method}", boot.n = {boot}, progress = "none")
cat(as.numeric(difftime(Sys.time(), t0, units = "secs")), t$statistic, "\\n")
"""


def _data(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    y, scores = make_data(n)
    a = scores["continuous"]
    rng = np.random.default_rng(1)
    b = 1.0 / (1.0 + np.exp(-(np.log(a / (1.0 - a)) + rng.normal(size=n))))
    return y.astype(int), a, b


def _proc_seconds(y: np.ndarray, a: np.ndarray, b: np.ndarray, boot: int,
                  method: str) -> tuple[float, float] | None:
    if shutil.which("Rscript") is None:
        print("pROC: skipped (Rscript not found; install R and pROC to compare)")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        csv = Path(tmp) / "d.csv"
        np.savetxt(csv, np.c_[y, a, b], delimiter=",", header="y,a,b", comments="",
                   fmt=["%d", "%.17g", "%.17g"])
        script = Path(tmp) / "bench.R"
        script.write_text(R_SCRIPT.format(csv=csv.as_posix(), boot=boot, method=method))
        proc = subprocess.run(["Rscript", str(script)], capture_output=True, text=True)
        if proc.returncode != 0:
            print(f"pROC: skipped (R failed: {proc.stderr.strip().splitlines()[-1:]})")
            return None
        secs, stat = proc.stdout.split()
        return float(secs), float(stat)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=float, default=1e5)
    ap.add_argument("--boot", type=int, default=2000)
    ap.add_argument("--proc-boot", type=int, default=100)
    ap.add_argument("--method", choices=("bootstrap", "venkatraman"), default="bootstrap")
    args = ap.parse_args(argv)
    n = int(args.n)
    y, a, b = _data(n)
    t0 = time.perf_counter()
    ours = bm.roc_test(y, a, b, method=args.method, n_resamples=args.boot, random_state=0)
    secs = time.perf_counter() - t0
    print(f"{args.method}: n = {n}, {args.boot} replicates")
    print(f"binmetrics: {secs:8.2f} s   statistic = {ours.statistic:.4f}")
    res = _proc_seconds(y, a, b, args.proc_boot, args.method)
    if res is None:
        return
    proc_secs, proc_stat = res
    scaled = proc_secs * args.boot / args.proc_boot
    print(f"pROC:       {scaled:8.2f} s   ({proc_secs:.2f} s for {args.proc_boot} replicates, "
          f"scaled; statistic {proc_stat:.4f} on those)")
    print(f"speed-up:   {scaled / secs:8.1f}x")


if __name__ == "__main__":
    main()
