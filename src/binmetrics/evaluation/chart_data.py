"""The plot kinds of an evaluation, each declared once: its data producer, registered
with :func:`~binmetrics.evaluation.plot_kinds.register_plot_kind`, in the order
``bm.plot.kinds()`` lists them.

Each ``<kind>_data(models, **options)`` gives the chart's numbers
(:class:`~binmetrics.chart.ChartData`); ``models`` is a list of ``(name or None,
Evaluation)``. The curves' kinds join each model's ``curve.chart()``
(:func:`~binmetrics.chart.combine`), so ``ev.roc().plot()``, ``ev.plot("roc")`` and
the HTML report draw the same series; the others (loss, the measure chart, the
confusion matrix) are computed here. :func:`reliability_table` and :func:`mean_losses`
are the numbers of the reliability diagram and of the loss chart's legend.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from binmetrics.chart import (
    ChartData,
    Heatmap,
    Series,
    combine,
    histogram_outline,
    series,
    step_vertices,
)
from binmetrics.curves import ThresholdCurves
from binmetrics.curves.calibration import HISTOGRAM_LABEL
from binmetrics.curves.core import PR_NAMES, case_axes, threshold_axis
from binmetrics.evaluation.chart_inputs import FloatArray, Models, label, rule_label, table_cut
from binmetrics.evaluation.plot_kinds import register_plot_kind
from binmetrics.exceptions import undefined_policy
from binmetrics.measures import get_measure
from binmetrics.validation import check_count, check_threshold

if TYPE_CHECKING:
    import pandas as pd

    from binmetrics.table.counts import CountTable

__all__ = [
    "HISTOGRAM_LABEL",
    "PR_NAMES",
    "ChartData",
    "Series",
    "case_axes",
    "confusion_matrix_data",
    "decision_curve_data",
    "gain_data",
    "histogram_outline",
    "lift_data",
    "loss_data",
    "mean_losses",
    "measure_data",
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


def pr_line(ev: Any, method: str) -> tuple[FloatArray, FloatArray]:
    """The PR curve of one area estimator (a key of :data:`PR_NAMES`):
    ``ev.pr().line(method)``."""
    return ev.pr().line(method)


def _same_cases(models: Sequence[tuple[str | None, Any]]) -> bool:
    return len({(ev.table.total, ev.table.P) for _, ev in models}) == 1


def _gain_report(models: Sequence[tuple[str | None, Any]], max_points: int) -> dict[str, Any]:
    return {"normalize": not _same_cases(models)}  # counts compare only on the same cases


# --- the curves ---------------------------------------------------------------------------------
@register_plot_kind("roc", title="ROC curve",
                    description="ROC curve, convex hull, random line; shade= fills the "
                                "AUC, Gini or AUCH area (Berrar Fig. 5a, 6a-c)",
                    needs_both_classes=True)
def roc_data(models: Models, *, hull: bool = True,
             shade: str | Sequence[str] | None = None) -> ChartData:
    """Each model's ROC curve and, with ``hull``, its convex hull; the random line;
    ``shade``: the areas "auc", "gini", "auch" filled (Berrar Fig. 6a-c)."""
    return combine([(name, ev.roc().chart(hull=hull, shade=shade)) for name, ev in models])


@register_plot_kind("threshold", title="TPR and FPR against the threshold",
                    description="TPR and FPR against the threshold, KS gap marked (Fig. 5b)",
                    needs_both_classes=True)
def threshold_data(models: Models) -> ChartData:
    """Each model's TPR and FPR against the threshold (steps) and its KS gap."""
    return combine([(name, ev.threshold_curves().chart()) for name, ev in models],
                   xlabel=rule_label(models))


@register_plot_kind("pr", title="precision-recall curve",
                    description="precision-recall: AP step and trapezoid estimators "
                                "(Fig. 5c, 6d)",
                    needs_both_classes=True,
                    report_options=lambda models, max_points: {"interpolation": "step"})
def pr_data(models: Models, *,
            interpolation: str | Sequence[str] = ("step", "min", "max", "minmax")) -> ChartData:
    """Each model's curve of each area estimator (``PRCurve.line``); the random line at
    each prevalence."""
    return combine([(name, ev.pr().chart(interpolation=interpolation)) for name, ev in models])


@register_plot_kind("prg", title="precision-recall-gain curve",
                    description="precision-recall-gain curve (Flach & Kull 2015)",
                    needs_both_classes=True)
def prg_data(models: Models) -> ChartData:
    """Each model's precision-recall-gain curve (recall gain >= 0)."""
    return combine([(name, ev.prg().chart()) for name, ev in models])


@register_plot_kind("gain", title="gain chart",
                    description="gain chart with the random line (Fig. 4a)",
                    report_options=_gain_report)
def gain_data(models: Models, *, normalize: bool = False) -> ChartData:
    """Each model's gain curve and the random line of each (n, P)."""
    xlabel, ylabel = case_axes(any(ev.table.weighted for _, ev in models), normalize)
    return combine([(name, ev.gain().chart(normalize=normalize)) for name, ev in models],
                   xlabel=xlabel, ylabel=ylabel)


@register_plot_kind("lift", title="lift chart",
                    description="lift chart with the random line at 1 (Fig. 4b)",
                    needs_both_classes=True, report_options=_gain_report)
def lift_data(models: Models, *, normalize: bool = False) -> ChartData:
    """Each model's lift curve and the random line at 1."""
    xlabel = case_axes(any(ev.table.weighted for _, ev in models), normalize)[0]
    return combine([(name, ev.lift().chart(normalize=normalize)) for name, ev in models],
                   xlabel=xlabel)


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


def _center(ev: Any, center: float | Literal["threshold"]) -> float:
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


def mean_losses(ev: Any, center: float = 0.0) -> tuple[float, float]:
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
    from binmetrics.table.counts import CountTable as Table

    t = ev.table
    if center == 0.0:
        hinge = ev["hinge_loss"]
    else:  # the same table with the scores shifted (sums only: no order is needed)
        m = get_measure("hinge_loss")
        shifted = Table(t.scores - center, t.pos, t.neg, weighted=t.weighted,
                             _trusted=True, _totals=(t.P, t.N))
        hinge = float(m.func(shifted, **m.resolve_params()))
    # at_threshold reads the scores' own units: un-negate the table's cut
    user = ev.oriented(center)
    with warnings.catch_warnings():  # the loss plot's centre may lie outside the scores
        warnings.filterwarnings("ignore", message=r"threshold .* is outside the scores'")
        at_center = ev.at_threshold(user)
    return float(hinge), float(at_center["error_rate"])


# --- reliability ----------------------------------------------------------------------------
def reliability_table(ev: Any, *, n_bins: int = 10,
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
    >>> tab.fraction_positive.tolist(), tab.mean_predicted.round(3).tolist()
    ([0.0, 0.5, 1.0], [0.2, 0.525, 0.85])
    """
    n_bins = check_count(n_bins, "n_bins")
    if strategy not in ("uniform", "quantile"):
        raise ValueError(f"strategy must be 'uniform' or 'quantile', got {strategy!r}")
    frame = ev.reliability(n_bins=n_bins, strategy=strategy).to_frame()
    return frame[["low", "high", "mean_predicted", "fraction_positive", "weight"]]



@register_plot_kind("loss", title="hinge and 0-1 loss",
                    description="hinge and 0-1 loss of each case against its margin "
                                "(Fig. 7, 8b)",
                    report_options=lambda models, max_points: {"center": "threshold",
                                                               "max_points": max_points})
def loss_data(models: Models, *, center: float | Literal["threshold"] = 0.0,
              max_points: int | None = 2000) -> ChartData:
    """The hinge and 0-1 loss functions (black), and each model's cases on them (at most
    ``max_points`` of each, evenly spaced in margin order; circles on the hinge loss,
    squares on the 0-1 loss), their means in the labels."""
    c0 = _check_center(center)
    if max_points is not None:
        max_points = check_count(max_points, "max_points")
    data = [_case_losses(ev.table, _center(ev, c0)) for _, ev in models]
    lo = min(-1.5, *(float(d["margin"][0]) - 0.25 for d in data))
    hi = max(1.5, *(float(d["margin"][-1]) + 0.25 for d in data))
    where = ("s - threshold" if isinstance(c0, str) else
             f"s - {c0:g}" if c0 else "s")
    out = [series([lo, 1.0, hi], [1.0 - lo, 0.0, 0.0], f"hinge loss max(0, 1 - y ({where}))"
                  if c0 else "hinge loss max(0, 1 - y s)", shared=True, color="black",
                  width=1.5),
           series([lo, 0.0, 0.0, hi], [1.0, 1.0, 0.0, 0.0], "0-1 loss", style="dashed",
                  shared=True, color="black", width=1.5)]
    dots = {"s": 25, "zorder": 3, "edgecolors": "k", "linewidths": 0.5}
    for (name, ev), d in zip(models, data, strict=True):
        keep = _thin(d["margin"].size, max_points)
        mean_h, mean_01 = mean_losses(ev, _center(ev, c0))
        out.append(series(d["margin"][keep], d["hinge"][keep],
                          f"cases, mean hinge = {mean_h:.3f}", name, "points", marker="o",
                          extra=dots))
        out.append(series(d["margin"][keep], d["zero_one"][keep],
                          f"cases, mean 0-1 = {mean_01:.3f}", name, "points", marker="s",
                          extra=dots))
    return ChartData("loss", "Hinge and 0-1 loss",
                     f"margin y ({where})" if c0 else "margin y s", "loss", tuple(out),
                     (lo, hi), (0.0, None), legend="upper right")


@register_plot_kind("reliability", title="reliability diagram",
                    description="calibration diagram (binned mean prediction vs. observed "
                                "rate)",
                    needs_probabilities=True)
def reliability_data(models: Models, *, n_bins: int = 10,
                     strategy: Literal["uniform", "quantile"] = "uniform",
                     counts: bool | None = None, histogram: bool = True) -> ChartData:
    """Each model's reliability diagram (``Reliability.chart``): the bins' points, their
    shares of the cases as bars (``histogram``) and, by default for one model only, the
    cases per bin (``counts``); the diagonal."""
    n_bins = check_count(n_bins, "n_bins")
    if strategy not in ("uniform", "quantile"):
        raise ValueError(f"strategy must be 'uniform' or 'quantile', got {strategy!r}")
    write = len(models) == 1 if counts is None else bool(counts)
    return combine([(name, ev.reliability(n_bins=n_bins, strategy=strategy).chart(
        histogram=histogram, counts=write)) for name, ev in models])


@register_plot_kind("decision_curve", title="decision curve",
                    description="net benefit against the threshold probability, treat all "
                                "and treat none",
                    needs_both_classes=True, needs_probabilities=True)
def decision_curve_data(models: Models, *, thresholds: Any = None) -> ChartData:
    """Each model's net benefit against the threshold probability (``ev.decision_curve``,
    Vickers & Elkin 2006), treat all (once when the models share their prevalence) and
    treat none."""
    return combine([(name, ev.decision_curve(thresholds).chart()) for name, ev in models])


# --- any confusion measure against the threshold -----------------------------------------------
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


_MEASURE_STYLES: tuple[Literal["solid", "dashed", "dashdot", "dotted"], ...] = (
    "solid", "dashed", "dashdot", "dotted")


@register_plot_kind("measure", title="measure against the threshold",
                    description="any confusion measure against the threshold",
                    in_report=False)
def measure_data(models: Models, *, measure: str | Sequence[str] = "f1",
                 mark_best: bool = True, **params: Any) -> ChartData:
    """Each model's confusion measures against the threshold (steps through the distinct
    scores, ``ThresholdCurves.measure``; NaN where undefined leaves a gap) and, with
    ``mark_best``, the threshold that optimises each (as ``Evaluation.best_threshold``)."""
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
    out = []
    for name, ev in models:
        with undefined_policy("ignore"):  # TPR and FPR, unused here, need both classes
            curves = ev.in_user_units(ThresholdCurves.from_table(ev.table))
        x = threshold_axis(curves.thresholds)
        for j, m in enumerate(chosen):
            y = curves.measure(m.id, **{k: v for k, v in params.items() if k in m.params})
            out.append(series(x, y, m.id, name, _MEASURE_STYLES[j % 4], steps="post"))
            if mark_best and m.direction != 0 and not np.all(np.isnan(y)):
                k = int(np.nanargmax(y) if m.direction > 0 else np.nanargmin(y))
                out.append(series([x[k]], [y[k]],
                                  f"best {m.id} = {y[k]:.3f} at {curves.thresholds[k]:g}",
                                  name, "markers", marker="*", extra={"markersize": 10}))
    crowded = sum(ev.table.n_distinct for _, ev in models) > 1000
    return ChartData("measure", f"{', '.join(m.id for m in chosen)} against the threshold",
                     rule_label(models), chosen[0].name if len(chosen) == 1 else "value",
                     tuple(out), threshold_axis=True,
                     legend="upper right" if crowded else "best")


# --- the confusion matrix -----------------------------------------------------------------------
@register_plot_kind("confusion_matrix", title="confusion matrix",
                    description="the confusion matrix as a heatmap (k x k for a multiclass "
                                "model)",
                    multiclass=True, in_report=False)
def confusion_matrix_data(models: Models, *, threshold: float | None = None,
                          cmap: str = "Blues") -> ChartData:
    """The confusion matrix of one model: counts and row percentages in each cell (rows
    actual, columns predicted; a binary one positive first at ``threshold``, default the
    evaluation's own; a multiclass one k x k, argmax predictions)."""
    from binmetrics.evaluation.chart_inputs import MulticlassSource

    if len(models) != 1:
        raise ValueError(f"plot.confusion_matrix draws one model; got {len(models)} "
                         "(draw each on its own Axes)")
    ((name, obj),) = models
    if isinstance(obj, MulticlassSource):
        if threshold is not None:
            raise ValueError("plot.confusion_matrix: a multiclass prediction is the argmax; "
                             "threshold does not apply")
        cm = obj.confusion_matrix.to_numpy(dtype=np.float64)
        labels = tuple(str(c) for c in obj.classes)
        weighted = obj.weighted
        title = "Confusion matrix"
    else:
        th = obj.threshold if threshold is None else check_threshold(threshold)
        c = obj.table.confusion(table_cut(obj, th))
        cm = np.array([[c.tp, c.fn], [c.fp, c.tn]], dtype=np.float64)
        labels = ("positive", "negative")
        weighted = obj.table.weighted
        title = f"Confusion matrix, {obj.rule.replace('threshold', f'{th:g}')} positive"
    rows = cm.sum(axis=1, keepdims=True)
    share = np.divide(cm, rows, out=np.full_like(cm, np.nan), where=rows > 0)
    texts = tuple(tuple((f"{cm[r, k]:.4g}" if weighted else f"{cm[r, k]:.0f}")
                        + ("" if np.isnan(share[r, k]) else f"\n{100 * share[r, k]:.1f}%")
                        for k in range(cm.shape[1])) for r in range(cm.shape[0]))
    return ChartData("confusion_matrix", label(name, title), "predicted", "actual", (),
                     heatmap=Heatmap(share, texts, labels, labels, cmap), legend=None)


# the per-case kind (Berrar Fig. 8b) and the chosen cut's are declared after the kinds above
from binmetrics.evaluation import chart_cases, chart_thresholds  # noqa: E402, F401

register_plot_kind("best_threshold", **chart_thresholds.KIND)(
    chart_thresholds.best_threshold_data)
