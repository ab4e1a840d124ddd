"""Performance plots: every chart of Berrar's paper, and a few more, on matplotlib Axes.

Berrar (discussion): "whenever possible, performance plots are preferable to
scalars". Each plot function takes an :class:`~binmetrics.Evaluation`, or a
mapping ``name -> Evaluation`` to overlay several models on one Axes (one colour
per model, named in the legend), draws on ``ax=`` (default a new figure) and
returns the Axes. Every number drawn comes from the evaluation's curves
(:mod:`binmetrics.curves`), so a chart and the measures in a report cannot
disagree.

=====================  ==================================================================
kind                   chart
=====================  ==================================================================
``roc``                ROC curve, convex hull, random line (Berrar Fig. 5a, 6a, 6c)
``threshold``          TPR and FPR against the threshold, KS gap marked (Fig. 5b)
``pr``                 precision-recall: AP step and trapezoid estimators (Fig. 5c, 6d)
``prg``                precision-recall-gain curve (Flach & Kull 2015)
``gain``               gain chart with the random line (Fig. 4a)
``lift``               lift chart with the random line at 1 (Fig. 4b)
``loss``               hinge and 0-1 loss of each case against its margin (Fig. 7, 8b)
``reliability``        calibration diagram (binned mean prediction vs. observed rate)
``measure``            any confusion measure against the threshold
``confusion_matrix``   the confusion matrix as a heatmap (k x k for a multiclass model)
=====================  ==================================================================

:data:`KINDS` maps these names to the functions (``ev.plot("roc")`` reads it), and
:func:`kinds` lists those that apply to an evaluation. :data:`CHART_DATA` gives, for
the same kinds, the numbers of each chart for other renderers
(:func:`chart_data`: lines in data units, step functions expanded by
:func:`step_vertices`); the HTML report (:mod:`binmetrics.report`) draws its charts
from it, in :data:`KINDS` order, so the report and these plots show the same lines.
:func:`srd`, :func:`covat` and :func:`anova_means` draw the results of the
comparison tools.

Needs matplotlib (``pip install 'binmetrics[plot]'``).

Examples
--------
>>> import binmetrics as bm
>>> kinds = bm.plot.kinds()
>>> kinds[:4]
['roc', 'threshold', 'pr', 'prg']
>>> y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
>>> ev = bm.evaluate(y, [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
>>> ax = bm.plot.roc(ev, operating_point=0.55)  # doctest: +SKIP
>>> other = bm.evaluate(y, [.9, .3, .6, .8, .4, .2, .7, .55, .1, .35])
>>> ax = bm.plot.pr({"A": ev, "B": other})  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from binmetrics.backends import axes
from binmetrics.curves import ThresholdCurves
from binmetrics.exceptions import undefined_policy
from binmetrics.formatting import PLOT, format_number
from binmetrics.measures import get_measure
from binmetrics.measures import ranking as rk
from binmetrics.validation import check_count, check_threshold

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.evaluation.binary import Evaluation
    from binmetrics.table.counts import Confusion, CountTable

__all__ = [
    "CHART_DATA",
    "KINDS",
    "ChartData",
    "Series",
    "anova_means",
    "chart_data",
    "confusion_matrix",
    "covat",
    "draw",
    "gain",
    "kinds",
    "lift",
    "loss",
    "mean_losses",
    "measure",
    "pr",
    "prg",
    "reliability",
    "reliability_table",
    "roc",
    "srd",
    "step_vertices",
    "threshold",
]

FloatArray = npt.NDArray[np.float64]
Models = list[tuple[str | None, "Evaluation"]]

#: PR curves drawn by default (``interpolation=``), and the line style of each
_PR_STYLES = {"step": "-", "min": ":", "max": "--", "minmax": "-.", "linear": (0, (5, 1)),
              "davis_goadrich": (0, (3, 1, 1, 1, 1, 1))}
_PR_NAMES = {"step": "AP (step)", "min": "AUCPR min", "max": "AUCPR max",
             "minmax": "AUCPR minmax", "linear": "linear", "davis_goadrich": "Davis-Goadrich"}
#: curves with more distinct scores than this get no point markers
_MAX_MARKERS = 200


# --- input --------------------------------------------------------------------------------
def _models(ev_or_models: Any, feature: str) -> Models:
    """``[(name or None, Evaluation)]`` from an Evaluation or a mapping of them."""
    from binmetrics.evaluation.binary import Evaluation

    if isinstance(ev_or_models, Evaluation):
        return [(None, ev_or_models)]
    if isinstance(ev_or_models, Mapping):
        if not ev_or_models:
            raise ValueError(f"{feature}: the mapping of models is empty")
        out: Models = []
        for name, ev in ev_or_models.items():
            if not isinstance(ev, Evaluation):
                raise TypeError(f"{feature}: model {name!r} is a {type(ev).__name__}, not an "
                                f"Evaluation{_multiclass_hint(ev)}")
            out.append((str(name), ev))
        return out
    raise TypeError(f"{feature} takes an Evaluation or a mapping name -> Evaluation; got "
                    f"{type(ev_or_models).__name__}{_multiclass_hint(ev_or_models)}")


def _multiclass_hint(obj: Any) -> str:
    from binmetrics.evaluation.multiclass import MulticlassEvaluation

    if isinstance(obj, MulticlassEvaluation):
        return (" (for one class of a multiclass model, plot its one-vs-rest evaluation "
                "bm.Evaluation(mev.table(cls)))")
    return ""


def _need_both(name: str | None, ev: Evaluation, feature: str) -> None:
    t = ev.table
    if t.P == 0 or t.N == 0:
        who = f"model {name!r}" if name else "the evaluation"
        missing = "positives" if t.P == 0 else "negatives"
        raise ValueError(f"{feature}: {who} has no {missing}; the curve needs both classes")


def _label(name: str | None, text: str) -> str:
    return f"{name}: {text}" if name else text


def _color(i: int) -> str:
    return f"C{i % 10}"


def _operating_threshold(ev: Evaluation, operating_point: Any) -> float | None:
    """None (no marker), the evaluation's own threshold (True) or the given one."""
    if operating_point is None or operating_point is False:
        return None
    if operating_point is True:
        return ev.threshold
    return check_threshold(operating_point)


def _markers(t: CountTable) -> str:
    return "o" if t.n_distinct <= _MAX_MARKERS else ""


def _threshold_axis(thresholds: FloatArray) -> FloatArray:
    """The x values of every cut: the distinct scores, and for cut 0 (threshold +inf,
    nothing positive) a point just right of the highest score."""
    s = thresholds[1:]
    span = float(s[0] - s[-1])
    pad = 0.05 * span if span > 0 else max(0.05 * abs(float(s[0])), 0.05)
    return np.concatenate(([s[0] + pad], s))


def _fmt(v: float) -> str:
    return format_number(v, PLOT)


# --- ROC ----------------------------------------------------------------------------------
def roc(ev_or_models: Any, *, ax: Any = None, hull: bool = True,
        operating_point: float | bool | None = None) -> Any:
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
    models = _models(ev_or_models, "plot.roc")
    for name, ev in models:
        _need_both(name, ev, "plot.roc")
    ax = axes(ax, "plot.roc")
    for i, (name, ev) in enumerate(models):
        c = ev.roc()
        ax.plot(c.fpr, c.tpr, color=_color(i), marker=_markers(ev.table), markersize=4,
                label=_label(name, f"ROC, AUC = {_fmt(c.area())}"))
        if hull:
            h = c.hull()
            ax.plot(h.fpr, h.tpr, color=_color(i), linestyle="--", linewidth=1.0,
                    label=_label(name, f"convex hull, AUCH = {_fmt(h.area())}"))
        th = _operating_threshold(ev, operating_point)
        if th is not None:
            cm = ev.table.confusion(th)
            ax.plot([cm.fp / ev.table.N], [cm.tp / ev.table.P], linestyle="none", marker="o",
                    markersize=8, markerfacecolor="white", markeredgecolor=_color(i),
                    label=_label(name, f"threshold {th:g}"))
    ax.plot([0.0, 1.0], [0.0, 1.0], color="red", linewidth=1.0, label="random")
    _unit_square(ax)
    ax.set_xlabel("false positive rate (1 - specificity)")
    ax.set_ylabel("true positive rate (sensitivity)")
    ax.set_title("ROC curve")
    ax.legend(loc="lower right", fontsize="small")
    return ax


def _unit_square(ax: Any) -> None:
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_aspect("equal")


# --- TPR and FPR against the threshold ------------------------------------------------------
def threshold(ev_or_models: Any, *, ax: Any = None,
              operating_point: float | bool | None = None) -> Any:
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
    models = _models(ev_or_models, "plot.threshold")
    for name, ev in models:
        _need_both(name, ev, "plot.threshold")
    ax = axes(ax, "plot.threshold")
    for i, (name, ev) in enumerate(models):
        c = ev.threshold_curves()
        x = _threshold_axis(c.thresholds)
        col = _color(i)
        ax.plot(x, c.tpr, drawstyle="steps-post", color=col, label=_label(name, "TPR"))
        ax.plot(x, c.fpr, drawstyle="steps-post", color=col, linestyle="--",
                label=_label(name, "FPR"))
        t_ks, ks = c.ks()
        if np.isfinite(t_ks):
            k = ev.table.cut_index(t_ks)
            lo, hi = sorted((float(c.fpr[k]), float(c.tpr[k])))
            ax.plot([t_ks, t_ks], [lo, hi], color=col, linewidth=2.5, alpha=0.6,
                    solid_capstyle="butt", label=_label(name, f"KS = {ks:.3f} at {t_ks:g}"))
            ax.annotate(f" KS {ks:.2f}", (t_ks, (lo + hi) / 2), color=col,
                        fontsize="small", va="center")
        th = _operating_threshold(ev, operating_point)
        if th is not None:
            ax.axvline(th, color=col, linestyle=":", linewidth=1.0,
                       label=_label(name, f"threshold {th:g}"))
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("threshold (score >= threshold is positive)")
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


def _pr_line(ev: Evaluation, method: str) -> tuple[FloatArray, FloatArray]:
    """The PR curve of one area estimator: the trapezoid rule on it gives the area
    (for "step": steps-pre, each precision held back to the previous recall)."""
    pr_ = ev.pr()
    if method in ("step", "linear"):  # from recall 0 at the first point's precision
        return (np.concatenate(([0.0], pr_.recall)),
                np.concatenate(([pr_.precision[0]], pr_.precision)))
    if method == "davis_goadrich":
        return _davis_goadrich_line(ev.table)
    r, pmin, pmax = rk._recall_levels(ev.table)  # the levels the estimators integrate
    if method == "min":
        return r, pmin
    if method == "max":
        return r, pmax
    # minmax: from p_min at one recall to p_max at the next, then down to p_min there
    return np.repeat(r, 2), np.column_stack((pmax, pmin)).ravel()


def _davis_goadrich_line(t: CountTable, max_points: int = 20_000) -> tuple[FloatArray,
                                                                          FloatArray]:
    """The PR curve interpolated in count space (Davis & Goadrich 2006): between
    neighbouring cuts TP grows by x and FP by x * neg/pos, so precision is
    (a + x) / (b + s x); sampled at a few points per step."""
    tp0, fp0 = t.tp[:-1], t.fp[:-1]
    pos, neg = t.pos.astype(np.float64), t.neg.astype(np.float64)
    m = int(max(2, min(16, max_points // max(t.n_distinct, 1))))
    u = np.linspace(0.0, 1.0, m)[1:]  # fraction of the step taken
    tp = tp0[:, None] + u[None, :] * pos[:, None]
    fp = fp0[:, None] + u[None, :] * neg[:, None]
    tp, fp = tp.ravel(), fp.ravel()
    keep = tp > 0  # precision is undefined before the first positive
    tp, fp = tp[keep], fp[keep]
    first = pos[0] / (pos[0] + neg[0]) if pos[0] > 0 else tp[0] / (tp[0] + fp[0])
    return (np.concatenate(([0.0], tp / t.P)),
            np.concatenate(([first], tp / (tp + fp))))


def pr(ev_or_models: Any, *, ax: Any = None,
       interpolation: str | Sequence[str] = ("step", "min", "max", "minmax"),
       operating_point: float | bool | None = None) -> Any:
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
    models = _models(ev_or_models, "plot.pr")
    methods = _as_methods(interpolation)
    for name, ev in models:
        _need_both(name, ev, "plot.pr")
    ax = axes(ax, "plot.pr")
    prevalences: list[float] = []
    for i, (name, ev) in enumerate(models):
        curve = ev.pr()
        for method in methods:
            x, y = _pr_line(ev, method)
            kw: dict[str, Any] = {}
            if method == "step":
                kw = {"drawstyle": "steps-pre", "marker": _markers(ev.table), "markersize": 4,
                      "markevery": slice(1, None)}
            ax.plot(x, y, color=_color(i), linestyle=_PR_STYLES[method],
                    linewidth=1.8 if method == "step" else 1.0,
                    label=_label(name, f"{_PR_NAMES[method]} = {_fmt(curve.area(method))}"),
                    **kw)
        th = _operating_threshold(ev, operating_point)
        if th is not None:
            cm = ev.table.confusion(th)
            if cm.tp + cm.fp > 0:
                ax.plot([cm.tp / ev.table.P], [cm.tp / (cm.tp + cm.fp)], linestyle="none",
                        marker="o", markersize=8, markerfacecolor="white",
                        markeredgecolor=_color(i), label=_label(name, f"threshold {th:g}"))
        prev = float(ev.table.prevalence)
        if not any(np.isclose(prev, p) for p in prevalences):
            prevalences.append(prev)
            ax.axhline(prev, color="red", linewidth=1.0,
                       label=f"random (prevalence {prev:.3g})")
    _unit_square(ax)
    ax.set_xlabel("recall (sensitivity)")
    ax.set_ylabel("precision")
    ax.set_title("Precision-recall curve")
    ax.legend(loc="lower left", fontsize="small")
    return ax


# --- precision-recall-gain ------------------------------------------------------------------
def prg(ev_or_models: Any, *, ax: Any = None) -> Any:
    """Precision-recall-gain curve (Flach & Kull 2015; METHODS.md section 4).

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
    >>> round(ev["auprg"], 10)  # METHODS.md section 4
    0.4305555556
    >>> ax = bm.plot.prg(ev)  # doctest: +SKIP
    """
    models = _models(ev_or_models, "plot.prg")
    for name, ev in models:
        _need_both(name, ev, "plot.prg")
    ax = axes(ax, "plot.prg")
    for i, (name, ev) in enumerate(models):
        c = ev.prg()
        rg, pg = c.recall_gain, c.precision_gain
        with np.errstate(invalid="ignore"):
            start = int(np.argmax(rg >= 0))
        x, y = rg[start:], pg[start:]
        ax.plot(x, y, color=_color(i), label=_label(name, f"PRG, AUPRG = {_fmt(c.area())}"))
        dots = ~np.asarray(c.is_crossing[start:], dtype=bool)
        ax.plot(x[dots], y[dots], color=_color(i), linestyle="none",
                marker=_markers(ev.table) or ",", markersize=4)
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
         operating_point: float | bool | None = None) -> Any:
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
    models = _models(ev_or_models, "plot.gain")
    ax = axes(ax, "plot.gain")
    seen: list[tuple[float, float]] = []
    for i, (name, ev) in enumerate(models):
        t = ev.table
        c = ev.gain()
        sx, sy = (1.0 / t.total, 1.0 / t.P if t.P > 0 else 1.0) if normalize else (1.0, 1.0)
        average = f", average gain = {_fmt(c.average())}" if t.P > 0 and t.N > 0 else ""
        ax.plot(c.n_selected * sx, c.positives * sy, color=_color(i),
                marker=_markers(t), markersize=4, label=_label(name, f"gain{average}"))
        end = (1.0, 1.0) if normalize else (float(t.total), float(t.P))
        if not any(np.allclose(end, e) for e in seen):
            seen.append(end)
            ax.plot([0.0, end[0]], [0.0, end[1]], color="red", linewidth=1.0,
                    label="random" if normalize else f"random (n = {end[0]:g}, P = {end[1]:g})")
        th = _operating_threshold(ev, operating_point)
        if th is not None:
            k = t.cut_index(th)
            ax.plot([c.n_selected[k] * sx], [c.positives[k] * sy], linestyle="none", marker="o",
                    markersize=8, markerfacecolor="white", markeredgecolor=_color(i),
                    label=_label(name, f"threshold {th:g}"))
    xlabel, ylabel = _case_axes(models, normalize)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title("Gain chart")
    ax.legend(loc="lower right", fontsize="small")
    return ax


def lift(ev_or_models: Any, *, ax: Any = None, normalize: bool = False,
         operating_point: float | bool | None = None) -> Any:
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
    models = _models(ev_or_models, "plot.lift")
    for name, ev in models:
        _need_both(name, ev, "plot.lift")
    ax = axes(ax, "plot.lift")
    for i, (name, ev) in enumerate(models):
        t = ev.table
        c = ev.lift()
        sx = 1.0 / t.total if normalize else 1.0
        ax.plot(c.n_selected * sx, c.lift, color=_color(i), marker=_markers(t), markersize=4,
                label=_label(name, f"lift, average lift = {_fmt(c.average())}"))
        th = _operating_threshold(ev, operating_point)
        if th is not None:
            k = t.cut_index(th)
            if k > 0:
                ax.plot([c.n_selected[k - 1] * sx], [c.lift[k - 1]], linestyle="none",
                        marker="o", markersize=8, markerfacecolor="white",
                        markeredgecolor=_color(i), label=_label(name, f"threshold {th:g}"))
    ax.axhline(1.0, color="red", linewidth=1.0, label="random (lift 1)")
    ax.set_ylim(bottom=0.0)  # lift is a ratio: 0 is the reference, not the data's minimum
    ax.set_xlabel(_case_axes(models, normalize)[0])
    ax.set_ylabel("lift")
    ax.set_title("Lift chart")
    ax.legend(loc="upper right", fontsize="small")
    return ax


# --- hinge and 0-1 loss ---------------------------------------------------------------------
def _thin(n: int, max_points: int | None) -> npt.NDArray[np.intp]:
    if max_points is None or n <= max_points:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, max_points).round().astype(np.intp))


def _case_losses(t: CountTable, center: float) -> dict[str, FloatArray]:
    """Margin, hinge and 0-1 loss of each (score, class) group with cases, and its weight.

    The margin is y (s - center) with y in {-1, +1}; the 0-1 loss is 1 for a
    wrong prediction under ``score >= center`` is positive.
    """
    s = t.scores - center
    has_p, has_n = t.pos > 0, t.neg > 0
    margin = np.concatenate((s[has_p], -s[has_n]))
    weight = np.concatenate((t.pos[has_p], t.neg[has_n])).astype(np.float64)
    wrong = np.concatenate((s[has_p] < 0, s[has_n] >= 0)).astype(np.float64)
    order = np.argsort(margin, kind="stable")
    margin, weight, wrong = margin[order], weight[order], wrong[order]
    return {"margin": margin, "hinge": np.maximum(0.0, 1.0 - margin), "zero_one": wrong,
            "weight": weight}


def _center(ev: Evaluation, center: float | Literal["threshold"]) -> float:
    return ev.threshold if isinstance(center, str) else float(center)


def _check_center(center: Any) -> float | Literal["threshold"]:
    if isinstance(center, str):
        if center != "threshold":
            raise ValueError(f"plot.loss: center must be a number or 'threshold', got {center!r}")
        return "threshold"
    c0 = check_threshold(center)
    if not np.isfinite(c0):
        raise ValueError(f"plot.loss: center must be finite, got {center!r}")
    return c0


def mean_losses(ev: Evaluation, center: float = 0.0) -> tuple[float, float]:
    """The (weighted) mean hinge loss and 0-1 loss of the margins y (s - center), from
    the registry's measures: ``hinge_loss`` (Berrar Def. 35, eq. 44) of the scores
    shifted by ``center``, and ``error_rate`` at threshold ``center``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> [round(v, 4) for v in bm.plot.mean_losses(ev)]  # ev["hinge_loss"], 1 - prevalence
    [0.87, 0.5]
    >>> [round(v, 4) for v in bm.plot.mean_losses(ev, 0.5)]  # balanced: the shift cancels
    [0.87, 0.2]
    """
    from binmetrics.table.counts import CountTable

    t = ev.table
    if center == 0.0:
        hinge = ev["hinge_loss"]
    else:  # the same table with the scores shifted (sums only: no order is needed)
        m = get_measure("hinge_loss")
        shifted = CountTable(t.scores - center, t.pos, t.neg, weighted=t.weighted,
                             _trusted=True, _totals=(t.P, t.N))
        hinge = float(m.func(shifted, **m.resolve_params()))
    return float(hinge), float(ev.at_threshold(center)["error_rate"])


def loss(ev_or_models: Any, *, ax: Any = None, center: float | Literal["threshold"] = 0.0,
         max_points: int | None = 2000) -> Any:
    """Hinge loss and 0-1 loss against the margin y (s - center), with every case on them
    (Berrar Fig. 7 and Fig. 8b; Def. 35).

    The two loss functions of Berrar Fig. 7 are drawn once, in black (hinge solid,
    0-1 dashed; the margin is the score for y = +1); each case is a marker in its
    model's colour at its margin y (s - center), y in {-1, +1}, on each curve: its
    hinge loss max(0, 1 - y (s - center)) (circles) and its 0-1 loss (squares: 1
    when ``score >= center`` predicts it wrongly). Cases of one class with the same
    score share a marker. The legend gives the (weighted) means from the registry
    (:func:`mean_losses`): with ``center=0`` the mean hinge loss is the
    ``hinge_loss`` measure (scores read as signed distances, Berrar eq. 44), and the
    mean 0-1 loss is always the ``error_rate`` at threshold ``center``.

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
    ax : matplotlib Axes, optional
    center : float or "threshold", default 0.0
        Where the decision boundary is: scores are read as signed distances
        s - center (e.g. 0.5 for probabilities); "threshold" takes each
        evaluation's own threshold (the 0-1 loss is then its errors).
    max_points : int or None, default 2000
        At most this many markers per loss and model (evenly spaced in margin
        order; None for all). The means use every case.

    Returns
    -------
    matplotlib.axes.Axes
        Two loss lines, and per model two collections of markers (hinge, 0-1).

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> round(ev["hinge_loss"], 4), ev.at_threshold(0.5)["error_rate"]
    (0.87, 0.2)
    >>> ax = bm.plot.loss(ev, center=0.5)  # doctest: +SKIP
    """
    models = _models(ev_or_models, "plot.loss")
    c0 = _check_center(center)
    if max_points is not None:
        max_points = check_count(max_points, "max_points")
    ax = axes(ax, "plot.loss")
    data = _loss_data(models, center=c0, max_points=max_points)
    for ser in data.series:
        if ser.shared:
            ax.plot(ser.x, ser.y, color="black", linewidth=1.5,
                    linestyle="--" if ser.style == "dashed" else "-", label=ser.label)
    index = {name: i for i, (name, _) in enumerate(models)}
    for ser in data.series:
        if not ser.shared:
            i = index[ser.model]
            ax.scatter(ser.x, ser.y, s=25, marker="o" if "hinge" in ser.label else "s",
                       zorder=3, color=_color(i), edgecolors="k", linewidths=0.5,
                       label=_label(ser.model, ser.label))
    ax.set_xlim(*data.xlim)
    ax.set_xlabel(data.xlabel)
    ax.set_ylabel(data.ylabel)
    ax.set_title(data.title)
    ax.legend(loc="upper right", fontsize="small")
    return ax


# --- reliability ----------------------------------------------------------------------------
def _np_lerp(a: FloatArray, b: FloatArray, t: FloatArray) -> FloatArray:
    """numpy's interpolation between order statistics (bit for bit as np.percentile)."""
    diff = b - a
    return np.where(t >= 0.5, b - diff * (1.0 - t), a + diff * t)


def _weighted_percentiles(x: FloatArray, w: FloatArray, q: FloatArray) -> FloatArray:
    """np.percentile(np.repeat(x, w), q) ("linear" method) from the sorted distinct
    values ``x`` and their counts ``w``, without repeating; non-integer weights are
    frequencies in the same formula."""
    cum = np.cumsum(w)
    quant = np.true_divide(q, 100)  # as np.percentile
    pos = np.clip((cum[-1] - 1.0) * quant, 0.0, None)
    below = np.floor(pos)
    gamma = pos - below

    def at(k: FloatArray) -> FloatArray:  # the k-th (0-based) value of the repeated data
        return x[np.minimum(np.searchsorted(cum, k, side="right"), x.size - 1)]

    return _np_lerp(at(below), at(np.minimum(below + 1.0, cum[-1] - 1.0)), gamma)


def reliability_table(ev: Evaluation, *, n_bins: int = 10,
                      strategy: Literal["uniform", "quantile"] = "uniform") -> pd.DataFrame:
    """The numbers of the reliability diagram: one row per non-empty bin.

    Bins as scikit-learn's ``calibration_curve`` (edges ``linspace(0, 1)`` or the
    score quantiles; a score on an inner edge falls in the lower bin), computed
    from the count table, so sample weights count (scikit-learn's function takes
    none; quantiles treat weights as frequencies).

    Parameters
    ----------
    ev : Evaluation
        Scores must be probabilities in [0, 1].
    n_bins : int, default 10
    strategy : {"uniform", "quantile"}, default "uniform"

    Returns
    -------
    pandas.DataFrame
        ``low``, ``high`` (bin edges), ``mean_predicted``, ``observed`` (the
        fraction of positives) and ``weight`` (cases, or their weight) per bin.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([0, 0, 0, 0, 1, 1, 1, 1, 1],
    ...                  [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0])
    >>> tab = bm.plot.reliability_table(ev, n_bins=3)  # scikit-learn's example
    >>> tab.observed.tolist(), tab.mean_predicted.round(3).tolist()
    ([0.0, 0.5, 1.0], [0.2, 0.525, 0.85])
    """
    import pandas as pd

    n_bins = check_count(n_bins, "n_bins")
    t = ev.table
    if not t.probabilities_ok:
        raise ValueError(f"the reliability diagram needs probabilities in [0, 1]; the scores "
                         f"range over [{t.scores[-1]:g}, {t.scores[0]:g}]")
    s = t.scores[::-1]  # ascending
    pos = t.pos[::-1].astype(np.float64)
    w = pos + t.neg[::-1].astype(np.float64)
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    elif strategy == "quantile":
        edges = _weighted_percentiles(s, w, np.linspace(0, 1, n_bins + 1) * 100)
    else:
        raise ValueError(f"strategy must be 'uniform' or 'quantile', got {strategy!r}")
    ids = np.searchsorted(edges[1:-1], s)
    total = np.bincount(ids, weights=w, minlength=n_bins)
    keep = total > 0
    rows = np.flatnonzero(keep)
    return pd.DataFrame({
        "low": edges[rows], "high": edges[rows + 1],
        "mean_predicted": np.bincount(ids, weights=s * w, minlength=n_bins)[keep] / total[keep],
        "observed": np.bincount(ids, weights=pos, minlength=n_bins)[keep] / total[keep],
        "weight": total[keep],
    })


def reliability(ev_or_models: Any, *, ax: Any = None, n_bins: int = 10,
                strategy: Literal["uniform", "quantile"] = "uniform",
                counts: bool | None = None) -> Any:
    """Reliability (calibration) diagram: the fraction of positives against the mean
    predicted probability in each bin, with the diagonal of perfect calibration.

    The numbers are :func:`reliability_table` (scikit-learn's
    ``calibration_curve`` with sample weights).

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
        Scores must be probabilities in [0, 1] (a ValueError otherwise).
    ax : matplotlib Axes, optional
    n_bins : int, default 10
    strategy : {"uniform", "quantile"}, default "uniform"
        Equal-width bins on [0, 1], or bins with equal numbers of cases.
    counts : bool, optional
        Write each bin's number of cases (weight) next to its point; default for
        a single model only.

    Returns
    -------
    matplotlib.axes.Axes
        Per model one line with a marker per non-empty bin; the diagonal.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ax = bm.plot.reliability(ev, n_bins=5)  # doctest: +SKIP
    """
    models = _models(ev_or_models, "plot.reliability")
    tables = []
    for name, ev in models:
        try:
            tables.append(reliability_table(ev, n_bins=n_bins, strategy=strategy))
        except ValueError as exc:
            who = f" (model {name!r})" if name else ""
            raise ValueError(f"plot.reliability{who}: {exc}") from None
    ax = axes(ax, "plot.reliability")
    write = len(models) == 1 if counts is None else counts
    for i, ((name, ev), tab) in enumerate(zip(models, tables, strict=True)):
        ax.plot(tab.mean_predicted, tab.observed, color=_color(i), marker="o", markersize=5,
                label=_label(name, f"{len(tab)} bins ({strategy})"))
        if write:
            fmt = "{:g}" if ev.table.weighted else "{:.0f}"
            for x, y, n in zip(tab.mean_predicted, tab.observed, tab.weight, strict=True):
                ax.annotate(fmt.format(n), (x, y), textcoords="offset points", xytext=(4, 4),
                            fontsize="x-small", color=_color(i))
    ax.plot([0.0, 1.0], [0.0, 1.0], color="grey", linestyle="--", linewidth=1.0,
            label="perfectly calibrated")
    _unit_square(ax)
    ax.set_xlabel("mean predicted probability")
    ax.set_ylabel("fraction of positives")
    ax.set_title("Reliability diagram" + (" (numbers: cases per bin)" if write else ""))
    ax.legend(loc="upper left", fontsize="small")
    return ax


# --- any confusion measure ------------------------------------------------------------------
def _confusion_measure(name: Any) -> Any:
    try:
        m = get_measure(name)
    except KeyError as exc:
        raise ValueError(f"plot.measure: {exc.args[0]}; it draws confusion measures "
                         "(family 'confusion', e.g. f1, mcc, tpr)") from None
    if m.family != "confusion":
        raise ValueError(f"plot.measure: {m.id} is a {m.family} measure; only measures of the "
                         "'confusion' family (e.g. f1, mcc, tpr) vary with the threshold "
                         f"(plot.KINDS has the {m.family} curves)")
    return m


def measure(ev_or_models: Any, *, ax: Any = None, measure: str | Sequence[str] = "f1",
            mark_best: bool = True, operating_point: float | bool | None = None,
            **params: Any) -> Any:
    """Any confusion measure against the threshold (:meth:`ThresholdCurves.measure`).

    Step functions through the distinct scores as in :func:`threshold`; NaN where
    the measure is undefined leaves a gap.

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
    ax : matplotlib Axes, optional
    measure : str or sequence of str, default "f1"
        Ids or aliases of confusion measures (``bm.measures("confusion")``); a
        measure of another family is an error.
    mark_best : bool, default True
        Mark the threshold that optimises each measure (as
        :meth:`Evaluation.best_threshold`; measures without a direction get none).
    operating_point : float or True, optional
        Draw a vertical line at this threshold (True: the evaluation's own).
    **params
        The measures' parameters (``beta=2`` for ``fbeta``).

    Returns
    -------
    matplotlib.axes.Axes
        Per model and measure one line, plus one marker line with ``mark_best``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ax = bm.plot.measure(ev, measure=["f1", "mcc"])  # doctest: +SKIP
    >>> bm.plot.measure(ev, measure="auc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: plot.measure: auc is a ranking measure; only measures of the 'confusion' ...
    """
    names = [measure] if isinstance(measure, str) else list(measure)
    if not names:
        raise ValueError("plot.measure: name at least one measure")
    chosen = list({m.id: m for m in map(_confusion_measure, names)}.values())
    for m in chosen:
        m.resolve_params(**{k: v for k, v in params.items() if k in m.params})
    stray = set(params) - {p for m in chosen for p in m.params}
    if stray:
        raise TypeError(f"plot.measure: no measure among {[m.id for m in chosen]} takes "
                        f"{', '.join(sorted(stray))}")
    models = _models(ev_or_models, "plot.measure")
    ax = axes(ax, "plot.measure")
    styles = ["-", "--", "-.", ":"]
    for i, (name, ev) in enumerate(models):
        with undefined_policy("ignore"):  # TPR and FPR, unused here, need both classes
            curves = ThresholdCurves.from_table(ev.table)
        x = _threshold_axis(curves.thresholds)
        for j, m in enumerate(chosen):
            p = {k: v for k, v in params.items() if k in m.params}
            y = curves.measure(m.id, **p)
            ax.plot(x, y, drawstyle="steps-post", color=_color(i),
                    linestyle=styles[j % len(styles)], label=_label(name, m.id))
            if mark_best and m.direction != 0 and not np.all(np.isnan(y)):
                k = int(np.nanargmax(y) if m.direction > 0 else np.nanargmin(y))
                ax.plot([x[k]], [y[k]], linestyle="none", marker="*", markersize=10,
                        color=_color(i), label=_label(
                            name, f"best {m.id} = {y[k]:.3f} at {curves.thresholds[k]:g}"))
        th = _operating_threshold(ev, operating_point)
        if th is not None:
            ax.axvline(th, color=_color(i), linestyle=":", linewidth=1.0,
                       label=_label(name, f"threshold {th:g}"))
    ax.set_xlabel("threshold (score >= threshold is positive)")
    ax.set_ylabel(chosen[0].name if len(chosen) == 1 else "value")
    ax.set_title(f"{', '.join(m.id for m in chosen)} against the threshold")
    ax.legend(loc="best" if sum(ev.table.n_distinct for _, ev in models) <= 1000
              else "upper right", fontsize="small")
    return ax


# --- confusion matrix -----------------------------------------------------------------------
def confusion_matrix(ev_or_models: Any, *, ax: Any = None, threshold: float | None = None,
                     cmap: str = "Blues") -> Any:
    """The confusion matrix as a heatmap: counts and row percentages in each cell.

    Rows are the actual classes, columns the predicted ones; colour is the row
    percentage (TPR, FNR / FPR, TNR for two classes, Berrar Fig. 3). A binary
    evaluation gives the 2 x 2 matrix, positive first; a
    :class:`~binmetrics.MulticlassEvaluation` its k x k matrix (argmax predictions).

    Parameters
    ----------
    ev_or_models : Evaluation, MulticlassEvaluation, or a mapping with one of them
        One model: a confusion matrix does not overlay.
    ax : matplotlib Axes, optional
    threshold : float, optional
        Cut of a binary evaluation (default its own threshold).
    cmap : str, default "Blues"

    Returns
    -------
    matplotlib.axes.Axes
        One image and a text per cell.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1], threshold=0.55)
    >>> ev.confusion  # Berrar Fig. 3b
    Confusion(tp=3, fp=1, fn=2, tn=4)
    >>> ax = bm.plot.confusion_matrix(ev)  # doctest: +SKIP
    """
    from binmetrics.evaluation.multiclass import MulticlassEvaluation

    name: str | None = None
    obj = ev_or_models
    if isinstance(obj, Mapping):
        if len(obj) != 1:
            raise ValueError(f"plot.confusion_matrix draws one model; got {len(obj)} "
                             "(draw each on its own Axes)")
        key, obj = next(iter(obj.items()))
        name = str(key)
    if isinstance(obj, MulticlassEvaluation):
        if threshold is not None:
            raise ValueError("plot.confusion_matrix: a multiclass prediction is the argmax; "
                             "threshold does not apply")
        cm = obj.confusion_matrix.to_numpy(dtype=np.float64)
        labels = [str(c) for c in obj.classes]
        weighted = obj.weighted
        title = "Confusion matrix"
    else:
        ((_, ev),) = _models(obj, "plot.confusion_matrix")
        th = ev.threshold if threshold is None else check_threshold(threshold)
        c = ev.table.confusion(th)
        cm = np.array([[c.tp, c.fn], [c.fp, c.tn]], dtype=np.float64)
        labels = ["positive", "negative"]
        weighted = ev.table.weighted
        title = f"Confusion matrix, score >= {th:g} positive"
    ax = axes(ax, "plot.confusion_matrix")
    rows = cm.sum(axis=1, keepdims=True)
    share = np.divide(cm, rows, out=np.full_like(cm, np.nan), where=rows > 0)
    ax.imshow(np.nan_to_num(share), cmap=cmap, vmin=0.0, vmax=1.0)
    k = cm.shape[0]
    for r in range(k):
        for col in range(k):
            count = f"{cm[r, col]:.4g}" if weighted else f"{cm[r, col]:.0f}"
            pct = "" if np.isnan(share[r, col]) else f"\n{100 * share[r, col]:.1f}%"
            dark = not np.isnan(share[r, col]) and share[r, col] > 0.5
            ax.text(col, r, count + pct, ha="center", va="center",
                    color="white" if dark else "black",
                    fontsize="medium" if k <= 6 else "x-small")
    ax.set_xticks(range(k), labels, rotation=0 if k <= 6 else 90)
    ax.set_yticks(range(k), labels)
    ax.set_xlabel("predicted")
    ax.set_ylabel("actual")
    ax.set_title(_label(name, title))
    return ax


# --- the comparison results -----------------------------------------------------------------
def srd(res: Any, *, ax: Any = None, **kwargs: Any) -> Any:
    """The SRD plot of an :class:`~binmetrics.SRDResult` (multi-level comparison paper,
    Figures 3 and 7), or the box plot of an :class:`~binmetrics.SRDCrossValidation`:
    ``res.plot(ax=ax, **kwargs)``.

    Examples
    --------
    >>> import binmetrics as bm
    >>> import pandas as pd
    >>> res = bm.srd(pd.DataFrame({"a": [1, 2, 3, 4], "b": [2, 1, 4, 3]}), "a")
    >>> ax = bm.plot.srd(res)  # doctest: +SKIP
    """
    from binmetrics.comparison.srd import SRDCrossValidation, SRDResult

    if not isinstance(res, (SRDResult, SRDCrossValidation)):
        raise TypeError(f"plot.srd takes an SRDResult (bm.srd(...)) or its "
                        f"cross_validate() result; got {type(res).__name__}")
    return res.plot(ax=ax, **kwargs)


def covat(res: Any, *, ax: Any = None, **kwargs: Any) -> Any:
    """The SRD-COVAT heatmap of a :class:`~binmetrics.COVATResult` (multi-level
    comparison paper, Figure 6): ``res.plot(ax=ax, **kwargs)``."""
    from binmetrics.comparison.srd import COVATResult

    if not isinstance(res, COVATResult):
        raise TypeError(f"plot.covat takes a COVATResult (bm.covat(...)); "
                        f"got {type(res).__name__}")
    return res.plot(ax=ax, **kwargs)


def anova_means(res: Any, x: str, hue: str | None = None, *, ax: Any = None,
                **kwargs: Any) -> Any:
    """The means plot of an :class:`~binmetrics.AnovaResult` (multi-level comparison
    paper, Figures 4, 5 and 8): ``res.plot(x, hue, ax=ax, **kwargs)``."""
    from binmetrics.comparison.anova import AnovaResult

    if not isinstance(res, AnovaResult):
        raise TypeError(f"plot.anova_means takes an AnovaResult (bm.anova(...)); "
                        f"got {type(res).__name__}")
    return res.plot(x, hue, ax=ax, **kwargs)


# --- the numbers of each chart, for other renderers ----------------------------------------
SeriesStyle = Literal["solid", "dashed", "dotted", "points", "segment"]
#: ``operating(ev, confusion, values)``: the operating point of ``ev`` at some thresholds,
#: from their confusion matrices and the registry's confusion measures there
Operating = Callable[["Evaluation", "Confusion", Mapping[str, FloatArray]],
                     tuple[FloatArray, FloatArray]]


def step_vertices(x: Any, y: Any, where: Literal["pre", "post"]) -> tuple[FloatArray,
                                                                        FloatArray]:
    """The vertices of the step function through (x, y), as matplotlib draws it with
    ``drawstyle="steps-post"`` (``y[i]`` holds from ``x[i]`` to ``x[i+1]``) or
    ``"steps-pre"`` (``y[i]`` holds from ``x[i-1]`` to ``x[i]``): joining them by
    straight lines draws the steps, so a polyline renderer (and the thinning of the
    HTML report) sees the step function itself.

    Examples
    --------
    >>> x, y = step_vertices([0, 1, 2], [5, 6, 7], "post")
    >>> x.tolist(), y.tolist()
    ([0.0, 1.0, 1.0, 2.0, 2.0], [5.0, 5.0, 6.0, 6.0, 7.0])
    >>> step_vertices([0, 1, 2], [5, 6, 7], "pre")[1].tolist()
    [5.0, 6.0, 6.0, 7.0, 7.0]
    """
    xs = np.asarray(x, dtype=np.float64).ravel()
    ys = np.asarray(y, dtype=np.float64).ravel()
    if xs.shape != ys.shape:
        raise ValueError(f"x and y must have equal length; got {xs.size} and {ys.size}")
    if where not in ("pre", "post"):
        raise ValueError(f"where must be 'pre' or 'post', got {where!r}")
    n = xs.size
    if n < 2:
        return xs.copy(), ys.copy()
    vx, vy = np.empty(2 * n - 1), np.empty(2 * n - 1)
    vx[0::2], vy[0::2] = xs, ys
    if where == "post":
        vx[1::2], vy[1::2] = xs[1:], ys[:-1]
    else:
        vx[1::2], vy[1::2] = xs[:-1], ys[1:]
    return vx, vy


@dataclass(frozen=True)
class Series:
    """One line (or set of points) of a chart, in data units.

    Attributes
    ----------
    x, y : ndarray
        The vertices to join by straight lines (step functions come as their
        vertices, :func:`step_vertices`); NaN breaks the line.
    label : str
        What it is, with its area or mean where it has one ("ROC, AUC = 0.800").
    model : str or None
        The model's name (None for a single evaluation, and for shared lines).
    style : {"solid", "dashed", "dotted", "points", "segment"}
        "points": markers only; "segment": a mark such as the KS gap.
    shared : bool
        A baseline drawn once for every model (random line, loss functions).
    """

    x: FloatArray
    y: FloatArray
    label: str
    model: str | None = None
    style: SeriesStyle = "solid"
    shared: bool = False


@dataclass(frozen=True)
class ChartData:
    """The numbers a chart of :data:`KINDS` draws, for renderers other than matplotlib
    (the HTML report reads them, so its charts and these plots cannot disagree).

    Attributes
    ----------
    kind, title, xlabel, ylabel : str
    series : tuple of Series
    xlim, ylim : (low, high)
        Fixed axis limits; a None end is the data's.
    operating : callable or None
        ``operating(ev, confusion, values)``: the operating point of ``ev`` at
        thresholds whose confusion matrices and registry confusion measure values
        are given (None: the chart has none).
    threshold_axis : bool
        The x axis is the threshold (the current threshold is a vertical line).
    notes : tuple of str
        Models left out, and why.
    """

    kind: str
    title: str
    xlabel: str
    ylabel: str
    series: tuple[Series, ...]
    xlim: tuple[float | None, float | None] = (None, None)
    ylim: tuple[float | None, float | None] = (None, None)
    operating: Operating | None = None
    threshold_axis: bool = False
    notes: tuple[str, ...] = ()


def _series(x: Any, y: Any, label: str, model: str | None = None, style: SeriesStyle = "solid",
            shared: bool = False) -> Series:
    return Series(np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64), label,
                  model, style, shared)


def _roc_data(models: Models) -> ChartData:
    out = []
    for name, ev in models:
        c = ev.roc()
        h = c.hull()
        out.append(_series(c.fpr, c.tpr, f"ROC, AUC = {_fmt(c.area())}", name))
        out.append(_series(h.fpr, h.tpr, f"convex hull, AUCH = {_fmt(h.area())}", name,
                           "dashed"))
    out.append(_series([0.0, 1.0], [0.0, 1.0], "random", shared=True))
    return ChartData("roc", "ROC curve and convex hull", "false positive rate (1 - specificity)",
                     "true positive rate (sensitivity)", tuple(out), (0.0, 1.0), (0.0, 1.0),
                     operating=lambda ev, c, v: (v["fpr"], v["tpr"]))


def _threshold_data(models: Models) -> ChartData:
    out = []
    for name, ev in models:
        c = ev.threshold_curves()
        x = _threshold_axis(c.thresholds)  # as threshold(): steps-post
        out.append(_series(*step_vertices(x, c.tpr, "post"), "TPR", name))
        out.append(_series(*step_vertices(x, c.fpr, "post"), "FPR", name, "dashed"))
        t_ks, ks = c.ks()
        if np.isfinite(t_ks):
            k = ev.table.cut_index(t_ks)
            out.append(_series([t_ks, t_ks], [c.fpr[k], c.tpr[k]],
                               f"KS = {ks:.3f} at {t_ks:g}", name, "segment"))
    return ChartData("threshold", "TPR and FPR against the threshold (KS gap)",
                     "threshold (score >= threshold is positive)",
                     "TPR (solid), FPR (dashed)", tuple(out), ylim=(0.0, 1.0),
                     threshold_axis=True)


def _pr_data(models: Models) -> ChartData:
    out: list[Series] = []
    prevalences: list[float] = []
    for name, ev in models:
        x, y = step_vertices(*_pr_line(ev, "step"), "pre")  # as pr(): steps-pre
        out.append(_series(x, y, f"{_PR_NAMES['step']} = {_fmt(ev.pr().area('step'))}", name))
        prev = float(ev.table.prevalence)
        if not any(np.isclose(prev, p) for p in prevalences):
            prevalences.append(prev)
            out.append(_series([0.0, 1.0], [prev, prev], f"random (prevalence {prev:.3g})",
                               style="dotted", shared=True))
    return ChartData("pr", "Precision-recall (AP step)", "recall (sensitivity)", "precision",
                     tuple(out), (0.0, 1.0), (0.0, 1.0),
                     operating=lambda ev, c, v: (v["tpr"], v["ppv"]))


def _prg_data(models: Models) -> ChartData:
    out = []
    for name, ev in models:
        c = ev.prg()
        rg, pg = c.recall_gain, c.precision_gain
        with np.errstate(invalid="ignore"):
            start = int(np.argmax(rg >= 0))
        x, y = rg[start:], pg[start:]
        out.append(_series(x, y, f"PRG, AUPRG = {_fmt(c.area())}", name))
    out.append(_series([0.0, 1.0], [0.0, 0.0], "random (precision gain 0)", shared=True))
    return ChartData("prg", "Precision-recall-gain", "recall gain", "precision gain",
                     tuple(out), (0.0, 1.0), (0.0, 1.0))


def _case_axes(models: Models, normalize: bool) -> tuple[str, str]:
    weighted = any(ev.table.weighted for _, ev in models)
    if normalize:
        return (("fraction of the weight selected" if weighted else
                 "fraction of cases selected"),
                "fraction of the positive weight found" if weighted else
                "fraction of positives found")
    return (("weight of the cases selected" if weighted else "cases selected") + " (top-ranked)",
            "weight of the positives found" if weighted else "positives found")


def _gain_data(models: Models, *, normalize: bool = False) -> ChartData:
    out: list[Series] = []
    seen: list[tuple[float, float]] = []
    for name, ev in models:
        t, c = ev.table, ev.gain()
        sx, sy = (1.0 / t.total, 1.0 / t.P if t.P > 0 else 1.0) if normalize else (1.0, 1.0)
        average = f", average gain = {_fmt(c.average())}" if t.P > 0 and t.N > 0 else ""
        out.append(_series(c.n_selected * sx, c.positives * sy, f"gain{average}", name))
        end = (1.0, 1.0) if normalize else (float(t.total), float(t.P))
        if not any(np.allclose(end, e) for e in seen):
            seen.append(end)
            out.append(_series([0.0, end[0]], [0.0, end[1]], "random" if normalize else
                               f"random (n = {end[0]:g}, P = {end[1]:g})", style="dashed",
                               shared=True))

    def operating(ev: Evaluation, c: Confusion, v: Mapping[str, FloatArray]
                  ) -> tuple[FloatArray, FloatArray]:
        t = ev.table
        sx, sy = (1.0 / t.total, 1.0 / t.P if t.P > 0 else 1.0) if normalize else (1.0, 1.0)
        return (np.asarray(c.tp + c.fp) * sx, np.asarray(c.tp) * sy)

    xlabel, ylabel = _case_axes(models, normalize)
    return ChartData("gain", "Gain chart", xlabel, ylabel, tuple(out), (0.0, None), (0.0, None),
                     operating=operating)


def _lift_data(models: Models, *, normalize: bool = False) -> ChartData:
    out: list[Series] = []
    right = 0.0
    for name, ev in models:
        t, c = ev.table, ev.lift()
        sx = 1.0 / t.total if normalize else 1.0
        out.append(_series(c.n_selected * sx, c.lift,
                           f"lift, average lift = {_fmt(c.average())}", name))
        right = max(right, float(t.total) * sx)
    out.append(_series([0.0, right], [1.0, 1.0], "random (lift 1)", style="dashed", shared=True))

    def operating(ev: Evaluation, c: Confusion, v: Mapping[str, FloatArray]
                  ) -> tuple[FloatArray, FloatArray]:
        sx = 1.0 / ev.table.total if normalize else 1.0
        return np.asarray(c.tp + c.fp) * sx, v["lift"]  # lift = PPV / prevalence

    return ChartData("lift", "Lift chart", _case_axes(models, normalize)[0], "lift",
                     tuple(out), (0.0, None), (0.0, None), operating=operating)


def _loss_data(models: Models, *, center: float | Literal["threshold"] = 0.0,
               max_points: int | None = 2000) -> ChartData:
    data = [_case_losses(ev.table, _center(ev, center)) for _, ev in models]
    lo = min(-1.5, *(float(d["margin"][0]) - 0.25 for d in data))
    hi = max(1.5, *(float(d["margin"][-1]) + 0.25 for d in data))
    where = ("s - threshold" if isinstance(center, str) else
             f"s - {center:g}" if center else "s")
    out = [_series([lo, 1.0, hi], [1.0 - lo, 0.0, 0.0], f"hinge loss max(0, 1 - y ({where}))"
                   if center else "hinge loss max(0, 1 - y s)", shared=True),
           _series([lo, 0.0, 0.0, hi], [1.0, 1.0, 0.0, 0.0], "0-1 loss", style="dashed",
                   shared=True)]
    for (name, ev), d in zip(models, data, strict=True):
        keep = _thin(d["margin"].size, max_points)
        mean_h, mean_01 = mean_losses(ev, _center(ev, center))
        out.append(_series(d["margin"][keep], d["hinge"][keep],
                           f"cases, mean hinge = {mean_h:.3f}", name, "points"))
        out.append(_series(d["margin"][keep], d["zero_one"][keep],
                           f"cases, mean 0-1 = {mean_01:.3f}", name, "points"))
    return ChartData("loss", "Hinge and 0-1 loss",
                     f"margin y ({where})" if center else "margin y s", "loss", tuple(out),
                     (lo, hi), (0.0, None))


def _reliability_data(models: Models, *, n_bins: int = 10,
                      strategy: Literal["uniform", "quantile"] = "uniform") -> ChartData:
    out = []
    for name, ev in models:
        tab = reliability_table(ev, n_bins=n_bins, strategy=strategy)
        label = f"{len(tab)} bins ({strategy})"
        out.append(_series(tab.mean_predicted, tab.observed, label, name))
        out.append(_series(tab.mean_predicted, tab.observed, label, name, "points"))
    out.append(_series([0.0, 1.0], [0.0, 1.0], "perfectly calibrated", style="dashed",
                       shared=True))
    return ChartData("reliability", "Reliability diagram", "mean predicted probability",
                     "fraction of positives", tuple(out), (0.0, 1.0), (0.0, 1.0))


def _left_out(kind: str, name: str | None, ev: Evaluation) -> str:
    who = f"model {name!r}" if name else "the evaluation"
    t = ev.table
    if kind in _PROBABILITIES and not t.probabilities_ok:
        why = (f"its scores range over [{t.scores[-1]:g}, {t.scores[0]:g}], not probabilities "
               "in [0, 1]")
    else:
        why = f"it has no {'positives' if t.P == 0 else 'negatives'}"
    return f"{kind} chart: {who} is left out: {why}"


#: The numbers of each kind of :data:`KINDS` for other renderers: kind -> function
#: ``(models, **options) -> ChartData`` (:func:`chart_data` calls it). None for the kinds
#: the HTML report shows from its slider's values: "measure" (its measure chart) and
#: "confusion_matrix" (its table).
CHART_DATA: Mapping[str, Callable[..., ChartData] | None] = MappingProxyType({
    "roc": _roc_data,
    "threshold": _threshold_data,
    "pr": _pr_data,
    "prg": _prg_data,
    "gain": _gain_data,
    "lift": _lift_data,
    "loss": _loss_data,
    "reliability": _reliability_data,
    "measure": None,
    "confusion_matrix": None,
})


def chart_data(kind: str, ev_or_models: Any, **options: Any) -> ChartData:
    """The numbers the chart ``kind`` draws, in data units, for another renderer.

    The same curves as the plot functions (step functions expanded by
    :func:`step_vertices`; only the AP step line of the precision-recall chart);
    models the kind cannot draw (one class only; scores that are not
    probabilities for "reliability") are left out with a note instead of an error.

    Parameters
    ----------
    kind : str
        A kind of :data:`KINDS` whose :data:`CHART_DATA` entry is not None.
    ev_or_models : Evaluation or mapping name -> Evaluation
    **options
        ``normalize`` (gain, lift), ``center`` and ``max_points`` (loss),
        ``n_bins`` and ``strategy`` (reliability).

    Returns
    -------
    ChartData

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> tpr = bm.plot.chart_data("threshold", ev).series[0]
    >>> tpr.label, tpr.x[1:5].tolist(), tpr.y[:5].tolist()  # steps: 0 above .95, then .2
    ('TPR', [0.95, 0.95, 0.8, 0.8], [0.0, 0.0, 0.2, 0.2, 0.4])
    """
    key = kind.strip().lower().replace("-", "_").replace(" ", "_") if isinstance(kind, str) \
        else None
    func = CHART_DATA.get(key) if key is not None else None
    if func is None:
        has = [k for k, f in CHART_DATA.items() if f is not None]
        raise ValueError(f"chart_data: no chart data for kind {kind!r}; the kinds with data: "
                         f"{', '.join(has)}")
    assert key is not None
    models = _models(ev_or_models, f"chart_data({key!r})")
    fit = [(name, ev) for name, ev in models if key in kinds(ev)]
    notes = tuple(_left_out(key, name, ev) for name, ev in models if key not in kinds(ev))
    if not fit:
        return ChartData(key, key, "", "", (), notes=notes)
    data: ChartData = func(fit, **options)
    return replace(data, notes=notes)


# --- the registry ---------------------------------------------------------------------------
#: The plot kinds of an evaluation: name -> function(ev_or_models, *, ax=None, ...).
#: ``Evaluation.plot``, the HTML report and the CLI read this; nothing else lists them.
KINDS: Mapping[str, Callable[..., Any]] = MappingProxyType({
    "roc": roc,
    "threshold": threshold,
    "pr": pr,
    "prg": prg,
    "gain": gain,
    "lift": lift,
    "loss": loss,
    "reliability": reliability,
    "measure": measure,
    "confusion_matrix": confusion_matrix,
})

if list(CHART_DATA) != list(KINDS):  # pragma: no cover - a guard on the two tables
    raise RuntimeError("plot.CHART_DATA must list the kinds of plot.KINDS, in its order")

#: kinds that need both classes, and those that need probabilities
_BOTH_CLASSES = frozenset({"roc", "threshold", "pr", "prg", "lift"})
_PROBABILITIES = frozenset({"reliability"})


def kinds(ev: Any = None) -> list[str]:
    """The plot kinds, in :data:`KINDS` order; given an evaluation, those that can draw it
    (the curves need both classes, the reliability diagram probabilities; a
    :class:`~binmetrics.MulticlassEvaluation` has its confusion matrix).

    Examples
    --------
    >>> import binmetrics as bm
    >>> bm.plot.kinds()  # doctest: +NORMALIZE_WHITESPACE
    ['roc', 'threshold', 'pr', 'prg', 'gain', 'lift', 'loss', 'reliability', 'measure',
     'confusion_matrix']
    >>> "reliability" in bm.plot.kinds(bm.evaluate([1, 0, 1], [2.5, -1.0, 0.3]))
    False
    """
    from binmetrics.evaluation.multiclass import MulticlassEvaluation

    if ev is None:
        return list(KINDS)
    if isinstance(ev, MulticlassEvaluation):
        return ["confusion_matrix"]
    t = ev.table
    both = t.P > 0 and t.N > 0
    return [k for k in KINDS if (both or k not in _BOTH_CLASSES)
            and (t.probabilities_ok or k not in _PROBABILITIES)]


def draw(kind: str, ev_or_models: Any, *, ax: Any = None, **kwargs: Any) -> Any:
    """Draw the plot ``kind`` of :data:`KINDS`: ``draw("roc", ev)`` is ``roc(ev)``.

    Kind names ignore case, and spaces or hyphens stand for underscores
    ("confusion matrix").

    Examples
    --------
    >>> import binmetrics as bm
    >>> bm.plot.draw("rco", bm.evaluate([1, 0], [0.8, 0.3]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown plot kind 'rco' (did you mean 'roc'?); the kinds: roc, threshold, ...
    """
    key = kind.strip().lower().replace("-", "_").replace(" ", "_") if isinstance(kind, str) \
        else None
    func = KINDS.get(key) if key is not None else None
    if func is None:
        import difflib

        close = difflib.get_close_matches(str(key or kind), list(KINDS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ValueError(f"unknown plot kind {kind!r}{hint}; the kinds: {', '.join(KINDS)}")
    return func(ev_or_models, ax=ax, **kwargs)
