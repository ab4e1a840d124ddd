"""Draw the figures of the "Plots and reports" page at build time (mkdocs-gen-files).

The figures are made by ``binmetrics.plot`` on Berrar's ten cases each time the site
is built, so they always show what the current code draws. They are written as
``figures/*.png`` into the site (not into the repository).
"""

from __future__ import annotations

import io

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
    return out


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
