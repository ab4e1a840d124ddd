"""The curves over every cut of the scores, on matplotlib Axes: ROC (with its convex
hull), TPR and FPR against the threshold, precision-recall, precision-recall-gain,
gain and lift (Berrar Figs. 4, 5 and 6).

Part of :mod:`binmetrics.plot` (``bm.plot.roc`` ...), which declares the plot kinds;
the numbers each chart draws are in :mod:`binmetrics.display.chart_data`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.backends import axes
from binmetrics.display._plotting import (
    color,
    fmt,
    label,
    markers,
    models_of,
    need_both,
    operating_threshold,
    rule_label,
    table_cut,
    unit_square,
)
from binmetrics.display.chart_data import PR_NAMES, case_axes, pr_line, threshold_axis

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["gain", "lift", "pr", "prg", "roc", "threshold"]

#: PR curves drawn by default (``interpolation=``), and the line style of each
_PR_STYLES = {"step": "-", "min": ":", "max": "--", "minmax": "-.", "linear": (0, (5, 1)),
              "davis_goadrich": (0, (3, 1, 1, 1, 1, 1))}


# --- ROC ----------------------------------------------------------------------------------
def roc(ev_or_models: Any, *, ax: Any = None, hull: bool = True,
        operating_point: float | bool | None = None) -> Axes:
    """ROC curve with its convex hull and the random line (Berrar Fig. 5a; Defs. 27, 29).

    Per model: the ROC curve (solid, AUC in the legend) and, with ``hull=True``, the
    ROC convex hull (dashed, AUCH, Berrar Fig. 6c); once: the diagonal of random
    guessing.

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
        The model, or several models overlaid.
    ax : matplotlib Axes, optional
        Where to draw; default a new figure.
    hull : bool, default True
        Draw the convex hull.
    operating_point : float or True, optional
        Mark the point ``score >= threshold`` (True: each evaluation's own
        threshold), as the white circle of Berrar Fig. 5a.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ax = bm.plot.roc(ev, operating_point=0.55)  # doctest: +SKIP
    """
    models = models_of(ev_or_models, "plot.roc")
    for name, ev in models:
        need_both(name, ev, "plot.roc")
    ax = axes(ax, "plot.roc")
    for i, (name, ev) in enumerate(models):
        c = ev.roc()
        ax.plot(c.fpr, c.tpr, color=color(i), marker=markers(ev.table), markersize=4,
                label=label(name, f"ROC, AUC = {fmt(c.area())}"))
        if hull:
            h = c.hull()
            ax.plot(h.fpr, h.tpr, color=color(i), linestyle="--", linewidth=1.0,
                    label=label(name, f"convex hull, AUCH = {fmt(h.area())}"))
        th = operating_threshold(ev, operating_point)
        if th is not None:
            cm = ev.table.confusion(table_cut(ev, th))
            ax.plot([cm.fp / ev.table.N], [cm.tp / ev.table.P], linestyle="none", marker="o",
                    markersize=8, markerfacecolor="white", markeredgecolor=color(i),
                    label=label(name, f"threshold {th:g}"))
    ax.plot([0.0, 1.0], [0.0, 1.0], color="red", linewidth=1.0, label="random")
    unit_square(ax)
    ax.set_xlabel("false positive rate (1 - specificity)")
    ax.set_ylabel("true positive rate (sensitivity)")
    ax.set_title("ROC curve")
    ax.legend(loc="lower right", fontsize="small")
    return ax


# --- TPR and FPR against the threshold ------------------------------------------------------
def threshold(ev_or_models: Any, *, ax: Any = None,
              operating_point: float | bool | None = None) -> Axes:
    """TPR and FPR against the threshold, with the Kolmogorov-Smirnov gap (Berrar Fig. 5b).

    Both rates are step functions of the threshold (``score >= threshold`` is
    positive): drawn as steps through the distinct scores, with the cut that
    predicts nothing positive (threshold +inf) just right of the highest score.
    The KS statistic (Berrar Def. 30) is marked by a vertical segment from FPR to
    TPR at the threshold where they are furthest apart
    (:meth:`ThresholdCurves.ks`), labelled with its value.

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
    ax : matplotlib Axes, optional
    operating_point : float or True, optional
        Draw a vertical line at this threshold (True: the evaluation's own).

    Returns
    -------
    matplotlib.axes.Axes
        Per model the TPR line (solid), the FPR line (dashed) and the KS segment.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ev.threshold_curves().ks()  # the segment: at 0.5, length 0.6
    (0.5, 0.6000000000000001)
    >>> ax = bm.plot.threshold(ev)  # doctest: +SKIP
    """
    models = models_of(ev_or_models, "plot.threshold")
    for name, ev in models:
        need_both(name, ev, "plot.threshold")
    ax = axes(ax, "plot.threshold")
    for i, (name, ev) in enumerate(models):
        c = ev.threshold_curves()
        x = threshold_axis(c.thresholds)
        col = color(i)
        ax.plot(x, c.tpr, drawstyle="steps-post", color=col, label=label(name, "TPR"))
        ax.plot(x, c.fpr, drawstyle="steps-post", color=col, linestyle="--",
                label=label(name, "FPR"))
        t_ks, ks = c.ks()
        if np.isfinite(t_ks):
            k = int(np.nanargmax(np.abs(c.tpr - c.fpr)))  # where ks() found the gap
            lo, hi = sorted((float(c.fpr[k]), float(c.tpr[k])))
            ax.plot([t_ks, t_ks], [lo, hi], color=col, linewidth=2.5, alpha=0.6,
                    solid_capstyle="butt", label=label(name, f"KS = {ks:.3f} at {t_ks:g}"))
            ax.annotate(f" KS {ks:.2f}", (t_ks, (lo + hi) / 2), color=col,
                        fontsize="small", va="center")
        th = operating_threshold(ev, operating_point)
        if th is not None:
            ax.axvline(th, color=col, linestyle=":", linewidth=1.0,
                       label=label(name, f"threshold {th:g}"))
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(rule_label(models))
    ax.set_ylabel("rate")
    ax.set_title("TPR and FPR against the threshold")
    ax.legend(loc="upper right", fontsize="small")
    return ax


# --- precision-recall ---------------------------------------------------------------------
def _as_methods(interpolation: str | Iterable[str]) -> list[str]:
    chosen = [interpolation] if isinstance(interpolation, str) else list(interpolation)
    bad = [m for m in chosen if m not in _PR_STYLES]
    if bad or not chosen:
        raise ValueError(f"interpolation must name one or more of {list(_PR_STYLES)}; "
                         f"got {interpolation!r}")
    return list(dict.fromkeys(chosen))


def pr(ev_or_models: Any, *, ax: Any = None,
       interpolation: str | Sequence[str] = ("step", "min", "max", "minmax"),
       operating_point: float | bool | None = None) -> Axes:
    """Precision-recall curve with the AP step and Berrar's trapezoidal estimators
    (Berrar Fig. 5c, 6d; Defs. 32, 33).

    Each estimator of the area is drawn as the curve it integrates, its area in the
    legend (:meth:`PRCurve.area`): ``"step"`` average precision (eq. 38, each
    precision held back to the previous recall, = scikit-learn); ``"min"``,
    ``"max"`` the trapezoids through the lowest / highest precision at each recall,
    from precision 0 at recall 0 (eqs. 39, 41); ``"minmax"`` from the lowest at one
    recall to the highest at the next (eq. 40, drawn with vertical drops);
    ``"linear"`` straight lines; ``"davis_goadrich"`` the interpolation in count
    space (Davis & Goadrich 2006). The random baseline is the horizontal line at
    the prevalence (the AP of a random model, Berrar Def. 32).

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
    ax : matplotlib Axes, optional
    interpolation : str or sequence of str, default ("step", "min", "max", "minmax")
        Which curves to draw (one line style each; colours tell models apart).
    operating_point : float or True, optional
        Mark (recall, precision) at this threshold (True: the evaluation's own),
        as the white circle of Berrar Fig. 5c; none when nothing is predicted positive.

    Returns
    -------
    matplotlib.axes.Axes
        Per model one line per interpolation; one baseline per distinct prevalence.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> round(ev.pr().area("min"), 4)  # Berrar Fig. 6d
    0.6476
    >>> ax = bm.plot.pr(ev, interpolation=["step", "min"])  # doctest: +SKIP
    """
    models = models_of(ev_or_models, "plot.pr")
    methods = _as_methods(interpolation)
    for name, ev in models:
        need_both(name, ev, "plot.pr")
    ax = axes(ax, "plot.pr")
    prevalences: list[float] = []
    for i, (name, ev) in enumerate(models):
        curve = ev.pr()
        for method in methods:
            x, y = pr_line(ev, method)
            kw: dict[str, Any] = {}
            if method == "step":
                kw = {"drawstyle": "steps-pre", "marker": markers(ev.table), "markersize": 4,
                      "markevery": slice(1, None)}
            ax.plot(x, y, color=color(i), linestyle=_PR_STYLES[method],
                    linewidth=1.8 if method == "step" else 1.0,
                    label=label(name, f"{PR_NAMES[method]} = {fmt(curve.area(method))}"),
                    **kw)
        th = operating_threshold(ev, operating_point)
        if th is not None:
            cm = ev.table.confusion(table_cut(ev, th))
            if cm.tp + cm.fp > 0:
                ax.plot([cm.tp / ev.table.P], [cm.tp / (cm.tp + cm.fp)], linestyle="none",
                        marker="o", markersize=8, markerfacecolor="white",
                        markeredgecolor=color(i), label=label(name, f"threshold {th:g}"))
        prev = float(ev.table.prevalence)
        if not any(np.isclose(prev, p) for p in prevalences):
            prevalences.append(prev)
            ax.axhline(prev, color="red", linewidth=1.0,
                       label=f"random (prevalence {prev:.3g})")
    unit_square(ax)
    ax.set_xlabel("recall (sensitivity)")
    ax.set_ylabel("precision")
    ax.set_title("Precision-recall curve")
    ax.legend(loc="lower left", fontsize="small")
    return ax


# --- precision-recall-gain ------------------------------------------------------------------
def prg(ev_or_models: Any, *, ax: Any = None) -> Axes:
    """Precision-recall-gain curve (Flach & Kull 2015; docs/methods.md §4).

    The part of the curve with recall gain >= 0 (from the inserted y-axis
    crossing on), whose trapezoid area is AUPRG (in the legend); dots at the
    points that are not inserted crossings. As prg.py's ``plot_prg`` the view is
    the unit square; a random classifier has precision gain 0 (the red line).

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Per model the curve and a line of dots; one baseline.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 0, 1, 1, 0, 0, 1, 0], [8, 7, 6, 5, 4, 3, 2, 1])
    >>> round(ev["auprg"], 10)  # docs/methods.md §4
    0.4305555556
    >>> ax = bm.plot.prg(ev)  # doctest: +SKIP
    """
    models = models_of(ev_or_models, "plot.prg")
    for name, ev in models:
        need_both(name, ev, "plot.prg")
    ax = axes(ax, "plot.prg")
    for i, (name, ev) in enumerate(models):
        c = ev.prg()
        rg, pg = c.recall_gain, c.precision_gain
        with np.errstate(invalid="ignore"):
            start = int(np.argmax(rg >= 0))
        x, y = rg[start:], pg[start:]
        ax.plot(x, y, color=color(i), label=label(name, f"PRG, AUPRG = {fmt(c.area())}"))
        dots = ~np.asarray(c.is_crossing[start:], dtype=bool)
        ax.plot(x[dots], y[dots], color=color(i), linestyle="none",
                marker=markers(ev.table) or ",", markersize=4)
    ax.axhline(0.0, color="red", linewidth=1.0, label="random (precision gain 0)")
    ax.set_xlim(-0.05, 1.05)
    ax.set_ylim(-0.05, 1.05)
    ax.set_aspect("equal")
    ax.set_xlabel("recall gain")
    ax.set_ylabel("precision gain")
    ax.set_title("Precision-recall-gain curve")
    ax.legend(loc="lower left", fontsize="small")
    return ax


# --- gain and lift ------------------------------------------------------------------------
def gain(ev_or_models: Any, *, ax: Any = None, normalize: bool = False,
         operating_point: float | bool | None = None) -> Axes:
    """Gain chart: positives among the top j cases against j, with the random line
    j P / n (Berrar Fig. 4a; average gain, Def. 25, in the legend).

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
    ax : matplotlib Axes, optional
    normalize : bool, default False
        Fractions of the cases and of the positives (the cumulative gains chart)
        instead of counts; needed to compare models evaluated on different data.
    operating_point : float or True, optional
        Mark the cut at this threshold (True: the evaluation's own).

    Returns
    -------
    matplotlib.axes.Axes
        Per model the gain curve; one random line per distinct (n, P).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ev.gain().positives.tolist()[:5], ev["average_gain"]
    ([0.0, 1.0, 2.0, 2.0, 3.0], 0.75)
    >>> ax = bm.plot.gain(ev)  # doctest: +SKIP
    """
    models = models_of(ev_or_models, "plot.gain")
    ax = axes(ax, "plot.gain")
    seen: list[tuple[float, float]] = []
    for i, (name, ev) in enumerate(models):
        t = ev.table
        c = ev.gain()
        sx, sy = (1.0 / t.total, 1.0 / t.P if t.P > 0 else 1.0) if normalize else (1.0, 1.0)
        average = f", average gain = {fmt(c.average())}" if t.P > 0 and t.N > 0 else ""
        ax.plot(c.n_selected * sx, c.positives * sy, color=color(i),
                marker=markers(t), markersize=4, label=label(name, f"gain{average}"))
        end = (1.0, 1.0) if normalize else (float(t.total), float(t.P))
        if not any(np.allclose(end, e) for e in seen):
            seen.append(end)
            ax.plot([0.0, end[0]], [0.0, end[1]], color="red", linewidth=1.0,
                    label="random" if normalize else f"random (n = {end[0]:g}, P = {end[1]:g})")
        th = operating_threshold(ev, operating_point)
        if th is not None:
            k = t.cut_index(table_cut(ev, th))
            ax.plot([c.n_selected[k] * sx], [c.positives[k] * sy], linestyle="none", marker="o",
                    markersize=8, markerfacecolor="white", markeredgecolor=color(i),
                    label=label(name, f"threshold {th:g}"))
    xlabel, ylabel = case_axes(models, normalize)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title("Gain chart")
    ax.legend(loc="lower right", fontsize="small")
    return ax


def lift(ev_or_models: Any, *, ax: Any = None, normalize: bool = False,
         operating_point: float | bool | None = None) -> Axes:
    """Lift chart: precision among the top j cases over the prevalence, against j,
    with the random line at 1 (Berrar Fig. 4b; average lift, Def. 26, in the legend).

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
    ax : matplotlib Axes, optional
    normalize : bool, default False
        The fraction of cases selected on the x axis instead of their number.
    operating_point : float or True, optional
        Mark the cut at this threshold (True: the evaluation's own; none when
        nothing is selected).

    Returns
    -------
    matplotlib.axes.Axes
        Per model the lift curve; one random line.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> round(ev["average_lift"], 3)  # Berrar's 1.427
    1.427
    >>> ax = bm.plot.lift(ev)  # doctest: +SKIP
    """
    models = models_of(ev_or_models, "plot.lift")
    for name, ev in models:
        need_both(name, ev, "plot.lift")
    ax = axes(ax, "plot.lift")
    for i, (name, ev) in enumerate(models):
        t = ev.table
        c = ev.lift()
        sx = 1.0 / t.total if normalize else 1.0
        ax.plot(c.n_selected * sx, c.lift, color=color(i), marker=markers(t), markersize=4,
                label=label(name, f"lift, average lift = {fmt(c.average())}"))
        th = operating_threshold(ev, operating_point)
        if th is not None:
            k = t.cut_index(table_cut(ev, th))
            if k > 0:
                ax.plot([c.n_selected[k - 1] * sx], [c.lift[k - 1]], linestyle="none",
                        marker="o", markersize=8, markerfacecolor="white",
                        markeredgecolor=color(i), label=label(name, f"threshold {th:g}"))
    ax.axhline(1.0, color="red", linewidth=1.0, label="random (lift 1)")
    ax.set_ylim(bottom=0.0)  # lift is a ratio: 0 is the reference, not the data's minimum
    ax.set_xlabel(case_axes(models, normalize)[0])
    ax.set_ylabel("lift")
    ax.set_title("Lift chart")
    ax.legend(loc="upper right", fontsize="small")
    return ax
