"""Berrar Fig. 6a-c: the shaded AUC, Gini and AUCH areas of the ROC chart; each polygon's
area (shoelace formula) against the paper's numbers."""

from __future__ import annotations

import numpy as np
import pytest

import binmetrics as bm

Y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
S = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]


def _area(x: np.ndarray, y: np.ndarray) -> float:
    """The area of the closed polygon through (x, y) (shoelace)."""
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


@pytest.mark.parametrize(("shade", "area", "label"), [
    ("auc", 0.8, "area AUC = 0.800"),                                    # Fig. 6a
    ("gini", 0.3, "area A = AUC - 0.5: Gini = A / 0.5 = 0.600"),          # Fig. 6b
    ("auch", 0.88, "area AUCH = 0.880"),                                 # Fig. 6c
])
def test_berrar_figure_6_areas(shade: str, area: float, label: str) -> None:
    ev = bm.evaluate(Y, S)
    cd = bm.plot.chart_data("roc", ev, shade=shade)
    (band,) = [s for s in cd.series if s.style == "band"]
    assert band.label == label
    assert _area(band.x, band.y) == pytest.approx(area, abs=1e-12)
    assert [s.label for s in cd.series if s.style != "band"] == [
        "ROC, AUC = 0.800", "convex hull, AUCH = 0.880", "random"]


def test_several_shades_and_models() -> None:
    a = bm.evaluate(Y, S)
    b = bm.evaluate(Y, [.9, .3, .6, .8, .4, .2, .7, .55, .1, .35])
    cd = bm.plot.chart_data("roc", {"A": a, "B": b}, shade=["auc", "auch"], hull=False)
    bands = [(s.model, s.label.split(" =")[0]) for s in cd.series if s.style == "band"]
    assert bands == [("A", "area AUC"), ("A", "area AUCH"), ("B", "area AUC"),
                     ("B", "area AUCH")]
    with pytest.raises(ValueError, match="shade must be one of"):
        bm.plot.chart_data("roc", a, shade="pr")
    assert [s.style for s in a.roc().chart().series].count("band") == 0


def test_draws() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = bm.plot.roc(bm.evaluate(Y, S), shade="gini", hull=False)
    assert len(ax.patches) == 1  # the filled area
    assert any("Gini = A / 0.5 = 0.600" in t.get_text() for t in ax.get_legend().get_texts())
    plt.close("all")
