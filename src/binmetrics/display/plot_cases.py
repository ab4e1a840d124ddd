"""The charts of the cases and of the cut-offs: each case's hinge and 0-1 loss against
its margin (Berrar Figs. 7, 8b), the reliability diagram (with the share of cases per
bin), the decision curve, any confusion measure against the threshold, and the
confusion matrix, as named functions of :mod:`binmetrics.plot` (``bm.plot.loss`` ...).

Each draws its plot kind (:data:`~binmetrics.evaluation.plot_kinds.PLOT_KINDS`): the
numbers from the kind's producer in :mod:`binmetrics.evaluation.chart_data`, drawn by
:func:`binmetrics.chart.render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from binmetrics.evaluation.plot_kinds import PLOT_KINDS

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["confusion_matrix", "decision_curve", "loss", "measure", "reliability"]


def decision_curve(ev_or_models: Any, *, ax: Any = None, thresholds: Any = None) -> Axes:
    """Decision curve (Vickers & Elkin 2006): each model's net benefit against the
    threshold probability, with treat all and treat none, as the dcurves packages.

    The numbers are :func:`~binmetrics.evaluation.chart_data.decision_curve_data`, from
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
    return PLOT_KINDS["decision_curve"].draw(ev_or_models, ax=ax, thresholds=thresholds)


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
    (:func:`~binmetrics.evaluation.chart_data.mean_losses`): with ``center=0`` the mean
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
    return PLOT_KINDS["loss"].draw(ev_or_models, ax=ax, center=center, max_points=max_points)


def reliability(ev_or_models: Any, *, ax: Any = None, n_bins: int = 10,
                strategy: Literal["uniform", "quantile"] = "uniform",
                counts: bool | None = None, histogram: bool = True) -> Axes:
    """Reliability (calibration) diagram: the fraction of positives against the mean
    predicted probability in each bin, with the diagonal of perfect calibration.

    The numbers are :func:`~binmetrics.evaluation.chart_data.reliability_table`
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
    return PLOT_KINDS["reliability"].draw(
        ev_or_models, ax=ax, n_bins=n_bins, strategy=strategy, counts=counts, histogram=histogram)


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
    return PLOT_KINDS["measure"].draw(ev_or_models, ax=ax, measure=measure, mark_best=mark_best,
                                       operating_point=operating_point, **params)


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
    return PLOT_KINDS["confusion_matrix"].draw(ev_or_models, ax=ax, threshold=threshold, cmap=cmap)
