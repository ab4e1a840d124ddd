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
from binmetrics.measures._util import dot
from binmetrics.measures.ranking import both_classes
from binmetrics.measures.registry import register
from binmetrics.table.counts import CountTable, FloatArray, PositiveGroups

__all__ = ["check_rate_range", "partial_auc", "partial_auc_range"]

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


def _tp_integral(g: PositiveGroups, lo: float, hi: float) -> float:
    r"""The integral of TP over FP from ``lo`` to ``hi`` (counts) along the ROC polyline.

    Each group holding positives raises TP by its ``pos`` along a ramp from FP =
    ``fp0`` to ``fp0 + neg`` (straight up when ``neg`` is 0); a group of negatives
    alone only moves FP. So TP(f) is the sum of the groups' ramps, and its integral is
    the sum of theirs: with :math:`d = x - fp_0 > 0` and :math:`m = \min(d, neg)`,
    :math:`\int_{fp_0}^{fp_0 + d} \mathrm{ramp} = (d - m) + m^2 / (2\,neg)`.
    """
    k = int(np.searchsorted(g.fp0, hi, side="left"))  # the groups starting below hi
    fp0, neg = g.fp0[:k], g.neg[:k]
    ramp = _ramp_integral(hi - fp0, neg)
    if lo > 0.0:
        ramp -= _ramp_integral(lo - fp0, neg)
    return dot(g.pos[:k], ramp)


def _ramp_integral(d: FloatArray, width: FloatArray) -> FloatArray:
    """The integral up to d (0 where d <= 0) of a ramp rising from 0 to 1 over
    ``width`` (a step where width is 0)."""
    d = np.maximum(d, 0.0)
    m = np.minimum(d, width)
    out = m * m
    np.divide(out, 2.0 * width, out=out, where=width > 0.0)  # m = 0 where width = 0
    out += d - m
    return out


def _fp_integral(g: PositiveGroups, lo: float, hi: float) -> float:
    """The integral of FP over TP from ``lo`` to ``hi`` (counts) along the ROC polyline:
    across a group holding positives FP rises linearly from ``fp0`` to ``fp0 + neg``
    while TP rises by ``pos``; the groups of negatives alone are vertical steps, with
    no width on this axis."""
    a = int(np.searchsorted(g.tp1, lo, side="right"))  # groups ending after lo
    b = int(np.searchsorted(g.tp0, hi, side="left"))            # ... starting below hi
    tp0, pos, neg, fp0 = g.tp0[a:b], g.pos[a:b], g.neg[a:b], g.fp0[a:b]
    u0 = np.clip(lo - tp0, 0.0, pos)  # the part of each group's TP span inside [lo, hi]
    u1 = np.clip(hi - tp0, 0.0, pos)
    return dot(fp0, u1 - u0) + dot(neg / pos, (u1 * u1 - u0 * u0) / 2.0)


def diagonal_area(focus: str, low: float, high: float) -> float:
    """The area the chance diagonal gives over the range (McClish's ``min``)."""
    under = (high * high - low * low) / 2.0
    return under if focus == "fpr" else (high - low) - under


@register("partial_auc", name="Partial area under the ROC curve", family="ranking",
          prevalence_dependent=False,
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
    # a sum over the groups holding positives (about the prevalence's share of the
    # table), not a pass over the cuts in the range (_tp_integral, _fp_integral)
    g = t.positive_groups()
    pn = t.P * t.N
    if focus == "fpr":
        area = _tp_integral(g, low * t.N, high * t.N) / pn
    else:
        area = (high - low) - _fp_integral(g, low * t.P, high * t.P) / pn
    if not correct:
        return area
    lo = diagonal_area(focus, low, high)
    if area < lo:
        report_undefined("partial_auc", f"McClish's correction is not defined for a curve "
                         f"below the diagonal ({focus}=({low:g}, {high:g}): partial area "
                         f"{area:.6g} < {lo:.6g}, the diagonal's)")
        return float("nan")
    return (1.0 + (area - lo) / ((high - low) - lo)) / 2.0
