"""The charts of the cases and of the cut-offs, on matplotlib Axes: each case's hinge
and 0-1 loss against its margin (Berrar Figs. 7, 8b), the reliability diagram (with the
share of cases per bin), the decision curve, any confusion measure against the
threshold, and the confusion matrix.

Part of :mod:`binmetrics.plot` (``bm.plot.loss`` ...), which declares the plot kinds;
the numbers of the loss chart and of the reliability diagram are in
:mod:`binmetrics.display.chart_data`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from binmetrics.backends import axes
from binmetrics.curves import ThresholdCurves
from binmetrics.display._plotting import (
    color,
    label,
    models_of,
    operating_threshold,
    rule_label,
    table_cut,
    unit_square,
)
from binmetrics.display.chart_data import (
    decision_curve_data,
    loss_data,
    reliability_table,
    threshold_axis,
)
from binmetrics.exceptions import undefined_policy
from binmetrics.measures import get_measure
from binmetrics.validation import check_threshold

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["confusion_matrix", "decision_curve", "loss", "measure", "reliability"]


# --- decision curve ---------------------------------------------------------------------------
def decision_curve(ev_or_models: Any, *, ax: Any = None, thresholds: Any = None) -> Axes:
    """Decision curve (Vickers & Elkin 2006): each model's net benefit against the
    threshold probability, with treat all and treat none, as the dcurves packages.

    The numbers are :func:`~binmetrics.display.chart_data.decision_curve_data`, from
    ``ev.decision_curve(thresholds)``.

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
        Scores must be probabilities in [0, 1] (a ValueError otherwise).
    ax : matplotlib Axes, optional
    thresholds : array-like in (0, 1), optional
        Default 0.01, 0.02, ..., 0.99.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ax = bm.plot.decision_curve(ev)  # doctest: +SKIP
    """
    models = models_of(ev_or_models, "plot.decision_curve")
    try:
        cd = decision_curve_data(models, thresholds=thresholds)
    except ValueError as exc:
        raise ValueError(f"plot.decision_curve: {exc}") from None
    ax = axes(ax, "plot.decision_curve")
    index = {name: i for i, (name, _) in enumerate(models)}
    for s in cd.series:
        dash = {"solid": "-", "dashed": "--", "dotted": ":"}.get(s.style, "-")
        if s.shared:
            ax.plot(s.x, s.y, color="grey" if s.style == "dashed" else "black",
                    linestyle=dash, linewidth=1.0, label=s.label)
        else:
            ax.plot(s.x, s.y, color=color(index[s.model]), linestyle=dash,
                    label=label(s.model, s.label))
    ax.set_xlim(*cd.xlim)
    ax.set_ylim(*cd.ylim)
    ax.set_xlabel(cd.xlabel)
    ax.set_ylabel(cd.ylabel)
    ax.set_title(cd.title)
    ax.legend(loc="upper right", fontsize="small")
    return ax


# --- hinge and 0-1 loss ---------------------------------------------------------------------
def loss(ev_or_models: Any, *, ax: Any = None, center: float | Literal["threshold"] = 0.0,
         max_points: int | None = 2000) -> Axes:
    """Hinge loss and 0-1 loss against the margin y (s - center), with every case on them
    (Berrar Fig. 7 and Fig. 8b; Def. 35).

    The two loss functions of Berrar Fig. 7 are drawn once, in black (hinge solid,
    0-1 dashed; the margin is the score for y = +1); each case is a marker in its
    model's colour at its margin y (s - center), y in {-1, +1}, on each curve: its
    hinge loss max(0, 1 - y (s - center)) (circles) and its 0-1 loss (squares: 1
    when ``score >= center`` predicts it wrongly). Cases of one class with the same
    score share a marker. The legend gives the (weighted) means from the registry
    (:func:`~binmetrics.display.chart_data.mean_losses`): with ``center=0`` the mean
    hinge loss is the ``hinge_loss`` measure (scores read as signed distances, Berrar
    eq. 44), and the mean 0-1 loss is always the ``error_rate`` at threshold ``center``.

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
    models = models_of(ev_or_models, "plot.loss")
    data = loss_data(models, center=center, max_points=max_points)
    ax = axes(ax, "plot.loss")
    for ser in data.series:
        if ser.shared:
            ax.plot(ser.x, ser.y, color="black", linewidth=1.5,
                    linestyle="--" if ser.style == "dashed" else "-", label=ser.label)
    index = {name: i for i, (name, _) in enumerate(models)}
    for ser in data.series:
        if not ser.shared:
            i = index[ser.model]
            ax.scatter(ser.x, ser.y, s=25, marker="o" if "hinge" in ser.label else "s",
                       zorder=3, color=color(i), edgecolors="k", linewidths=0.5,
                       label=label(ser.model, ser.label))
    ax.set_xlim(*data.xlim)
    ax.set_xlabel(data.xlabel)
    ax.set_ylabel(data.ylabel)
    ax.set_title(data.title)
    ax.legend(loc="upper right", fontsize="small")
    return ax


# --- reliability ----------------------------------------------------------------------------
def reliability(ev_or_models: Any, *, ax: Any = None, n_bins: int = 10,
                strategy: Literal["uniform", "quantile"] = "uniform",
                counts: bool | None = None, histogram: bool = True) -> Axes:
    """Reliability (calibration) diagram: the fraction of positives against the mean
    predicted probability in each bin, with the diagonal of perfect calibration.

    The numbers are :func:`~binmetrics.display.chart_data.reliability_table`
    (scikit-learn's ``calibration_curve`` with sample weights).

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
    histogram : bool, default True
        Bars of each bin's share of the (weighted) cases behind the points.

    Returns
    -------
    matplotlib.axes.Axes
        Per model one line with a marker per non-empty bin (and its bars); the diagonal.

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ax = bm.plot.reliability(ev, n_bins=5)  # doctest: +SKIP
    """
    models = models_of(ev_or_models, "plot.reliability")
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
        if histogram:  # patches, behind the lines: the bins' shares of the cases
            ax.bar(tab.low, tab.weight / ev.table.total, width=tab.high - tab.low,
                   align="edge", color=color(i), alpha=0.15, zorder=0)
        ax.plot(tab.mean_predicted, tab.observed, color=color(i), marker="o", markersize=5,
                label=label(name, f"{len(tab)} bins ({strategy})"))
        if write:
            count = "{:g}" if ev.table.weighted else "{:.0f}"
            for x, y, n in zip(tab.mean_predicted, tab.observed, tab.weight, strict=True):
                ax.annotate(count.format(n), (x, y), textcoords="offset points", xytext=(4, 4),
                            fontsize="x-small", color=color(i))
    ax.plot([0.0, 1.0], [0.0, 1.0], color="grey", linestyle="--", linewidth=1.0,
            label="perfectly calibrated")
    unit_square(ax)
    ax.set_xlabel("mean predicted probability")
    ax.set_ylabel("fraction of positives" + ("; bars: share of cases" if histogram else ""))
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
            **params: Any) -> Axes:
    """Any confusion measure against the threshold (:meth:`ThresholdCurves.measure`).

    Step functions through the distinct scores as in
    :func:`~binmetrics.display.plot_curves.threshold`; NaN where the measure is
    undefined leaves a gap.

    Parameters
    ----------
    ev_or_models : Evaluation or mapping name -> Evaluation
    ax : matplotlib Axes, optional
    measure : str or sequence of str, default "f1"
        Ids or aliases of confusion measures (``bm.measure_catalogue("confusion")``); a
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
    models = models_of(ev_or_models, "plot.measure")
    ax = axes(ax, "plot.measure")
    styles = ["-", "--", "-.", ":"]
    for i, (name, ev) in enumerate(models):
        with undefined_policy("ignore"):  # TPR and FPR, unused here, need both classes
            curves = ev.in_user_units(ThresholdCurves.from_table(ev.table))
        x = threshold_axis(curves.thresholds)
        for j, m in enumerate(chosen):
            p = {k: v for k, v in params.items() if k in m.params}
            y = curves.measure(m.id, **p)
            ax.plot(x, y, drawstyle="steps-post", color=color(i),
                    linestyle=styles[j % len(styles)], label=label(name, m.id))
            if mark_best and m.direction != 0 and not np.all(np.isnan(y)):
                k = int(np.nanargmax(y) if m.direction > 0 else np.nanargmin(y))
                ax.plot([x[k]], [y[k]], linestyle="none", marker="*", markersize=10,
                        color=color(i), label=label(
                            name, f"best {m.id} = {y[k]:.3f} at {curves.thresholds[k]:g}"))
        th = operating_threshold(ev, operating_point)
        if th is not None:
            ax.axvline(th, color=color(i), linestyle=":", linewidth=1.0,
                       label=label(name, f"threshold {th:g}"))
    ax.set_xlabel(rule_label(models))
    ax.set_ylabel(chosen[0].name if len(chosen) == 1 else "value")
    ax.set_title(f"{', '.join(m.id for m in chosen)} against the threshold")
    ax.legend(loc="best" if sum(ev.table.n_distinct for _, ev in models) <= 1000
              else "upper right", fontsize="small")
    return ax


# --- confusion matrix -----------------------------------------------------------------------
def confusion_matrix(ev_or_models: Any, *, ax: Any = None, threshold: float | None = None,
                     cmap: str = "Blues") -> Axes:
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
        ((_, ev),) = models_of(obj, "plot.confusion_matrix")
        th = ev.threshold if threshold is None else check_threshold(threshold)
        c = ev.table.confusion(table_cut(ev, th))
        cm = np.array([[c.tp, c.fn], [c.fp, c.tn]], dtype=np.float64)
        labels = ["positive", "negative"]
        weighted = ev.table.weighted
        title = f"Confusion matrix, {ev.rule.replace('threshold', f'{th:g}')} positive"
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
    ax.set_title(label(name, title))
    return ax
