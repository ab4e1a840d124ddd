r"""Partial area under the ROC curve, with McClish's standardisation (pROC's partial AUC).

The ROC curve is the polyline through its points (one per distinct threshold, tied
scores as diagonal segments). The partial AUC over a range of false positive rates
is the area under that polyline between the two rates,

.. math::  \mathrm{pAUC}_{\mathrm{FPR}}(a, b) = \int_a^b \mathrm{TPR}(f)\, df,

and over a range of true positive rates ("sensitivity focus") the area between the
curve and the right edge, turned on its side,

.. math::  \mathrm{pAUC}_{\mathrm{TPR}}(a, b) = \int_a^b (1 - \mathrm{FPR}(t))\, dt .

Both are what pROC's ``auc(roc, partial.auc=, partial.auc.focus=)`` computes:
``fpr=(a, b)`` is ``partial.auc = c(1 - b, 1 - a), partial.auc.focus = "specificity"``;
``tpr=(a, b)`` is ``partial.auc = c(b, a), partial.auc.focus = "sensitivity"``. Where a
bound falls between two points the curve is interpolated linearly, as pROC does; a range
that holds no point of the curve is one trapezoid between the two interpolated ends.

McClish (1989) maps the partial area onto the scale of a full AUC: with ``min`` the area
under the diagonal over the same range and ``max = b - a``,

.. math::  \mathrm{pAUC}_c = \frac{1}{2}\left(1 + \frac{\mathrm{pAUC} - \min}{\max - \min}\right),

so 0.5 is chance and 1 a perfect test. ``min`` is :math:`(b^2 - a^2)/2` for the FPR focus
and :math:`(b - a) - (b^2 - a^2)/2` for the TPR focus (pROC's
``roc.utils.min.partial.auc``). The correction is not defined below the diagonal: there
the value is NaN with an :class:`~binmetrics.exceptions.UndefinedMeasureWarning` (pROC
gives NA with a warning).

References
----------
McClish, D. K. (1989). Analyzing a portion of the ROC curve. *Medical Decision
Making* 9(3), 190-195.

Robin, X. et al. (2011). pROC: an open-source package for R and S+ to analyze and
compare ROC curves. *BMC Bioinformatics* 12, 77.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.exceptions import report_undefined
from binmetrics.measures.ranking import both_classes
from binmetrics.measures.registry import register
from binmetrics.measures.roc_points import cut_counts, cut_rates
from binmetrics.table.counts import CountTable, FloatArray

__all__ = ["area_between", "check_rate_range", "partial_auc", "partial_auc_range"]

#: the FPR range used when neither ``fpr=`` nor ``tpr=`` is given
DEFAULT_FPR = (0.0, 0.2)


def check_rate_range(value: Any, name: str) -> tuple[float, float]:
    """``(low, high)`` as floats with ``0 <= low < high <= 1``, or a one-line error."""
    try:
        low, high = (float(v) for v in value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a pair (low, high) of rates, e.g. {name}=(0, 0.2); "
                        f"got {value!r}") from None
    if not (0.0 <= low <= 1.0 and 0.0 <= high <= 1.0):
        raise ValueError(f"{name}={value!r} lies outside [0, 1]; pass two rates between 0 and "
                         f"1, e.g. {name}=(0, 0.2)")
    if not low < high:
        raise ValueError(f"{name}={value!r} needs low < high; pass {name}=(low, high), "
                         f"e.g. {name}=(0, 0.2)")
    return low, high


def partial_auc_range(fpr: Any = None, tpr: Any = None) -> tuple[str, float, float]:
    """The focus (``"fpr"`` or ``"tpr"``) and the checked range; an error for both."""
    if fpr is not None and tpr is not None:
        raise ValueError("pass either fpr=(low, high) or tpr=(low, high), not both: a partial "
                         "AUC integrates over one of the two rates")
    if tpr is not None:
        return ("tpr", *check_rate_range(tpr, "tpr"))
    return ("fpr", *check_rate_range(DEFAULT_FPR if fpr is None else fpr, "fpr"))


def _area_to(x: FloatArray, y: FloatArray, cum: FloatArray, v: float) -> float:
    """Area under the polyline (x nondecreasing, from x[0] = 0) from x[0] to v."""
    k = int(np.searchsorted(x, v, side="right")) - 1
    if k >= x.size - 1:
        return float(cum[-1])
    dx = x[k + 1] - x[k]  # > 0: x[k] <= v < x[k + 1]
    y_v = y[k] + (v - x[k]) / dx * (y[k + 1] - y[k])
    return float(cum[k] + (v - x[k]) * (y[k] + y_v) / 2.0)


def area_between(x: FloatArray, y: FloatArray, low: float, high: float) -> float:
    """Area under the polyline through (x, y) (x nondecreasing, spanning [0, 1]) between
    ``x = low`` and ``x = high``; vertical segments carry no area, so where several points
    share an abscissa the result does not depend on which is taken."""
    i0 = max(int(np.searchsorted(x, low, side="right")) - 1, 0)
    i1 = min(int(np.searchsorted(x, high, side="left")) + 1, x.size)
    xs, ys = x[i0:i1], y[i0:i1]  # the points from the one at or below low to the one at/above high
    cum = np.concatenate(([0.0], np.cumsum(np.diff(xs) * (ys[1:] + ys[:-1]) / 2.0)))
    return _area_to(xs, ys, cum, high) - _area_to(xs, ys, cum, low)


def diagonal_area(focus: str, low: float, high: float) -> float:
    """The area the chance diagonal gives over the range (McClish's ``min``)."""
    under = (high * high - low * low) / 2.0
    return under if focus == "fpr" else (high - low) - under


@register("partial_auc", name="Partial area under the ROC curve", family="ranking",
          binning_bound="refinements",
          plot="roc", direction=1, range=(0.0, 1.0), aliases=("pauc", "partial_roc_auc"),
          source="McClish 1989; pROC auc(partial.auc=)",
          formula="int_a^b TPR dFPR (fpr=(a, b)); int_a^b (1 - FPR) dTPR (tpr=(a, b)); "
                  "correct=True: (1 + (pAUC - min) / (max - min)) / 2")
def partial_auc(t: CountTable, *, fpr: tuple[float, float] | None = None,
                tpr: tuple[float, float] | None = None, correct: bool = False) -> float:
    r"""Area under the ROC curve over a range of FPR (``fpr=(a, b)``) or TPR
    (``tpr=(a, b)``), as pROC's ``auc(partial.auc=...)``; ``correct=True`` is McClish's
    standardisation (0.5 chance, 1 perfect).

    Parameters
    ----------
    t : the count table.
    fpr : (a, b), optional
        The range of false positive rates, ``0 <= a < b <= 1`` (pROC
        ``partial.auc = c(1 - b, 1 - a)``, focus "specificity"). The default when
        neither range is given is ``fpr=(0, 0.2)``.
    tpr : (a, b), optional
        The range of true positive rates (pROC ``partial.auc = c(b, a)``, focus
        "sensitivity"); the area is :math:`\int_a^b (1 - \mathrm{FPR}(t))\,dt`.
    correct : bool, default False
        McClish's correction :math:`(1 + (p - \min)/(\max - \min))/2` with
        :math:`\max = b - a` and :math:`\min` the diagonal's area over the range; NaN
        with a warning when the curve lies below the diagonal there.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...     [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> round(partial_auc(t, fpr=(0, 0.2)), 12)  # TPR is .4 from FPR 0 to .2
    0.08
    >>> round(partial_auc(t, fpr=(0, 0.2), correct=True), 12)  # min .02, max .2
    0.666666666667
    >>> round(partial_auc(t, tpr=(0.8, 1)), 12)  # specificity .4 from TPR .8 to 1
    0.08
    """
    focus, low, high = partial_auc_range(fpr, tpr)
    if not both_classes(t, "partial_auc"):
        return float("nan")
    # only the cuts area_between reads (from the last at or below low to the first at or
    # above high), not the table-sized cumulative arrays
    below, upto = cut_counts(t, focus, [low, high])
    tp_rate, fp_rate = cut_rates(t, max(upto[0] - 1, 0), min(below[1] + 1, t.n_distinct + 1))
    if focus == "fpr":
        area = area_between(fp_rate, tp_rate, low, high)
    else:
        area = area_between(tp_rate, 1.0 - fp_rate, low, high)
    if not correct:
        return area
    lo = diagonal_area(focus, low, high)
    if area < lo:
        report_undefined("partial_auc", f"McClish's correction is not defined for a curve "
                         f"below the diagonal ({focus}=({low:g}, {high:g}): partial area "
                         f"{area:.6g} < {lo:.6g}, the diagonal's)")
        return float("nan")
    return (1.0 + (area - lo) / ((high - low) - lo)) / 2.0
