"""The curves over every cut of the scores: ROC (with its convex hull), TPR and FPR
against the threshold, precision-recall, precision-recall-gain, gain and lift (Berrar
Figs. 4, 5 and 6), as named functions of :mod:`binmetrics.plot` (``bm.plot.roc`` ...).

Each draws its plot kind (:data:`~binmetrics.evaluation.plot_kinds.PLOT_KINDS`): the
numbers from the kind's producer in :mod:`binmetrics.evaluation.chart_data` (the curves'
own ``chart()``), drawn by :func:`binmetrics.chart.render`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from binmetrics.evaluation.plot_kinds import PLOT_KINDS

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["gain", "lift", "pr", "prg", "roc", "threshold"]


def roc(ev_or_models: Any, *, ax: Any = None, hull: bool = True,
        operating_point: float | bool | None = None,
        shade: str | Sequence[str] | None = None) -> Axes:
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
    shade : {"auc", "gini", "auch"} or a list of them, optional
        Fill the area under the curve (Berrar Fig. 6a), the area A between the curve
        and the diagonal with Gini = A / 0.5 in its label (Fig. 6b), or the area under
        the convex hull (Fig. 6c).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import binmetrics as bm
    >>> ev = bm.evaluate([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                  [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> ax = bm.plot.roc(ev, operating_point=0.55)  # doctest: +SKIP
    >>> ax = bm.plot.roc(ev, shade="gini", hull=False)  # Fig. 6b  # doctest: +SKIP
    """
    return PLOT_KINDS["roc"].draw(ev_or_models, ax=ax, hull=hull, operating_point=operating_point,
                                  shade=shade)


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
    return PLOT_KINDS["threshold"].draw(ev_or_models, ax=ax, operating_point=operating_point)


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
    return PLOT_KINDS["pr"].draw(
        ev_or_models, ax=ax, interpolation=interpolation, operating_point=operating_point)


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
    >>> ev = bm.evaluate([1, 0, 1, 1, 0, 0, 1, 0], [8, 7, 6, 5, 4, 3, 2, 1], threshold=4.5)
    >>> round(ev["auprg"], 10)  # docs/methods.md §4
    0.4305555556
    >>> ax = bm.plot.prg(ev)  # doctest: +SKIP
    """
    return PLOT_KINDS["prg"].draw(ev_or_models, ax=ax)


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
    return PLOT_KINDS["gain"].draw(
        ev_or_models, ax=ax, normalize=normalize, operating_point=operating_point)


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
    return PLOT_KINDS["lift"].draw(
        ev_or_models, ax=ax, normalize=normalize, operating_point=operating_point)
