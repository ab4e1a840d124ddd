"""Benchmark: pROC's bootstrap and Venkatraman roc.test against bm.roc_test, and its
ci.se band against roc.ci_band.

    python benchmarks/bench_proc.py                       # n = 1e5, 2000 replicates
    python benchmarks/bench_proc.py --n 1e4 --proc-boot 200
    python benchmarks/bench_proc.py --method venkatraman --n 1e4 --boot 200 --proc-boot 2
    python benchmarks/bench_proc.py --method ci_band --n 1e4 --proc-boot 100

``--method ci_band`` times ``roc.ci_band(fpr=...)`` at 51 FPRs from 0 to 1 against
pROC's ``ci.se(r1, specificities = seq(0, 1, length.out = 51))`` (its "statistic" is
the band's median sensitivity at specificity 0.9).

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
{call}
cat(as.numeric(difftime(Sys.time(), t0, units = "secs")), stat, "\\n")
"""

R_CALLS = {
    "test": 'stat <- roc.test(r1, r2, method = "{method}", boot.n = {boot}, '
            'progress = "none")$statistic',
    "ci_band": "stat <- ci.se(r1, specificities = seq(0, 1, length.out = 51), "
               'boot.n = {boot}, progress = "none")[46, 2]',
}


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
        call = R_CALLS["ci_band" if method == "ci_band" else "test"].format(method=method,
                                                                            boot=boot)
        script.write_text(R_SCRIPT.format(csv=csv.as_posix(), call=call))
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
    ap.add_argument("--method", choices=("bootstrap", "venkatraman", "ci_band"),
                    default="bootstrap")
    args = ap.parse_args(argv)
    n = int(args.n)
    y, a, b = _data(n)
    t0 = time.perf_counter()
    if args.method == "ci_band":
        roc = bm.evaluate(y, a).roc()  # the table is built once, as pROC's roc(): untimed
        t0 = time.perf_counter()
        band = roc.ci_band(fpr=np.linspace(0, 1, 51), n_resamples=args.boot, random_state=0)
        statistic = float(band.median[5])  # FPR 0.1, pROC's specificity 0.9
    else:
        statistic = bm.roc_test(y, a, b, method=args.method, n_resamples=args.boot,
                                random_state=0).statistic
    secs = time.perf_counter() - t0
    print(f"{args.method}: n = {n}, {args.boot} replicates")
    print(f"binmetrics: {secs:8.2f} s   statistic = {statistic:.4f}")
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
