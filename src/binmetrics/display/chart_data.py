"""The numbers of the charts, without matplotlib: :class:`ChartData` and its
:class:`Series`, one function per kind of chart, and the tables behind them.

Each ``<kind>_data(models, **options)`` function gives the lines a plot function of
:mod:`binmetrics.plot` draws, in data units (step functions expanded into their
vertices by :func:`step_vertices`); ``models`` is a list of ``(name or None,
Evaluation)``. They are the ``data`` of the plot kinds declared in
:mod:`binmetrics.display.plot` (its :data:`~binmetrics.display.plot.CHART_DATA`),
which :func:`binmetrics.plot.chart_data` calls, and the HTML report
(:mod:`binmetrics.display.report`) draws its charts from them, so the report and the
plots show the same lines. :func:`reliability_table` and :func:`mean_losses` are the
numbers of the reliability diagram and of the loss chart's legend.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from binmetrics.display._plotting import FloatArray, Models, fmt
from binmetrics.measures import get_measure
from binmetrics.measures import ranking as rk
from binmetrics.validation import check_count, check_threshold

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.evaluation.binary import Evaluation
    from binmetrics.table.counts import Confusion, CountTable

__all__ = [
    "HISTOGRAM_LABEL",
    "PR_NAMES",
    "ChartData",
    "Operating",
    "Series",
    "SeriesStyle",
    "case_axes",
    "decision_curve_data",
    "gain_data",
    "histogram_outline",
    "lift_data",
    "loss_data",
    "mean_losses",
    "pr_data",
    "pr_line",
    "prg_data",
    "reliability_data",
    "reliability_table",
    "roc_data",
    "step_vertices",
    "threshold_axis",
    "threshold_data",
]

SeriesStyle = Literal["solid", "dashed", "dotted", "points", "segment"]
#: ``operating(ev, confusion, values)``: the operating point of ``ev`` at some thresholds,
#: from their confusion matrices and the registry's confusion measures there
Operating = Callable[["Evaluation", "Confusion", Mapping[str, FloatArray]],
                     tuple[FloatArray, FloatArray]]

#: The estimators of the area under the precision-recall curve (``pr_line`` methods),
#: as the legends name them
PR_NAMES = {"step": "AP (step)", "min": "AUCPR min", "max": "AUCPR max",
            "minmax": "AUCPR minmax", "linear": "linear", "davis_goadrich": "Davis-Goadrich"}


# --- the series of a chart ------------------------------------------------------------------
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
    """The numbers a chart of :data:`~binmetrics.display.plot.KINDS` draws, for
    renderers other than matplotlib (the HTML report reads them, so its charts and
    these plots cannot disagree).

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


# --- axes and lines shared with the plot functions -------------------------------------------
def threshold_axis(thresholds: FloatArray) -> FloatArray:
    """The x values of every cut on a chart against the threshold: the distinct scores,
    and for cut 0 (threshold +inf, nothing positive) a point just right of the highest
    score; when lower scores mean positive (cut 0 at -inf, the scores ascending), just
    left of the lowest.

    Examples
    --------
    >>> threshold_axis(np.array([np.inf, 0.9, 0.5, 0.1])).round(3).tolist()
    [0.94, 0.9, 0.5, 0.1]
    >>> threshold_axis(np.array([-np.inf, -9.0, -8.0, -5.0])).round(3).tolist()
    [-9.2, -9.0, -8.0, -5.0]
    """
    s = thresholds[1:]
    span = abs(float(s[0] - s[-1]))
    pad = 0.05 * span if span > 0 else max(0.05 * abs(float(s[0])), 0.05)
    side = 1.0 if thresholds[0] > 0 else -1.0
    return np.concatenate(([s[0] + side * pad], s))


def pr_line(ev: Evaluation, method: str) -> tuple[FloatArray, FloatArray]:
    """The PR curve of one area estimator (a key of :data:`PR_NAMES`): the trapezoid
    rule on it gives the area (for "step": steps-pre, each precision held back to the
    previous recall)."""
    pr_ = ev.pr()
    if method in ("step", "linear"):  # from recall 0 at the first point's precision
        return (np.concatenate(([0.0], pr_.recall)),
                np.concatenate(([pr_.precision[0]], pr_.precision)))
    if method == "davis_goadrich":
        return _davis_goadrich_line(ev.table)
    r, pmin, pmax = rk.recall_levels(ev.table)  # the levels the estimators integrate
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


def case_axes(models: Models, normalize: bool) -> tuple[str, str]:
    """The axis labels of the gain and lift charts: cases or weight, counts or fractions."""
    weighted = any(ev.table.weighted for _, ev in models)
    if normalize:
        return (("fraction of the weight selected" if weighted else
                 "fraction of cases selected"),
                "fraction of the positive weight found" if weighted else
                "fraction of positives found")
    return (("weight of the cases selected" if weighted else "cases selected") + " (top-ranked)",
            "weight of the positives found" if weighted else "positives found")


# --- hinge and 0-1 loss -------------------------------------------------------------------
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
    return ev.cut if isinstance(center, str) else float(center)


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
    shifted by ``center``, and ``error_rate`` at threshold ``center``. ``s`` and
    ``center`` are the table's scores: the negated ones when lower scores mean positive
    (so the 0-1 loss at ``center=ev.cut`` is ``ev["error_rate"]``).

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
    # at_threshold reads the scores' own units: un-negate the table's cut
    user = ev.oriented(center)
    with warnings.catch_warnings():  # the loss plot's centre may lie outside the scores
        warnings.filterwarnings("ignore", message=r"threshold .* is outside the scores'")
        at_center = ev.at_threshold(user)
    return float(hinge), float(at_center["error_rate"])


# --- reliability ----------------------------------------------------------------------------
def reliability_table(ev: Evaluation, *, n_bins: int = 10,
                      strategy: Literal["uniform", "quantile"] = "uniform") -> pd.DataFrame:
    """The numbers of the reliability diagram: one row per non-empty bin, read from
    ``ev.reliability(n_bins, strategy)`` (:class:`~binmetrics.curves.Reliability`,
    which adds Wilson intervals).

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
    n_bins = check_count(n_bins, "n_bins")
    if strategy not in ("uniform", "quantile"):
        raise ValueError(f"strategy must be 'uniform' or 'quantile', got {strategy!r}")
    frame = ev.reliability(n_bins=n_bins, strategy=strategy).to_frame()
    return frame[["low", "high", "mean_predicted", "observed", "weight"]]


# --- the data of each kind ----------------------------------------------------------------
def roc_data(models: Models) -> ChartData:
    """The ROC curve and its convex hull of each model, and the random line."""
    out = []
    for name, ev in models:
        c = ev.roc()
        h = c.hull()
        out.append(_series(c.fpr, c.tpr, f"ROC, AUC = {fmt(c.area())}", name))
        out.append(_series(h.fpr, h.tpr, f"convex hull, AUCH = {fmt(h.area())}", name,
                           "dashed"))
    out.append(_series([0.0, 1.0], [0.0, 1.0], "random", shared=True))
    return ChartData("roc", "ROC curve and convex hull", "false positive rate (1 - specificity)",
                     "true positive rate (sensitivity)", tuple(out), (0.0, 1.0), (0.0, 1.0),
                     operating=lambda ev, c, v: (v["fpr"], v["tpr"]))


def threshold_data(models: Models) -> ChartData:
    """TPR and FPR against the threshold (steps) and the KS gap of each model."""
    out = []
    for name, ev in models:
        c = ev.threshold_curves()
        x = threshold_axis(c.thresholds)  # as plot.threshold: steps-post
        out.append(_series(*step_vertices(x, c.tpr, "post"), "TPR", name))
        out.append(_series(*step_vertices(x, c.fpr, "post"), "FPR", name, "dashed"))
        t_ks, ks = c.ks()
        if np.isfinite(t_ks):
            k = int(np.nanargmax(np.abs(c.tpr - c.fpr)))  # where ks() found the gap
            out.append(_series([t_ks, t_ks], [c.fpr[k], c.tpr[k]],
                               f"KS = {ks:.3f} at {t_ks:g}", name, "segment"))
    return ChartData("threshold", "TPR and FPR against the threshold (KS gap)",
                     "threshold (score >= threshold is positive)",
                     "TPR (solid), FPR (dashed)", tuple(out), ylim=(0.0, 1.0),
                     threshold_axis=True)


def pr_data(models: Models) -> ChartData:
    """The AP step line of each model and the random line at each prevalence."""
    out: list[Series] = []
    prevalences: list[float] = []
    for name, ev in models:
        x, y = step_vertices(*pr_line(ev, "step"), "pre")  # as plot.pr: steps-pre
        out.append(_series(x, y, f"{PR_NAMES['step']} = {fmt(ev.pr().area('step'))}", name))
        prev = float(ev.table.prevalence)
        if not any(np.isclose(prev, p) for p in prevalences):
            prevalences.append(prev)
            out.append(_series([0.0, 1.0], [prev, prev], f"random (prevalence {prev:.3g})",
                               style="dotted", shared=True))
    return ChartData("pr", "Precision-recall (AP step)", "recall (sensitivity)", "precision",
                     tuple(out), (0.0, 1.0), (0.0, 1.0),
                     operating=lambda ev, c, v: (v["tpr"], v["ppv"]))


def prg_data(models: Models) -> ChartData:
    """The precision-recall-gain curve of each model (recall gain >= 0)."""
    out = []
    for name, ev in models:
        c = ev.prg()
        rg, pg = c.recall_gain, c.precision_gain
        with np.errstate(invalid="ignore"):
            start = int(np.argmax(rg >= 0))
        x, y = rg[start:], pg[start:]
        out.append(_series(x, y, f"PRG, AUPRG = {fmt(c.area())}", name))
    out.append(_series([0.0, 1.0], [0.0, 0.0], "random (precision gain 0)", shared=True))
    return ChartData("prg", "Precision-recall-gain", "recall gain", "precision gain",
                     tuple(out), (0.0, 1.0), (0.0, 1.0))


def gain_data(models: Models, *, normalize: bool = False) -> ChartData:
    """The gain curve of each model and the random line of each (n, P)."""
    out: list[Series] = []
    seen: list[tuple[float, float]] = []
    for name, ev in models:
        t, c = ev.table, ev.gain()
        sx, sy = (1.0 / t.total, 1.0 / t.P if t.P > 0 else 1.0) if normalize else (1.0, 1.0)
        average = f", average gain = {fmt(c.average())}" if t.P > 0 and t.N > 0 else ""
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

    xlabel, ylabel = case_axes(models, normalize)
    return ChartData("gain", "Gain chart", xlabel, ylabel, tuple(out), (0.0, None), (0.0, None),
                     operating=operating)


def lift_data(models: Models, *, normalize: bool = False) -> ChartData:
    """The lift curve of each model and the random line at 1."""
    out: list[Series] = []
    right = 0.0
    for name, ev in models:
        t, c = ev.table, ev.lift()
        sx = 1.0 / t.total if normalize else 1.0
        out.append(_series(c.n_selected * sx, c.lift,
                           f"lift, average lift = {fmt(c.average())}", name))
        right = max(right, float(t.total) * sx)
    out.append(_series([0.0, right], [1.0, 1.0], "random (lift 1)", style="dashed", shared=True))

    def operating(ev: Evaluation, c: Confusion, v: Mapping[str, FloatArray]
                  ) -> tuple[FloatArray, FloatArray]:
        sx = 1.0 / ev.table.total if normalize else 1.0
        return np.asarray(c.tp + c.fp) * sx, v["lift"]  # lift = PPV / prevalence

    return ChartData("lift", "Lift chart", case_axes(models, normalize)[0], "lift",
                     tuple(out), (0.0, None), (0.0, None), operating=operating)


def loss_data(models: Models, *, center: float | Literal["threshold"] = 0.0,
              max_points: int | None = 2000) -> ChartData:
    """The hinge and 0-1 loss functions, and each model's cases on them (at most
    ``max_points`` of each, evenly spaced in margin order), their means in the labels."""
    c0 = _check_center(center)
    if max_points is not None:
        max_points = check_count(max_points, "max_points")
    data = [_case_losses(ev.table, _center(ev, c0)) for _, ev in models]
    lo = min(-1.5, *(float(d["margin"][0]) - 0.25 for d in data))
    hi = max(1.5, *(float(d["margin"][-1]) + 0.25 for d in data))
    where = ("s - threshold" if isinstance(c0, str) else
             f"s - {c0:g}" if c0 else "s")
    out = [_series([lo, 1.0, hi], [1.0 - lo, 0.0, 0.0], f"hinge loss max(0, 1 - y ({where}))"
                   if c0 else "hinge loss max(0, 1 - y s)", shared=True),
           _series([lo, 0.0, 0.0, hi], [1.0, 1.0, 0.0, 0.0], "0-1 loss", style="dashed",
                   shared=True)]
    for (name, ev), d in zip(models, data, strict=True):
        keep = _thin(d["margin"].size, max_points)
        mean_h, mean_01 = mean_losses(ev, _center(ev, c0))
        out.append(_series(d["margin"][keep], d["hinge"][keep],
                           f"cases, mean hinge = {mean_h:.3f}", name, "points"))
        out.append(_series(d["margin"][keep], d["zero_one"][keep],
                           f"cases, mean 0-1 = {mean_01:.3f}", name, "points"))
    return ChartData("loss", "Hinge and 0-1 loss",
                     f"margin y ({where})" if c0 else "margin y s", "loss", tuple(out),
                     (lo, hi), (0.0, None))


def reliability_data(models: Models, *, n_bins: int = 10,
                     strategy: Literal["uniform", "quantile"] = "uniform") -> ChartData:
    """The reliability diagram of each model (:func:`reliability_table`) and the diagonal."""
    out = []
    for name, ev in models:
        tab = reliability_table(ev, n_bins=n_bins, strategy=strategy)
        label = f"{len(tab)} bins ({strategy})"
        out.append(_series(tab.mean_predicted, tab.observed, label, name))
        out.append(_series(tab.mean_predicted, tab.observed, label, name, "points"))
        hx, hy = histogram_outline(tab.low, tab.high, tab.weight / ev.table.total)
        out.append(_series(hx, hy, HISTOGRAM_LABEL, name, "dotted"))
    out.append(_series([0.0, 1.0], [0.0, 1.0], "perfectly calibrated", style="dashed",
                       shared=True))
    return ChartData("reliability", "Reliability diagram", "mean predicted probability",
                     "fraction of positives; bars: share of cases", tuple(out), (0.0, 1.0),
                     (0.0, 1.0))


#: The label of the reliability diagram's histogram (the bins' shares of the cases).
HISTOGRAM_LABEL = "share of cases per bin"


def histogram_outline(low: Any, high: Any, height: Any) -> tuple[FloatArray, FloatArray]:
    """The outline of bars from ``low`` to ``high`` of the given heights, as one line
    (down to 0 between bars), for renderers that draw lines only.

    Examples
    --------
    >>> x, y = histogram_outline([0, .5], [.5, 1], [.25, .75])
    >>> x.tolist(), y.tolist()
    ([0.0, 0.0, 0.5, 0.5, 0.5, 0.5, 1.0, 1.0], [0.0, 0.25, 0.25, 0.0, 0.0, 0.75, 0.75, 0.0])
    """
    lo, hi, h = (np.asarray(v, dtype=np.float64).ravel() for v in (low, high, height))
    zero = np.zeros_like(h)
    return (np.column_stack([lo, lo, hi, hi]).ravel(),
            np.column_stack([zero, h, h, zero]).ravel())


def decision_curve_data(models: Models, *, thresholds: Any = None) -> ChartData:
    """Each model's net benefit against the threshold probability (``ev.decision_curve``,
    Vickers & Elkin 2006), treat all (once when the models share their prevalence) and
    treat none; the y axis from a little below 0 to a little above the highest net
    benefit, as dcurves draws it (lines leaving it are clipped)."""
    out: list[Series] = []
    curves = [(name, ev.decision_curve(thresholds)) for name, ev in models]
    one_prevalence = len({dc.prevalence for _, dc in curves}) == 1
    top = 1e-9
    for _, dc in curves:
        (nb,) = dc.net_benefit.values()
        finite = nb[np.isfinite(nb)]  # NaN where a binned table cannot say
        top = max(top, dc.prevalence, float(finite.max()) if finite.size else 0.0)
    for name, dc in curves:
        (nb,) = dc.net_benefit.values()
        out.append(_series(dc.thresholds, nb, "net benefit", name))
        if not one_prevalence:
            out.append(_series(dc.thresholds, dc.treat_all,
                               f"treat all (prevalence {fmt(dc.prevalence)})", name, "dashed"))
    th = curves[0][1].thresholds
    if one_prevalence:
        out.append(_series(th, curves[0][1].treat_all,
                           f"treat all (prevalence {fmt(curves[0][1].prevalence)})",
                           style="dashed", shared=True))
    lo = min(float(dc.thresholds[0]) for _, dc in curves)
    hi = max(float(dc.thresholds[-1]) for _, dc in curves)
    out.append(_series([lo, hi], [0.0, 0.0], "treat none", style="dotted", shared=True))
    return ChartData("decision_curve", "Decision curve", "threshold probability",
                     "net benefit", tuple(out), (lo, hi), (-0.1 * top, 1.05 * top))
