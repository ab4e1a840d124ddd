"""Make the bundled synthetic screening data set, ``src/binmetrics/data/screening.csv``.

Deterministic (``numpy.random.default_rng(2024)``): running it again writes the
same bytes. 5,000 rows, columns:

* ``id`` -- 1 to 5000;
* ``y`` -- the true class (1 = case), drawn from the risk below, prevalence about 0.1;
* ``p`` -- the risk from a logistic model of one standard-normal feature,
  ``p = 1 / (1 + exp(-(-2.95 + 1.5 x)))``, rounded to 3 decimals, so that the
  scores have ties (and ``y`` is drawn from the unrounded risk, so ``p`` is
  calibrated up to the rounding);
* ``w`` -- a positive case weight, 1 or 2 (about 30% of rows count twice).

Usage::

    python examples/make_screening_data.py [OUTPUT.csv]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

N_ROWS = 5000
SEED = 2024
INTERCEPT = -2.95  # gives a prevalence of about 0.1 with a standard-normal feature
SLOPE = 1.5

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "src" / "binmetrics" / "data" / "screening.csv"


def make(n: int = N_ROWS, seed: int = SEED) -> list[str]:
    """The CSV lines (header first) of the screening data set."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n)
    risk = 1.0 / (1.0 + np.exp(-(INTERCEPT + SLOPE * x)))
    y = (rng.random(n) < risk).astype(np.int64)
    w = np.where(rng.random(n) < 0.3, 2, 1)
    p = np.round(risk, 3)
    lines = ["id,y,p,w"]
    lines += [f"{i},{yi},{pi:.3f},{wi}" for i, yi, pi, wi in
              zip(range(1, n + 1), y.tolist(), p.tolist(), w.tolist(), strict=True)]
    return lines


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else DEFAULT_OUTPUT
    lines = make()
    out.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")
    n_pos = sum(line.split(",")[1] == "1" for line in lines[1:])
    print(f"wrote {out}: {len(lines) - 1} rows, {n_pos} positives")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
