"""``binmetrics.plot``: every chart renders without warnings, for one model and two
overlaid, and draws the numbers of the evaluation (the Axes are inspected, not pixels).

Independent references: scikit-learn (roc_curve, precision_recall_curve,
average_precision_score, calibration_curve, f1_score, confusion_matrix), scipy's
two-sample Kolmogorov-Smirnov statistic, Berrar's worked values (AUC 0.8, AUCH 0.88,
AUCPR_min 0.6476, average gain 0.75, average lift 1.427), direct numpy sums.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.calibration import calibration_curve
from sklearn.metrics import (
    average_precision_score,
    f1_score,
    precision_recall_curve,
    roc_curve,
)
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

import binmetrics as bm
from binmetrics import plot
from binmetrics.measures._util import trapezoid

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.collections import PathCollection
from matplotlib.colors import to_rgba

pytestmark = pytest.mark.filterwarnings("error")

Y = np.array([1, 1, 0, 1, 1, 0, 0, 1, 0, 0])
S = np.array([.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
S2 = np.array([.9, .3, .6, .8, .4, .2, .7, .55, .1, .35])


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


@pytest.fixture
def ev() -> bm.Evaluation:
    return bm.evaluate(Y, S)


@pytest.fixture
def two() -> dict[str, bm.Evaluation]:
    return {"A": bm.evaluate(Y, S), "B": bm.evaluate(Y, S2)}


def random_case(seed: int, n: int = 300, ties: bool = True) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
    if ties:
        s = np.round(s, 2)
    return y, s


def xy(line: Any) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)


def by_label(ax: Any, text: str) -> list[Any]:
    return [ln for ln in ax.lines if text in ln.get_label()]


def colours(ax: Any, prefix: str) -> set[tuple[float, ...]]:
    """Colours of the model's lines and marker collections."""
    out = {to_rgba(ln.get_color()) for ln in ax.lines if ln.get_label().startswith(prefix)}
    return out | {tuple(c.get_facecolor()[0]) for c in ax.collections
                  if c.get_label().startswith(prefix)}


def legend_texts(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


# --- every kind, one model and two ------------------------------------------------------
#: (lines, collections) per kind: for one model, and added by each further model
EXPECTED = {
    "roc": ((3, 0), (2, 0)),  # curve + hull per model, one diagonal
    "threshold": ((3, 0), (3, 0)),  # TPR, FPR, KS segment per model
    "pr": ((5, 0), (4, 0)),  # step, min, max, minmax per model; one prevalence line
    "prg": ((3, 0), (2, 0)),  # curve + dots per model; one baseline
    "gain": ((2, 0), (1, 0)),  # curve per model; one random line (same n and P)
    "lift": ((2, 0), (1, 0)),  # curve per model; the line at 1
    "loss": ((2, 2), (0, 2)),  # the two loss functions; hinge and 0-1 cases per model
    "reliability": ((2, 0), (1, 0)),  # points per model; the diagonal (bars are patches)
    "decision_curve": ((3, 0), (1, 0)),  # net benefit per model; treat all (same cases), none
    "measure": ((2, 0), (2, 0)),  # f1 and its best point per model
}


def test_kinds_registry() -> None:
    assert plot.kinds() == list(plot.KINDS) == list(plot.PLOT_KINDS)
    builtin = ["roc", "threshold", "pr", "prg", "gain", "lift", "loss", "reliability",
               "decision_curve", "measure", "confusion_matrix"]
    assert plot.kinds()[:len(builtin)] == builtin  # declared in this order, first
    assert set(EXPECTED) | {"confusion_matrix"} <= set(plot.KINDS)
    assert all(callable(f) for f in plot.KINDS.values())
    with pytest.raises(TypeError):
        plot.KINDS["x"] = plot.roc  # type: ignore[index]


@pytest.mark.parametrize("kind", [k for k in plot.kinds() if plot.PLOT_KINDS[k].in_report
                                  or k in EXPECTED])
def test_every_kind_renders(kind: str, ev: bm.Evaluation, two: dict[str, bm.Evaluation]) -> None:
    (lines, colls), (more_lines, more_colls) = EXPECTED[kind]
    ax = ev.plot(kind)
    assert (len(ax.lines), len(ax.collections)) == (lines, colls)
    assert ax.get_legend() is not None and ax.get_title()
    ax.figure.canvas.draw()  # renders (warnings are errors in this file)
    ax = plot.draw(kind, two)
    assert (len(ax.lines), len(ax.collections)) == (lines + more_lines, colls + more_colls)
    labels = legend_texts(ax)
    assert any(t.startswith("A: ") for t in labels) and any(t.startswith("B: ") for t in labels)
    assert colours(ax, "A: ") and colours(ax, "A: ").isdisjoint(colours(ax, "B: "))
    ax.figure.canvas.draw()


@pytest.mark.parametrize("kind", plot.kinds())
def test_ax_is_honoured(kind: str, ev: bm.Evaluation) -> None:
    _, given = plt.subplots(1, 2)
    n_figs = len(plt.get_fignums())
    ax = plot.KINDS[kind](ev, ax=given[1])
    assert ax is given[1] and len(plt.get_fignums()) == n_figs
    assert not given[0].lines and not given[0].collections and not given[0].images


def test_kinds_that_apply() -> None:
    assert plot.kinds(bm.evaluate(Y, S)) == plot.kinds()
    assert "reliability" not in plot.kinds(bm.evaluate(Y, S * 4 - 2))  # margins
    one_class = bm.evaluate([1, 1, 1], [0.2, 0.5, 0.9])
    assert plot.kinds(one_class) == ["gain", "loss", "reliability", "measure",
                                     "confusion_matrix", "case_losses"]
    for kind in plot.kinds(one_class):
        plot.draw(kind, one_class)
        plt.close("all")



# --- one declaration per kind; a measure's chart ---------------------------------------------
def test_kinds_are_declared_once() -> None:
    """KINDS, CHART_DATA and kinds() are read from the one declaration of each kind."""
    assert list(plot.PLOT_KINDS) == list(plot.KINDS) == list(plot.CHART_DATA)
    for name, k in plot.PLOT_KINDS.items():
        assert isinstance(k, plot.PlotKind) and k.name == name and k.title and k.description
        assert plot.KINDS[name] is k.draw and plot.CHART_DATA[name] is k.data
        assert f"``{name}``" in (plot.__doc__ or "") and k.description in (plot.__doc__ or "")
    assert [n for n, k in plot.PLOT_KINDS.items() if not k.in_report] == [
        "measure", "confusion_matrix", "case_losses", "best_threshold"]
    with pytest.raises(TypeError):
        plot.PLOT_KINDS["x"] = plot.PLOT_KINDS["roc"]  # type: ignore[index]
    with pytest.raises(AttributeError):
        plot.PLOT_KINDS["roc"].needs_both_classes = False  # type: ignore[misc]
    margins = bm.evaluate(Y, S * 4 - 2)
    assert [n for n, k in plot.PLOT_KINDS.items() if k.applies_to(margins)] == \
        plot.kinds(margins)


def test_every_measure_plot_is_a_declared_kind() -> None:
    declared = {m.id: m.plot for m in bm.iter_measures() if m.plot is not None}
    assert declared and set(declared.values()) <= set(plot.KINDS)
    for m in bm.iter_measures():
        if m.family == "confusion":  # plot.measure draws the confusion measures only
            assert m.plot == "measure", m.id
        else:
            assert m.plot != "measure", m.id
    assert {mid: declared.get(mid) for mid in (
        "auc", "gini", "ks", "youden_j_max", "average_precision", "aucpr_min", "auprg",
        "average_gain", "average_lift", "brier", "log_loss", "hinge_loss")} == {
        "auc": "roc", "gini": "roc", "ks": "threshold", "youden_j_max": "threshold",
        "average_precision": "pr", "aucpr_min": "pr", "auprg": "prg",
        "average_gain": "gain", "average_lift": "lift", "brier": "reliability",
        "log_loss": "reliability", "hinge_loss": "loss"}


def chart(ax: Any) -> tuple[str, list[str]]:
    return ax.get_title(), [ln.get_label() for ln in ax.lines]


@pytest.mark.parametrize(("name", "kind"), [
    ("auc", "roc"), ("ROC AUC", "roc"), ("gini", "roc"), ("ks", "threshold"),
    ("average_precision", "pr"), ("ap", "pr"), ("auprg", "prg"), ("average_gain", "gain"),
    ("average_lift", "lift"), ("brier", "reliability"), ("hinge", "loss")])
def test_a_measure_draws_its_chart(name: str, kind: str, ev: bm.Evaluation) -> None:
    """ev.plot(measure) is the plot of the kind its registry entry names."""
    assert chart(ev.plot(name)) == chart(plot.KINDS[kind](ev))
    two = {"A": ev, "B": bm.evaluate(Y, S2)}
    assert chart(plot.draw(name, two)) == chart(plot.draw(kind, two))


def test_a_confusion_measure_draws_the_measure_chart(ev: bm.Evaluation) -> None:
    assert chart(ev.plot("f1")) == chart(plot.measure(ev, measure="f1"))
    assert ev.plot("sensitivity").get_title() == "tpr against the threshold"  # an alias
    ax = plot.draw("fbeta", ev, beta=2.0, mark_best=False)  # options pass through
    assert chart(ax) == chart(plot.measure(ev, measure="fbeta", beta=2.0, mark_best=False))
    _, given = plt.subplots()
    assert plot.draw("mcc", ev, ax=given) is given
    assert ev.plot("lift").get_title() == "Lift chart"  # a kind's name wins over a measure's


def test_a_measure_without_a_chart(ev: bm.Evaluation) -> None:
    assert bm.get_measure("information_score").plot is None
    with pytest.raises(ValueError, match=r"no plot kind draws the measure 'information_score'"
                       r".*; the kinds: roc, threshold"):
        ev.plot("information_score")
    with pytest.raises(TypeError, match="draws the measure f1"):
        ev.plot("f1", measure="mcc")
    with pytest.raises(ValueError, match=r"unknown plot kind 'aucc' \(did you mean 'auc'\?\); "
                       r"the kinds: roc, threshold"):
        plot.draw("aucc", ev)
    assert not plt.get_fignums()  # refused before drawing

# --- ROC --------------------------------------------------------------------------------
def test_roc_lines_are_the_curve_and_hull(two: dict[str, bm.Evaluation]) -> None:
    ax = plot.roc(two, operating_point=0.55)
    for name, e in two.items():
        (curve,) = by_label(ax, f"{name}: ROC")
        x, y = xy(curve)
        np.testing.assert_array_equal(x, e.roc().fpr)
        np.testing.assert_array_equal(y, e.roc().tpr)
        fpr, tpr, _ = roc_curve(Y, S if name == "A" else S2, drop_intermediate=False)
        np.testing.assert_allclose(x, fpr)
        np.testing.assert_allclose(y, tpr)
        (hull,) = by_label(ax, f"{name}: convex hull")
        hx, hy = xy(hull)
        assert hull.get_linestyle() == "--"
        assert trapezoid(hx, hy) == pytest.approx(e["auch"])
        (point,) = by_label(ax, f"{name}: threshold 0.55")
        c = e.at_threshold(0.55).confusion
        assert xy(point) == ([c.fp / 5], [c.tp / 5])
    (diag,) = by_label(ax, "random")
    assert xy(diag)[0].tolist() == [0, 1] and xy(diag)[1].tolist() == [0, 1]
    # Berrar: AUC 0.8 (Fig. 6a), AUCH 0.88 (Fig. 6c), hull through (0, .4) and (.6, 1)
    labels = legend_texts(ax)
    assert "A: ROC, AUC = 0.800" in labels and "A: convex hull, AUCH = 0.880" in labels
    (hull,) = by_label(ax, "A: convex hull")
    assert {(0.0, 0.4), (0.6, 1.0)} <= set(zip(*map(np.ndarray.tolist, xy(hull)), strict=True))
    assert len(by_label(plot.roc(two, hull=False), "hull")) == 0


def test_operating_point_true_uses_the_evaluations_threshold() -> None:
    e = bm.evaluate(Y, S, threshold=0.55)
    ax = plot.roc(e, operating_point=True)
    (point,) = by_label(ax, "threshold 0.55")
    assert xy(point) == ([0.2], [0.6])  # Berrar Fig. 6: (0.2, 0.6) at t5
    ax = plot.pr(e, operating_point=True)
    (point,) = by_label(ax, "threshold 0.55")
    assert xy(point) == ([0.6], [0.75])  # and (0.6, 0.75) in PR space
    assert not by_label(plot.pr(e, operating_point=2.0), "threshold")  # nothing positive


# --- TPR, FPR and the KS gap ---------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ks_segment(seed: int) -> None:
    y, s = random_case(seed)
    e = bm.evaluate(y, s)
    ax = plot.threshold(e)
    t_ks, ks = e.threshold_curves().ks()
    assert ks == pytest.approx(e["ks"])
    (seg,) = by_label(ax, "KS =")
    x, yy = xy(seg)
    assert x.tolist() == [t_ks, t_ks]
    assert yy[1] - yy[0] == pytest.approx(e["ks"])
    assert e["ks"] == pytest.approx(stats.ks_2samp(s[y == 1], s[y == 0]).statistic)
    # the segment joins the two step lines at the KS threshold
    (tpr,) = by_label(ax, "TPR")
    (fpr,) = by_label(ax, "FPR")
    k = int(np.flatnonzero(xy(tpr)[0] == t_ks)[0])
    assert sorted([xy(tpr)[1][k], xy(fpr)[1][k]]) == yy.tolist()
    np.testing.assert_array_equal(xy(tpr)[0][1:], e.threshold_curves().thresholds[1:])
    np.testing.assert_array_equal(xy(tpr)[1], e.threshold_curves().tpr)
    assert tpr.get_drawstyle() == "steps-post"
    assert xy(tpr)[0][0] > s.max()  # the "nothing positive" cut right of every score


def test_threshold_on_berrar(ev: bm.Evaluation) -> None:
    ax = plot.threshold(ev, operating_point=0.55)
    (seg,) = by_label(ax, "KS =")
    assert seg.get_label() == "KS = 0.600 at 0.5"  # t6: TPR 0.8, FPR 0.2
    assert xy(seg)[1].tolist() == pytest.approx([0.2, 0.8])
    assert any("KS 0.60" in t.get_text() for t in ax.texts)
    assert len(by_label(ax, "threshold 0.55")) == 1


# --- precision-recall -----------------------------------------------------------------------
@pytest.mark.parametrize("seed", [3, 4])
def test_pr_lines_integrate_to_the_areas(seed: int) -> None:
    y, s = random_case(seed)
    e = bm.evaluate(y, s)
    methods = ["step", "min", "max", "minmax", "linear", "davis_goadrich"]
    ax = plot.pr(e, interpolation=methods)
    assert len(ax.lines) == len(methods) + 1
    curve = e.pr()
    (step,) = by_label(ax, "AP (step)")
    x, p = xy(step)
    np.testing.assert_array_equal(x[1:], curve.recall)
    np.testing.assert_array_equal(p[1:], curve.precision)
    assert step.get_drawstyle() == "steps-pre"
    # steps-pre holds each precision back to the previous recall: sklearn's AP
    assert np.sum(np.diff(x) * p[1:]) == pytest.approx(average_precision_score(y, s))
    sk_p, sk_r, _ = precision_recall_curve(y, s, drop_intermediate=False)
    np.testing.assert_allclose(curve.precision, sk_p[:-1][::-1])
    np.testing.assert_allclose(curve.recall, sk_r[:-1][::-1])
    for method in ("min", "max", "minmax", "linear"):
        (line,) = by_label(ax, {"min": "AUCPR min =", "max": "AUCPR max =",
                                "minmax": "AUCPR minmax =", "linear": "linear ="}[method])
        assert trapezoid(*xy(line)) == pytest.approx(curve.area(method), abs=1e-12)
    (dg,) = by_label(ax, "Davis-Goadrich")
    assert trapezoid(*xy(dg)) == pytest.approx(curve.area("davis_goadrich"), abs=2e-3)
    (base,) = by_label(ax, "random")
    assert xy(base)[1].tolist() == [y.mean(), y.mean()]


def test_pr_on_berrar(ev: bm.Evaluation) -> None:
    ax = plot.pr(ev)
    labels = legend_texts(ax)
    assert labels[:4] == ["AP (step) = 0.835", "AUCPR min = 0.648", "AUCPR max = 0.772",
                          "AUCPR minmax = 0.716"]
    (low,) = by_label(ax, "AUCPR min =")
    assert trapezoid(*xy(low)) == pytest.approx(0.6476, abs=1e-4)  # Berrar Fig. 6d
    assert xy(low)[0][0] == 0 and xy(low)[1][0] == 0  # precision 0 at recall 0
    ax = plot.pr(ev, interpolation="step")
    assert len(ax.lines) == 2
    with pytest.raises(ValueError, match="interpolation must name"):
        plot.pr(ev, interpolation=["step", "spline"])
    with pytest.raises(ValueError, match="interpolation must name"):
        plot.pr(ev, interpolation=[])


def test_pr_baseline_per_prevalence() -> None:
    y, s = random_case(5)
    ax = plot.pr({"a": bm.evaluate(Y, S), "b": bm.evaluate(y, s)}, interpolation="step")
    assert len(by_label(ax, "random")) == 2


# --- PR-gain --------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [6, 7])
def test_prg_line_integrates_to_auprg(seed: int) -> None:
    y, s = random_case(seed)
    e = bm.evaluate(y, s)
    ax = plot.prg(e)
    (curve,) = by_label(ax, "AUPRG")
    x, g = xy(curve)
    assert x[0] == 0 and np.all(np.diff(x) >= 0)
    assert trapezoid(x, g) == pytest.approx(e["auprg"], abs=1e-12)


def test_prg_worked_example() -> None:
    # a cut inside the scores (the default 0.5 would warn; PRG reads the order only)
    e = bm.evaluate([1, 0, 1, 1, 0, 0, 1, 0], [8, 7, 6, 5, 4, 3, 2, 1], threshold=4.5)
    ax = plot.prg(e)
    (curve,) = by_label(ax, "AUPRG")
    assert curve.get_label() == "PRG, AUPRG = 0.431"  # docs/methods.md §4: 0.4305555556
    # docs/methods.md §4: RG 0, .6667 (x3), 1, 1 with PG .5, .6667, .3333, 0, .25, 0
    np.testing.assert_allclose(xy(curve)[0], [0, 2 / 3, 2 / 3, 2 / 3, 1, 1])
    np.testing.assert_allclose(xy(curve)[1], [.5, 2 / 3, 1 / 3, 0, .25, 0])


# --- gain and lift --------------------------------------------------------------------------
def test_gain_and_lift_on_berrar(ev: bm.Evaluation) -> None:
    ax = plot.gain(ev, operating_point=0.55)
    (curve,) = by_label(ax, "average gain = 0.750")  # Berrar's 0.75
    np.testing.assert_array_equal(xy(curve)[0], np.arange(11))
    np.testing.assert_array_equal(xy(curve)[1], [0, 1, 2, 2, 3, 4, 4, 4, 5, 5, 5])
    (base,) = by_label(ax, "random")
    assert xy(base)[0].tolist() == [0, 10] and xy(base)[1].tolist() == [0, 5]
    assert xy(by_label(ax, "threshold")[0]) == ([4.0], [3.0])  # 4 selected, 3 found

    ax = plot.lift(ev)
    (curve,) = by_label(ax, "average lift = 1.427")  # Berrar's 1.427
    np.testing.assert_allclose(xy(curve)[1], [2, 2, 4 / 3, 1.5, 1.6, 4 / 3, 8 / 7, 1.25,
                                              10 / 9, 1])
    (base,) = by_label(ax, "random")
    assert set(xy(base)[1]) == {1.0}


@pytest.mark.parametrize("seed", [8, 9])
def test_gain_lift_random(seed: int) -> None:
    y, s = random_case(seed, n=200)
    e = bm.evaluate(y, s)
    ax = plot.gain(e, normalize=True)
    x, g = xy(by_label(ax, "gain")[0])
    order = np.argsort(-s, kind="stable")
    found = np.cumsum(y[order]) / y.sum()
    # at each distinct score's cut, the fraction found equals the row-wise cumulative sum
    ends = np.flatnonzero(np.r_[np.diff(s[order]) != 0, True])
    np.testing.assert_allclose(g[1:], found[ends])
    np.testing.assert_allclose(x[1:], (ends + 1) / y.size)
    ax = plot.lift(e)
    x, lifts = xy(by_label(ax, "lift")[0])
    np.testing.assert_allclose(lifts, np.cumsum(y[order])[ends] / (ends + 1) / y.mean())


# --- losses ---------------------------------------------------------------------------------
def collections(ax: Any, text: str) -> list[PathCollection]:
    return [c for c in ax.collections if text in c.get_label()]


def test_loss_berrar_fig7(ev: bm.Evaluation) -> None:
    ax = plot.loss(ev)
    hinge, zero_one = ax.lines
    # fixed colours outside the model cycle: a model's markers never share them
    assert hinge.get_color() == zero_one.get_color() == "black"
    assert hinge.get_linestyle() == "-" and zero_one.get_linestyle() == "--"
    assert hinge.get_label() == "hinge loss max(0, 1 - y s)"
    hx, hy = xy(hinge)
    assert np.allclose(hy, np.maximum(0, 1 - hx))
    zx, zy = xy(zero_one)
    assert zx.tolist()[1:3] == [0, 0] and zy.tolist() == [1, 1, 0, 0]
    (cases,) = collections(ax, "mean hinge = 0.870")
    pts = cases.get_offsets()
    margins = np.where(Y == 1, S, -S)
    np.testing.assert_allclose(np.sort(pts[:, 0]), np.sort(margins))
    np.testing.assert_allclose(pts[:, 1], np.maximum(0, 1 - pts[:, 0]))
    assert pts[:, 1].mean() == pytest.approx(ev["hinge_loss"])


@pytest.mark.parametrize("seed", [10, 11])
def test_loss_means_are_the_measures(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 150)
    s = np.round(rng.normal(y - 0.5, 1.0), 1)  # signed distances, with ties
    w = rng.uniform(0.2, 3.0, y.size)
    e = bm.evaluate(y, s, sample_weight=w)
    ax = plot.loss(e, max_points=None)
    (h,) = collections(ax, "mean hinge")
    mean_h = float(h.get_label().rsplit("= ", 1)[1])
    direct = np.sum(w * np.maximum(0, 1 - np.where(y == 1, 1, -1) * s)) / w.sum()
    assert mean_h == pytest.approx(direct, abs=5e-4) and e["hinge_loss"] == pytest.approx(direct)
    for center in (0.0, 0.3):
        ax = plot.loss(e, center=center)
        (z,) = collections(ax, "mean 0-1")
        mean_01 = float(z.get_label().rsplit("= ", 1)[1])
        wrong = (s >= center) != (y == 1)
        assert mean_01 == pytest.approx(np.sum(w * wrong) / w.sum(), abs=5e-4)
        assert mean_01 == pytest.approx(e.at_threshold(center)["error_rate"], abs=5e-4)
        plt.close("all")
    # thinning keeps at most max_points markers per loss, the extremes included
    ax = plot.loss(e, max_points=10)
    for c in ax.collections:
        off = c.get_offsets()
        assert len(off) == 10
        assert off[:, 0].min() == pytest.approx(-np.max(np.where(y == 1, -s, s)))
    with pytest.raises(ValueError, match="center must be finite"):
        plot.loss(e, center=np.inf)
    with pytest.raises(ValueError, match="max_points"):
        plot.loss(e, max_points=0)


def test_loss_center_labels_and_colours(two: dict[str, bm.Evaluation]) -> None:
    rng = np.random.default_rng(12)
    y = rng.integers(0, 2, 120)
    s = np.round(rng.normal(y, 0.8), 2)
    w = rng.uniform(0.5, 2.0, y.size)
    e = bm.evaluate(y, s, sample_weight=w, threshold=0.4)
    signed = np.where(y == 1, 1, -1)
    for center, where in ((0.3, "s - 0.3"), ("threshold", "s - threshold")):
        c = 0.4 if center == "threshold" else center
        ax = plot.loss(e, center=center, max_points=None)
        assert ax.lines[0].get_label() == f"hinge loss max(0, 1 - y ({where}))"
        assert ax.get_xlabel() == f"margin y ({where})"
        (h,) = collections(ax, "mean hinge")
        (z,) = collections(ax, "mean 0-1")
        hinge = np.maximum(0, 1 - signed * (s - c))
        assert float(h.get_label().rsplit("= ", 1)[1]) == pytest.approx(
            np.sum(w * hinge) / w.sum(), abs=5e-4)  # numpy, not the registry
        wrong = (s >= c) != (y == 1)
        assert float(z.get_label().rsplit("= ", 1)[1]) == pytest.approx(
            np.sum(w * wrong) / w.sum(), abs=5e-4)
        mh, m01 = plot.mean_losses(e, c)
        assert mh == pytest.approx(np.sum(w * hinge) / w.sum(), rel=1e-12)
        assert m01 == pytest.approx(np.sum(w * wrong) / w.sum(), rel=1e-12)
        plt.close("all")
    # several models: the loss lines keep colours no model has
    ax = plot.loss(two)
    lines = {to_rgba(ln.get_color()) for ln in ax.lines}
    assert lines == {to_rgba("black")}
    assert lines.isdisjoint(colours(ax, "A: ") | colours(ax, "B: "))
    with pytest.raises(ValueError, match="center must be a number or 'threshold'"):
        plot.loss(e, center="middle")  # type: ignore[arg-type]


# --- reliability ----------------------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("seed", [12, 13, 14])
def test_reliability_equals_sklearn(strategy: str, seed: int) -> None:
    y, s = random_case(seed, n=400, ties=seed != 14)
    n_bins = 5 + seed % 4
    ax = plot.reliability(bm.evaluate(y, s), n_bins=n_bins, strategy=strategy)
    (line,) = by_label(ax, "bins")
    prob_true, prob_pred = calibration_curve(y, s, n_bins=n_bins, strategy=strategy)
    np.testing.assert_allclose(xy(line)[0], prob_pred, rtol=1e-12)
    np.testing.assert_allclose(xy(line)[1], prob_true, rtol=1e-12)
    assert len(ax.texts) == prob_true.size  # one count per bin


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_reliability_integer_weights_equal_repeated_rows(strategy: str) -> None:
    rng = np.random.default_rng(15)
    y, s = random_case(15, n=120)
    w = rng.integers(1, 5, y.size)
    tab = plot.reliability_table(bm.evaluate(y, s, sample_weight=w.astype(float)),
                                 n_bins=7, strategy=strategy)  # type: ignore[arg-type]
    prob_true, prob_pred = calibration_curve(np.repeat(y, w), np.repeat(s, w), n_bins=7,
                                             strategy=strategy)
    np.testing.assert_allclose(tab.mean_predicted, prob_pred, rtol=1e-12)
    np.testing.assert_allclose(tab.fraction_positive, prob_true, rtol=1e-12)
    assert tab.weight.sum() == w.sum()


def test_reliability_fractional_weights() -> None:
    rng = np.random.default_rng(16)
    y, s = random_case(16, n=200)
    w = rng.uniform(0.1, 2.0, y.size)
    e = bm.evaluate(y, s, sample_weight=w)
    ax = plot.reliability(e, n_bins=4)
    (line,) = by_label(ax, "bins")
    ids = np.clip(np.ceil(s * 4).astype(int) - 1, 0, 3)  # (k/4, (k+1)/4], 0 in the first
    pred = np.bincount(ids, weights=w * s) / np.bincount(ids, weights=w)
    obs = np.bincount(ids, weights=w * y) / np.bincount(ids, weights=w)
    np.testing.assert_allclose(xy(line)[0], pred, rtol=1e-12)
    np.testing.assert_allclose(xy(line)[1], obs, rtol=1e-12)
    tab = plot.reliability_table(e, n_bins=4)
    np.testing.assert_allclose(tab.weight, np.bincount(ids, weights=w))
    assert tab.low.tolist() == [0, .25, .5, .75] and tab.high.tolist() == [.25, .5, .75, 1]


def test_reliability_bad_input(ev: bm.Evaluation) -> None:
    margins = bm.evaluate(Y, S * 4 - 2)
    with pytest.raises(ValueError, match=r"needs probabilities in \[0, 1\].*\[-1\.6, 1\.8\]"):
        plot.reliability(margins)
    with pytest.raises(ValueError, match="model 'B'"):
        plot.reliability({"A": ev, "B": margins})
    with pytest.raises(ValueError, match="strategy must be"):
        plot.reliability(ev, strategy="kmeans")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n_bins must be at least 1"):
        plot.reliability(ev, n_bins=0)
    with pytest.raises(TypeError, match="n_bins must be an integer"):
        plot.reliability(ev, n_bins=2.5)  # type: ignore[arg-type]
    assert not plt.get_fignums()  # no figure left behind by a refused input
    assert not plot.reliability(ev, counts=False).texts


# --- any confusion measure ------------------------------------------------------------------
@pytest.mark.parametrize("seed", [17, 18])
def test_measure_curve_equals_sklearn(seed: int) -> None:
    y, s = random_case(seed, n=120)
    e = bm.evaluate(y, s)
    ax = plot.measure(e, measure=["f1", "mcc"])
    (f1,) = [ln for ln in ax.lines if ln.get_label() == "f1"]
    x, v = xy(f1)
    for k in range(1, x.size, 7):  # x[k] is a threshold: score >= x[k] is positive
        assert v[k] == pytest.approx(f1_score(y, s >= x[k]))
    (best,) = by_label(ax, "best f1")
    bt = e.best_threshold("f1")
    assert xy(best) == ([bt.threshold], [bt.value])
    assert len(ax.lines) == 4


def test_measure_parameters_and_names(ev: bm.Evaluation) -> None:
    ax = plot.measure(ev, measure="fbeta", beta=2, mark_best=False)
    (line,) = ax.lines
    np.testing.assert_allclose(xy(line)[1], ev.threshold_curves().measure("fbeta", beta=2))
    ax = plot.measure(ev, measure="sensitivity")  # an alias
    assert ax.lines[0].get_label() == "tpr"
    ax = plot.measure(ev, measure="prevalence")  # no direction: no best point
    assert len(ax.lines) == 1
    with pytest.raises(TypeError, match="takes beta"):
        plot.measure(ev, measure="f1", beta=2)


def test_measure_errors(ev: bm.Evaluation) -> None:
    with pytest.raises(ValueError, match=r"auc is a ranking measure.*'confusion' family"):
        plot.measure(ev, measure="auc")
    with pytest.raises(ValueError, match=r"brier is a probabilistic measure.*'confusion'"):
        ev.plot("measure", measure="brier")
    with pytest.raises(ValueError, match=r"unknown measure 'fone'.*'confusion'"):
        plot.measure(ev, measure=["f1", "fone"])
    with pytest.raises(ValueError, match="at least one measure"):
        plot.measure(ev, measure=[])
    assert not plt.get_fignums()


# --- confusion matrix -----------------------------------------------------------------------
def cell_texts(ax: Any) -> list[str]:
    return [t.get_text() for t in ax.texts]


def test_confusion_matrix_binary() -> None:
    e = bm.evaluate(Y, S, threshold=0.55)
    ax = plot.confusion_matrix(e)
    assert cell_texts(ax) == ["3\n60.0%", "2\n40.0%", "1\n20.0%", "4\n80.0%"]  # Fig. 3b
    (img,) = ax.images
    np.testing.assert_allclose(img.get_array(), [[.6, .4], [.2, .8]])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["positive", "negative"]
    ax = plot.confusion_matrix({"model": e}, threshold=0.35)
    c = sk_confusion_matrix(Y, S >= 0.35, labels=[1, 0])
    assert [int(t.split("\n")[0]) for t in cell_texts(ax)] == c.ravel().tolist()
    assert ax.get_title().startswith("model: ")
    rng = np.random.default_rng(19)
    w = rng.uniform(0.5, 2.0, Y.size)
    ax = plot.confusion_matrix(bm.evaluate(Y, S, sample_weight=w))
    tp = w[(Y == 1) & (S >= 0.5)].sum()
    assert cell_texts(ax)[0].split("\n")[0] == f"{tp:.4g}"


def test_confusion_matrix_multiclass() -> None:
    rng = np.random.default_rng(20)
    y = rng.choice(["a", "b", "c", "d"], 80)
    proba = rng.dirichlet(np.ones(4), 80)
    mev = bm.evaluate(y, proba)
    ax = plot.confusion_matrix(mev)
    want = sk_confusion_matrix(y, np.array(["a", "b", "c", "d"])[proba.argmax(1)],
                               labels=["a", "b", "c", "d"])
    assert len(ax.texts) == 16
    got = np.array([int(t.split("\n")[0]) for t in cell_texts(ax)]).reshape(4, 4)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(ax.images[0].get_array(), want / want.sum(1, keepdims=True))
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c", "d"]
    with pytest.raises(ValueError, match="threshold does not apply"):
        plot.confusion_matrix(mev, threshold=0.5)
    assert plot.kinds(mev) == ["confusion_matrix"]


def test_confusion_matrix_refuses_several_models(two: dict[str, bm.Evaluation]) -> None:
    with pytest.raises(ValueError, match="draws one model; got 2"):
        plot.confusion_matrix(two)


# --- the numbers for other renderers ---------------------------------------------------------
def test_step_vertices_match_matplotlib() -> None:
    from matplotlib.cbook import STEP_LOOKUP_MAP

    rng = np.random.default_rng(30)
    for n in (1, 2, 7, 50):
        x, y = np.sort(rng.random(n)), rng.random(n)
        for where in ("pre", "post"):
            ref = STEP_LOOKUP_MAP[f"steps-{where}"](x, y)
            vx, vy = plot.step_vertices(x, y, where)  # type: ignore[arg-type]
            np.testing.assert_array_equal(vx, ref[0])
            np.testing.assert_array_equal(vy, ref[1])
    with pytest.raises(ValueError, match="where must be"):
        plot.step_vertices([0, 1], [0, 1], "mid")  # type: ignore[arg-type]


def drawn(line: Any) -> tuple[np.ndarray, np.ndarray]:
    """The vertices matplotlib joins for a Line2D, its drawstyle applied."""
    from matplotlib.cbook import STEP_LOOKUP_MAP

    x, y = xy(line)
    style = line.get_drawstyle()
    return (x, y) if style == "default" else tuple(STEP_LOOKUP_MAP[style](x, y))


@pytest.mark.parametrize("seed", [31, 32])
def test_chart_data_is_what_the_plots_draw(seed: int) -> None:
    """chart_data's lines are the lines of the plot functions, steps expanded as
    matplotlib draws them."""
    y, s = random_case(seed, n=200)
    e = bm.evaluate(y, s)
    cases: list[tuple[str, Any, dict[str, Any], list[tuple[str, str]]]] = [
        ("roc", plot.roc, {}, [("ROC", "ROC"), ("convex hull", "convex hull")]),
        ("threshold", plot.threshold, {}, [("TPR", "TPR"), ("FPR", "FPR"), ("KS", "KS")]),
        ("pr", plot.pr, {"interpolation": "step"}, [("AP", "AP")]),
        ("prg", plot.prg, {}, [("PRG", "PRG")]),
        ("gain", plot.gain, {"normalize": True}, [("gain", "gain")]),
        ("lift", plot.lift, {}, [("lift", "lift")]),
        ("reliability", plot.reliability, {}, [("bins", "bins")]),
    ]
    for kind, func, opts, pairs in cases:
        cd = plot.chart_data(kind, e, **({k: v for k, v in opts.items() if k == "normalize"}))
        ax = func(e, **opts)
        assert cd.title and cd.xlabel == ax.get_xlabel(), kind
        for data_label, line_label in pairs:
            (ser,) = [x for x in cd.series if data_label in x.label
                      and x.style != "points" and not x.shared]
            (ln,) = [x for x in ax.lines if line_label in x.get_label()
                     and not x.get_label().startswith("random")]
            assert ser.label == ln.get_label(), kind
            dx, dy = drawn(ln)
            np.testing.assert_allclose(ser.x, dx, err_msg=kind)
            np.testing.assert_allclose(ser.y, dy, err_msg=kind)
        plt.close("all")
    cd = plot.chart_data("loss", e, max_points=None)
    ax = plot.loss(e, max_points=None)
    for ser, coll in zip([x for x in cd.series if x.style == "points"], ax.collections,
                         strict=True):
        np.testing.assert_allclose(np.column_stack((ser.x, ser.y)), coll.get_offsets())
        assert ser.label == coll.get_label()


def test_chart_data_threshold_steps_on_berrar(ev: bm.Evaluation) -> None:
    """Berrar Fig. 5b: TPR is 0.6 for every threshold in (0.5, 0.6] (scores >= t), and
    the step data says so: no diagonal between the scores."""
    (tpr,) = [s for s in plot.chart_data("threshold", ev).series if s.label == "TPR"]
    for t in (0.55, 0.51, 0.59):
        at = ev.at_threshold(t)["tpr"]
        # the horizontal piece over t
        k = [i for i in range(tpr.x.size - 1) if tpr.x[i + 1] <= t <= tpr.x[i]
             and tpr.y[i] == tpr.y[i + 1]]
        assert {float(tpr.y[i]) for i in k} == {at} == {0.6}


def test_chart_data_leaves_out_with_notes() -> None:
    good = bm.evaluate(Y, S)
    margins = bm.evaluate(Y, S * 4 - 2)
    one = bm.evaluate([1, 1, 1], [0.2, 0.5, 0.9])
    cd = plot.chart_data("reliability", {"p": good, "m": margins})
    assert {s.model for s in cd.series if not s.shared} == {"p"}
    assert cd.notes == ("reliability chart: model 'm' is left out: its scores range over "
                        "[-1.6, 1.8], not probabilities in [0, 1]",)
    cd = plot.chart_data("roc", {"p": good, "one": one})
    assert cd.notes == ("roc chart: model 'one' is left out: it has no negatives",)
    empty = plot.chart_data("roc", one)
    assert empty.series == () and empty.notes
    assert list(plot.CHART_DATA) == list(plot.KINDS)
    with pytest.raises(ValueError, match="no chart data for kind 'histogram'"):
        plot.chart_data("histogram", good)


def test_lift_from_zero_and_weighted_axis_labels() -> None:
    rng = np.random.default_rng(33)
    y = rng.integers(0, 2, 300)
    s = rng.normal(y * 2.0, 0.5)  # a good model: lift far above 0 everywhere
    ax = plot.lift(bm.evaluate(y, s))
    assert ax.get_ylim()[0] == 0.0
    assert ax.get_xlabel() == "cases selected (top-ranked)"
    w = rng.uniform(0.5, 2, y.size)
    weighted = bm.evaluate(y, s, sample_weight=w)
    ax = plot.gain(weighted)
    assert ax.get_xlabel() == "weight of the cases selected (top-ranked)"
    assert ax.get_ylabel() == "weight of the positives found"
    assert plot.lift(weighted, normalize=True).get_xlabel() == "fraction of the weight selected"


# --- bad input ------------------------------------------------------------------------------
def test_unknown_kind(ev: bm.Evaluation) -> None:
    with pytest.raises(ValueError, match=r"unknown plot kind 'zzz'; the kinds: roc, threshold"):
        ev.plot("zzz")
    with pytest.raises(ValueError, match=r"did you mean 'roc'\?"):
        plot.draw("rco", ev)
    assert not plt.get_fignums()  # refused before drawing
    assert ev.plot("Confusion Matrix").images  # case and spaces are forgiven
    assert len(plt.get_fignums()) == 1


def test_bad_models(ev: bm.Evaluation) -> None:
    with pytest.raises(TypeError, match=r"takes an Evaluation or a mapping.*got list"):
        plot.roc([ev])
    with pytest.raises(TypeError, match="model 'B' is a ndarray"):
        plot.roc({"A": ev, "B": np.zeros(3)})
    with pytest.raises(ValueError, match="mapping of models is empty"):
        plot.gain({})
    mev = bm.evaluate([0, 1, 2], [[.6, .3, .1], [.2, .7, .1], [.2, .2, .6]])
    with pytest.raises(TypeError, match=r"bm.Evaluation\(mev.table\(cls\)\)"):
        plot.roc(mev)
    ax = plot.roc(bm.Evaluation(mev.table(1)))  # one class against the rest
    assert len(ax.lines) == 3
    one_class = bm.evaluate([0, 0, 0], [0.1, 0.4, 0.3], threshold=0.3)
    with pytest.raises(ValueError, match="has no positives; the curve needs both classes"):
        plot.pr(one_class)
    with pytest.raises(ValueError, match="model 'x' has no positives"):
        plot.roc({"ok": ev, "x": one_class})
    with pytest.raises(TypeError, match="threshold must be a number"):
        plot.roc(ev, operating_point="high")  # type: ignore[arg-type]


def test_wrappers_delegate() -> None:
    table = pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6], "b": [2.0, 1, 4, 3, 6, 5],
                          "c": [6.0, 5, 4, 3, 2, 1]})
    res = bm.srd(table, "a")
    _, given = plt.subplots()
    assert plot.srd(res, ax=given, annotate=False) is given
    assert len(given.lines) == len(res.normalized)  # one SRD line per column
    cov = bm.covat(table)
    _, given = plt.subplots()
    assert plot.covat(cov, ax=given, colorbar=False) is given and len(given.images) == 1
    rng = np.random.default_rng(21)
    df = pd.DataFrame({"m": np.repeat(["x", "y", "z"], 6), "srd": rng.normal(30, 5, 18)})
    an = bm.anova(df, ["m"], response="srd")
    _, given = plt.subplots()
    assert plot.anova_means(an, "m", ax=given) is given and len(given.containers) == 1
    for func in (plot.srd, plot.covat):
        with pytest.raises(TypeError, match="takes a"):
            func(an)
    with pytest.raises(TypeError, match="takes an AnovaResult"):
        plot.anova_means(res, "m")


def test_missing_matplotlib(monkeypatch: pytest.MonkeyPatch, ev: bm.Evaluation) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"plot.roc needs matplotlib.*binmetrics\[plot\]"):
        ev.plot("roc")
