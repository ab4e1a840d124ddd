"""Reproduce the design of Siblini et al., Figure 7, on synthetic data: Spearman rank
correlations between 10 measures over the models of each data set, averaged over many
data sets (``bm.mean_measure_correlation``).

The paper fetched 30 models' predictions on each of 614 OpenML data sets. Here each
synthetic data set has its own prevalence and difficulty, and 30 "models" whose scores
differ in separation, noise and in how much they favour the top of the ranking (a
heteroscedastic score: some models are sharper on the positives they rank first, which
is what makes AUC and the precision-based measures disagree). The left matrix averages
over mostly balanced data sets with pi0 = 0.5 and pi0 = 1.01 pi; the right one over
highly imbalanced data sets (pi < 0.01) with pi0 = 0.5 and pi0 = 10 pi, as the paper.

Run ``python examples/siblini_fig7.py [--datasets 40] [--models 30] [--n 2000]
[--out siblini_figures]``;
it prints both matrices and writes ``fig7_mean_correlation.png``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

import binmetrics as bm


def synthetic_datasets(n_datasets: int, n_models: int, *, imbalanced: bool, n: int = 2000,
                       seed: Any = 0) -> list[dict[str, bm.Evaluation]]:
    """Data sets of ``n`` cases, each with ``n_models`` models' evaluations."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n_datasets):
        pi = rng.uniform(0.002, 0.01) if imbalanced else rng.uniform(0.1, 0.5)
        size = 20 * n if imbalanced else n  # enough positives to rank models by
        y = rng.random(size) < pi
        y[:3] = [True, True, False]
        difficulty = rng.uniform(0.5, 1.5)
        models = {}
        for k in range(n_models):
            gap = difficulty * rng.uniform(0.5, 2.5)
            spread = rng.uniform(0.5, 2.0)  # positives' spread: top-heavy or flat rankings
            x = rng.standard_normal(size) * np.where(y, spread, 1.0) + gap * y
            models[f"model{k}"] = bm.evaluate(y, x, threshold=float(np.median(x)))
        out.append(models)
    return out


def figure7(n_datasets: int = 40, n_models: int = 30, n: int = 2000,
            seed: int = 0) -> dict[str, Any]:
    """The two matrices of the figure: ``{"balanced": ..., "imbalanced": ...}`` (the
    imbalanced data sets: a tenth as many, at least 4, of 20 n cases)."""
    balanced = synthetic_datasets(n_datasets, n_models, imbalanced=False, n=n, seed=seed)
    imbalanced = synthetic_datasets(max(4, n_datasets // 10), n_models, imbalanced=True,
                                    n=n, seed=seed + 1)
    return {"balanced": bm.mean_measure_correlation(balanced, pi0=(0.5, "1.01*pi")),
            "imbalanced": bm.mean_measure_correlation(imbalanced, pi0=(0.5, "10*pi"))}


def draw(matrices: dict[str, Any]) -> Any:
    """Both heatmaps side by side; returns the matplotlib Figure."""
    import matplotlib.pyplot as plt

    fig, (a, b) = plt.subplots(1, 2, figsize=(15, 6.5))
    matrices["balanced"].plot(ax=a, colorbar=False)
    a.set_title(f"{matrices['balanced'].n_datasets} data sets, pi in [0.1, 0.5]")
    matrices["imbalanced"].plot(ax=b)
    b.set_title(f"{matrices['imbalanced'].n_datasets} data sets, pi < 0.01")
    fig.tight_layout()
    return fig


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--datasets", type=int, default=40)
    ap.add_argument("--models", type=int, default=30)
    ap.add_argument("--n", type=int, default=2000, help="cases per balanced data set")
    ap.add_argument("--out", type=Path, default=Path("siblini_figures"))
    args = ap.parse_args(argv)
    matrices = figure7(args.datasets, args.models, args.n)
    for name, corr in matrices.items():
        print(f"{name}:\n{corr.matrix.round(2).to_string()}\n")
    import matplotlib

    matplotlib.use("Agg")
    fig = draw(matrices)
    args.out.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out / "fig7_mean_correlation.png", dpi=100)
    print(f"wrote {args.out / 'fig7_mean_correlation.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
