"""Reproduce Siblini et al., sections 3.2 and 3.3 (Figures 4, 5 and 6), on synthetic data.

The paper's data (eq. 6): labels ~ Bernoulli(pi), x | y ~ N(mu_y, 1). The optimal
model's score is the likelihood ratio, which is monotone in x (mu1 > mu0), so x is
the score. The script writes three figures and prints their numbers:

* ``fig4_prior.png``: raw and calibrated (pi0 = 0.5) AP, AUPRG and best F1 as pi
  falls from 0.5 to 0.001 (mu1 = 2, mu0 = 1.8): the raw values collapse, the
  calibrated ones stay put.
* ``fig5_distance.png``: the same measures as the classes move together
  (KL = (mu1 - mu0)^2 / 2 down to 0) at a random prior in [0.001, 0.5] per point:
  calibrated values fall smoothly, raw ones jump with pi.

  As in the paper, both figures average ``--runs`` repeated runs (30 by default;
  each run draws new data, and for Fig. 5 new random priors) and draw the 95%
  confidence band of that mean (Student t over the runs) around each line.
* ``fig6_undersampling.png``: closed-form calibrated AP against the undersampling
  heuristic (mean and standard deviation over repeats) for several pi0 on an
  imbalanced set (pi = 0.0017).

Run ``python examples/siblini_invariance.py [--n 1000000] [--runs 30] [--out siblini_figures]``
(the paper's 10^6 points and 30 runs take a while on a laptop; ``--n 100000 --runs 10``
gives the same picture in about a minute).
The data-generating and experiment functions are importable (the tests use them).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import numpy as np

import binmetrics as bm

MEASURES = ("average_precision", "auprg", "best_f1")
LABELS = {"average_precision": "AUC-PR (AP)", "auprg": "AUC-PR Gain", "best_f1": "best F1"}


def make_data(n: int, pi: float, mu1: float = 2.0, mu0: float = 1.8,
              seed: Any = 0) -> tuple[np.ndarray, np.ndarray]:
    """The paper's eq. (6): y ~ Bernoulli(pi), x | y ~ N(mu_y, 1).

    Returns ``(y, score)``; the optimal model's score is x itself.

    Examples
    --------
    >>> y, s = make_data(1000, 0.3, seed=1)
    >>> y.shape, s.shape, bool(0.2 < y.mean() < 0.4)
    ((1000,), (1000,), True)
    """
    rng = np.random.default_rng(seed)
    y = rng.random(n) < pi
    x = rng.standard_normal(n)
    x += np.where(y, mu1, mu0)
    return y, x


def _sub(seed: Any, i: int) -> tuple[int, ...]:
    """The seed of data set ``i`` of a run seeded ``seed`` (an int or a tuple of ints)."""
    return (*np.atleast_1d(seed).astype(int).tolist(), i)


def measures_of(y: np.ndarray, s: np.ndarray, pi0: float = 0.5) -> dict[str, float]:
    """Raw and calibrated AP, AUPRG and best F1 of one data set.

    Keys are ``"<measure>"`` and ``"<measure>_cal"`` plus ``"pi"`` (the empirical
    prevalence). AUPRG uses ``compat="exact"`` (the recall-gain root of the
    calibrated curve, the default): the reference code's crossing
    (``compat="prgc"``) sits at the uncalibrated root TP* = P^2 / n and, with one case per
    score, is extrapolated far outside the curve, which gives calibrated areas in
    the thousands once pi is small (docs/methods.md §4).
    """
    ev = bm.evaluate(y, s, undefined="ignore")
    cal = ev.calibrated(pi0)
    out = {"pi": float(np.mean(y))}
    for name, e in (("", ev), ("_cal", cal)):
        out["average_precision" + name] = e["average_precision"]
        out["auprg" + name] = e.value("auprg", compat="exact")
        out["best_f1" + name] = e.best_threshold("f1").value
    return out


def prior_experiment(n: int, pis: Any, *, mu1: float = 2.0, mu0: float = 1.8,
                     pi0: float = 0.5, seed: Any = 0) -> list[dict[str, float]]:
    """Section 3.2, Figure 4: the measures at each prior (one seed per prior)."""
    rows = []
    for i, pi in enumerate(pis):
        y, s = make_data(n, float(pi), mu1, mu0, seed=_sub(seed, i))
        rows.append({"pi_param": float(pi), **measures_of(y, s, pi0)})
    return rows


def distance_experiment(n: int, kls: Any, *, pi_range: tuple[float, float] = (0.001, 0.5),
                        pi0: float = 0.5, seed: Any = 0) -> list[dict[str, float]]:
    """Section 3.2, Figure 5: the measures as KL = (mu1 - mu0)^2 / 2 decreases, each point
    at a prior drawn uniformly from ``pi_range`` (mu0 = 0, mu1 = sqrt(2 KL))."""
    rng = np.random.default_rng(seed)
    pis = rng.uniform(*pi_range, size=len(kls))
    rows = []
    for i, (kl, pi) in enumerate(zip(kls, pis, strict=True)):
        mu1 = float(np.sqrt(2.0 * kl))
        y, s = make_data(n, float(pi), mu1, 0.0, seed=_sub(seed, 1000 + i))
        rows.append({"kl": float(kl), "pi_param": float(pi), **measures_of(y, s, pi0)})
    return rows


def undersampling_experiment(n: int, pi0s: Any, *, pi: float = 0.0017, mu1: float = 2.0,
                             mu0: float = 0.0, n_resamples: int = 100,
                             seed: int = 0) -> list[dict[str, float]]:
    """Section 3.3, Figure 6: closed-form calibrated AP against the undersampling heuristic."""
    y, s = make_data(n, pi, mu1, mu0, seed=(seed, 2000))
    ev = bm.evaluate(y, s)
    rows = []
    for j, p0 in enumerate(pi0s):
        us = ev.calibrated(float(p0), method="undersample", n_resamples=n_resamples,
                           random_state=np.random.SeedSequence([seed, 3000 + j]))
        ap = us.values("average_precision")
        rows.append({"pi0": float(p0), "pi": float(np.mean(y)),
                     "closed_form": ev.calibrated(float(p0))["average_precision"],
                     "undersampled": us["average_precision"], "std": float(np.std(ap, ddof=1)),
                     "sem": us.sem("average_precision"), "n_resamples": n_resamples})
    return rows


def repeated_runs(experiment: Any, runs: int, *args: Any, seed: int = 0,
                  level: float = 0.95, **kwargs: Any) -> list[dict[str, float]]:
    """Run ``experiment(*args, seed=(seed, run), **kwargs)`` ``runs`` times and average:
    per point, the mean over the runs of every value and its ``level`` confidence band
    (``<key>_low``, ``<key>_high``: mean -+ t * sd / sqrt(runs), Student t with
    runs - 1 degrees of freedom), as the paper's Figures 4 and 5 average 30 runs and
    show confidence intervals. Runs where a value is NaN are left out of its mean.

    Examples
    --------
    >>> rows = repeated_runs(prior_experiment, 3, 2000, [0.5, 0.1])
    >>> [round(r["pi_param"], 2) for r in rows], rows[0]["runs"]
    ([0.5, 0.1], 3.0)
    >>> r = rows[1]
    >>> bool(r["average_precision_low"] < r["average_precision"] < r["average_precision_high"])
    True
    """
    from scipy import stats

    if runs < 2:
        raise ValueError(f"runs must be at least 2 for a confidence band; got {runs}")
    per_run = [experiment(*args, seed=(seed, run), **kwargs) for run in range(runs)]
    out = []
    for points in zip(*per_run, strict=True):
        row: dict[str, float] = {"runs": float(runs)}
        for key in points[0]:
            v = np.array([p[key] for p in points], dtype=float)
            v = v[np.isfinite(v)]
            mean = float(v.mean()) if v.size else float("nan")
            half = (float(stats.t.ppf((1 + level) / 2, v.size - 1) * v.std(ddof=1)
                          / np.sqrt(v.size)) if v.size > 1 else float("nan"))
            row[key], row[key + "_low"], row[key + "_high"] = mean, mean - half, mean + half
        out.append(row)
    return out


def _table(rows: list[dict[str, float]], cols: list[str]) -> str:
    head = " ".join(f"{c:>12s}" for c in cols)
    body = [" ".join(f"{r[c]:12.5g}" for c in cols) for r in rows]
    return "\n".join([head, *body])


def _plot_measures(ax_row: Any, x: np.ndarray, rows: list[dict[str, float]], xlabel: str,
                   logx: bool, invert: bool) -> None:
    for ax, m in zip(ax_row, MEASURES, strict=True):
        for key, style, label in ((m, "o-", "original"),
                                  (m + "_cal", "s-", "calibrated (pi0 = 0.5)")):
            (line,) = ax.plot(x, [r[key] for r in rows], style, markersize=4, label=label)
            if key + "_low" in rows[0]:  # averaged runs: the confidence band of the mean
                ax.fill_between(x, [r[key + "_low"] for r in rows],
                                [r[key + "_high"] for r in rows], color=line.get_color(),
                                alpha=0.25, linewidth=0)
        ax.set_title(LABELS[m])
        ax.set_xlabel(xlabel)
        if logx:
            ax.set_xscale("log")
        if invert:
            ax.invert_xaxis()
        ax.grid(alpha=0.3)
    ax_row[0].legend()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, default=1e6, help="points per data set (default 1e6)")
    ap.add_argument("--out", default="siblini_figures", help="output folder for the PNGs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-priors", type=int, default=12)
    ap.add_argument("--n-distances", type=int, default=12)
    ap.add_argument("--n-resamples", type=int, default=100, help="undersampling repeats")
    ap.add_argument("--runs", type=int, default=30,
                    help="runs averaged in Figures 4 and 5, with a 95%% confidence band "
                         "(default 30, as the paper)")
    args = ap.parse_args(argv)
    n = int(args.n)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    t0 = time.perf_counter()
    pis = np.geomspace(0.5, 0.001, args.n_priors)
    rows4 = repeated_runs(prior_experiment, args.runs, n, pis, seed=args.seed)
    cols = ["pi", *[c for m in MEASURES for c in (m, m + "_cal")]]
    print(f"Figure 4: mu1 = 2, mu0 = 1.8, n = {n}, pi0 = 0.5, mean of {args.runs} runs")
    print(_table(rows4, cols))
    for m in MEASURES:
        raw = [r[m] for r in rows4]
        cal = [r[m + "_cal"] for r in rows4]
        print(f"  spread (max - min) of {m}: raw {np.ptp(raw):.4f}, calibrated {np.ptp(cal):.4f}")
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    _plot_measures(axes, pis, rows4, "pi", True, True)
    fig.suptitle(f"Optimal model, mu1 = 2, mu0 = 1.8: varying the prior, mean of {args.runs} "
                 "runs and 95% band (Siblini et al. Fig. 4)")
    fig.tight_layout()
    fig.savefig(out / "fig4_prior.png", dpi=110)
    plt.close(fig)

    kls = np.linspace(0.5, 0.0, args.n_distances)
    rows5 = repeated_runs(distance_experiment, args.runs, n, kls, seed=args.seed)
    print(f"\nFigure 5: KL = (mu1 - mu0)^2 / 2 decreasing, random pi in [0.001, 0.5] per run "
          f"and point, n = {n}, mean of {args.runs} runs")
    print(_table(rows5, ["kl", "pi", *cols[1:]]))
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    _plot_measures(axes, kls, rows5, "KL divergence", False, True)
    fig.suptitle(f"Optimal model as the classes move together, random priors: mean of "
                 f"{args.runs} runs and 95% band (Siblini et al. Fig. 5)")
    fig.tight_layout()
    fig.savefig(out / "fig5_distance.png", dpi=110)
    plt.close(fig)

    pi0s = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5]
    rows6 = undersampling_experiment(n, pi0s, n_resamples=args.n_resamples, seed=args.seed)
    print(f"\nFigure 6: calibrated AP, closed form vs undersampling ({args.n_resamples} repeats), "
          f"pi = {rows6[0]['pi']:.5f}, mu1 = 2, mu0 = 0, n = {n}")
    print(_table(rows6, ["pi0", "closed_form", "undersampled", "std", "sem"]))
    fig, ax = plt.subplots(figsize=(6, 4))
    x = np.array(pi0s)
    mean = np.array([r["undersampled"] for r in rows6])
    sd = np.array([r["std"] for r in rows6])
    ax.plot(x, mean, "r-", label="undersampling heuristic (mean)")
    ax.fill_between(x, mean - sd, mean + sd, color="r", alpha=0.2, label="± 1 sd over repeats")
    ax.plot(x, [r["closed_form"] for r in rows6], "bo", label="closed-form calibrated AP")
    ax.set_xscale("log")
    ax.set_xlabel("pi0")
    ax.set_ylabel("calibrated AUC-PR")
    ax.set_title("Closed form vs undersampling (Siblini et al. Fig. 6)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "fig6_undersampling.png", dpi=110)
    plt.close(fig)
    print(f"\nwrote {out}/fig4_prior.png, fig5_distance.png, fig6_undersampling.png "
          f"in {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
