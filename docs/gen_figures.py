"""Draw the figures of the "Plots and reports" page at build time (mkdocs-gen-files).

The figures are made by ``binmetrics.plot`` on Berrar's ten cases each time the site
is built, so they always show what the current code draws. They are written as
``figures/*.png`` into the site (not into the repository).
"""

from __future__ import annotations

import io
import runpy
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import binmetrics as bm
from binmetrics import plot

Y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
S = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
#: The second model of the page's overlay example.
S_B = [.9, .3, .6, .8, .4, .2, .7, .55, .1, .35]


def figures() -> dict[str, plt.Figure]:
    """File name -> figure."""
    ev = bm.evaluate(Y, S, threshold=0.55)
    other = bm.evaluate(Y, S_B, threshold=0.55)
    out: dict[str, plt.Figure] = {}

    fig, axs = plt.subplots(3, 3, figsize=(13, 12))
    plot.roc(ev, ax=axs[0, 0], operating_point=True)
    plot.threshold(ev, ax=axs[0, 1])
    plot.pr(ev, ax=axs[0, 2])
    plot.prg(ev, ax=axs[1, 0])
    plot.gain(ev, ax=axs[1, 1])
    plot.lift(ev, ax=axs[1, 2])
    plot.loss(ev, ax=axs[2, 0])
    plot.measure(ev, ax=axs[2, 1], measure=["f1", "mcc"])
    plot.confusion_matrix(ev, ax=axs[2, 2])
    fig.tight_layout()
    out["berrar_charts.png"] = fig

    fig, axs = plt.subplots(1, 2, figsize=(10, 4.5))
    models = {"A": ev, "B": other}
    plot.roc(models, ax=axs[0])
    plot.pr(models, ax=axs[1], interpolation="step")
    fig.tight_layout()
    out["two_models.png"] = fig

    fig, axs = plt.subplots(1, 3, figsize=(14, 4.8))
    for ax, shade in zip(axs, ("auc", "gini", "auch"), strict=True):  # Berrar Fig. 6a-c
        plot.roc(ev, ax=ax, shade=shade, hull=shade == "auch")
    fig.tight_layout()
    out["berrar_fig6.png"] = fig

    # Berrar Fig. 8b: signed distances 4 (p - 0.5), which put case #8 (negative) and
    # case #3 (positive) at distance 1 on the wrong side, both with hinge loss 2
    distances = bm.evaluate(Y, [4 * (p - 0.5) for p in S], threshold=0.0)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    distances.plot("case_losses", ax=ax)
    fig.tight_layout()
    out["berrar_fig8b.png"] = fig

    out["anova_fig4b.png"] = _anova_fig4b()
    out["siblini_fig7.png"] = _siblini_fig7()
    return out


def _anova_fig4b() -> plt.Figure:
    """The multi-level paper's Fig. 4B from simulated normalized SRD values: metric x
    dataset composition, one panel per classification type."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(4)
    metrics = ["ACC", "BACC", "MCC", "AP", "BEDROC", "DOR", "MK", "TPR"]
    shift = {"ACC": 4, "BACC": 5, "MCC": 5, "AP": 7, "BEDROC": 8, "DOR": 0, "MK": 1,
             "TPR": 6}
    rows = [(m, c, t, 25 + (shift[m] if c == "imbalanced" and t == "2-class" else 0)
             - (6 if t == "multiclass" else 0) + rng.normal(0, 2))
            for m in metrics for c in ("balanced", "imbalanced")
            for t in ("2-class", "multiclass") for _ in range(10)]
    frame = pd.DataFrame(rows, columns=["metric", "composition", "type", "srd"])
    res = bm.anova(frame, factors=["composition", "type", "metric"], response="srd")
    fig, axs = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    res.plot("metric", "composition", by="type", ax=axs)
    fig.tight_layout()
    return fig


def _siblini_fig7() -> plt.Figure:
    """Siblini et al.'s Fig. 7 on the synthetic data sets of examples/siblini_fig7.py."""
    example = runpy.run_path(str(Path(__file__).resolve().parents[1] / "examples"
                                 / "siblini_fig7.py"))
    return example["draw"](example["figure7"](n_datasets=12, n_models=20))


def _write_gen_files() -> None:
    import mkdocs_gen_files

    for name, fig in figures().items():
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
        plt.close(fig)
        with mkdocs_gen_files.open(f"figures/{name}", "wb") as f:
            f.write(buf.getvalue())


if __name__ == "<run_path>":  # run by mkdocs-gen-files
    _write_gen_files()
