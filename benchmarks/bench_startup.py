"""Benchmark: start-up. ``import binmetrics`` and ``binmetrics --help`` against
``import numpy``, each the best of ``--repeats`` fresh subprocesses, then a
``python -X importtime`` summary of the slowest imports of each.

    python benchmarks/bench_startup.py
    python benchmarks/bench_startup.py --repeats 20 --top 15

Targets (issue 18, quiet machine): ``import binmetrics`` at most 2x ``import numpy``,
``binmetrics --help`` under 0.5 s; (issue 32) a fresh process importing binmetrics and
running ``evaluate(y, s).to_dict()`` on 1,000 rows within 4x ``import numpy`` (the
issue takes the median of 7 runs of each whole command, run in turn; here the best of
``--repeats``). The interpreter's own start (``python -c pass``) is
shown and included in every time, as a user sees it. Also shown: a first
``bm.evaluate(...).to_dict()`` on four rows in a fresh process (what a binary
evaluation imports: no pandas or scipy.stats) and the README's main job.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from _common import machine

CASES = {
    "python -c pass": ["-c", "pass"],
    "import numpy": ["-c", "import numpy"],
    "import binmetrics": ["-c", "import binmetrics"],
    "binmetrics --help": ["-m", "binmetrics", "--help"],
    "first evaluate().to_dict()": ["-W", "ignore", "-c", "import binmetrics as bm; "
                                   "bm.evaluate([0, 1, 1, 0], [.2, .8, .6, .3]).to_dict()"],
    "first call on 1,000 rows": ["-W", "ignore", "-c", "import numpy as np, binmetrics as bm; "
                                 "r = np.random.default_rng(0); "
                                 "bm.evaluate(r.random(1000) < 0.3, r.random(1000)).to_dict()"],
    "README main job": ["-W", "ignore", "-m", "binmetrics", "evaluate", "--example",
                        "screening", "--weight", "w"],
}


def best_of(args: list[str], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t0)
    return best


def importtime(args: list[str], top: int) -> list[tuple[int, str]]:
    """The ``top`` imports with the largest cumulative time (microseconds)."""
    out = subprocess.run([sys.executable, "-X", "importtime", *args], check=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
    rows = []
    for line in out.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cum, name = (x.strip() for x in line[len("import time:"):].split("|"))
        if cum.isdigit():
            rows.append((int(cum), name))
    return sorted(rows, reverse=True)[:top]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    print(f"{machine()}; best of {args.repeats} fresh processes")
    times = {name: best_of(a, args.repeats) for name, a in CASES.items()}
    ref = times["import numpy"]
    for name, t in times.items():
        print(f"{name:>26}: {t:7.3f} s  {t / ref:5.2f}x import numpy")
    first = times["first call on 1,000 rows"]
    print(f"targets: import binmetrics <= 2x import numpy "
          f"({'ok' if times['import binmetrics'] <= 2 * ref else 'MISSED'}), "
          f"--help < 0.5 s ({'ok' if times['binmetrics --help'] < 0.5 else 'MISSED'}), "
          f"first call on 1,000 rows <= 4x import numpy "
          f"({'ok' if first <= 4 * ref else 'MISSED'}: {first / ref:.2f}x)")
    for name in ("import binmetrics", "binmetrics --help", "first call on 1,000 rows"):
        print(f"\nslowest imports of {name} (cumulative, -X importtime):")
        for us, mod in importtime(CASES[name], args.top):
            print(f"  {us / 1e3:8.1f} ms  {mod}")


if __name__ == "__main__":
    main()
