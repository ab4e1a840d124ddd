"""Agreement and association coefficients of the confusion matrix (PyCM's overall
statistics): Yule's Q and Y, Scott's pi, Gwet's AC1, Krippendorff's alpha and
Bennett's S (= PABAK).

The chance-corrected coefficients share one form, (P_o - P_e) / (1 - P_e), with P_o
the accuracy and P_e the chance agreement each defines. On a binary evaluation they
read the 2 x 2 matrix (fields may be arrays, as in :mod:`binmetrics.measures.confusion`);
on a multiclass one their native forms read the k x k matrix (declared with
``multiclass=``). Weights count as cases: n below is the total weight.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from binmetrics.measures._util import FloatOrArray, as_result, ratio
from binmetrics.measures.registry import register
from binmetrics.table.counts import Confusion

if TYPE_CHECKING:
    from binmetrics.measures.multiclass import MulticlassData

_SIGNED = (-1.0, 1.0)
_ALL_ONE_CLASS = ("chance agreement is 1 (every case is in one class and predicted as "
                  "that class)")


def _fractions(c: Confusion) -> tuple[Any, Any, Any, Any]:
    total = np.asarray(c.total, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return tuple(np.asarray(x, dtype=np.float64) / total  # type: ignore[return-value]
                     for x in (c.tp, c.fp, c.fn, c.tn))


def _binary_margins(c: Confusion) -> tuple[Any, Any, Any]:
    """Observed agreement, and the mean of the actual and predicted shares of each class
    (positive, negative): Scott's and Gwet's pooled class proportions."""
    tp, fp, fn, tn = _fractions(c)
    pos = ((tp + fn) + (tp + fp)) / 2.0
    return tp + tn, pos, 1.0 - pos


def _matrix_margins(data: MulticlassData) -> tuple[float, np.ndarray]:
    f = data.cm / data.cm.sum()
    return float(np.trace(f)), (f.sum(axis=1) + f.sum(axis=0)) / 2.0


def _chance_corrected(po: Any, pe: Any, measure: str, reason: str = _ALL_ONE_CLASS) -> Any:
    return ratio(np.asarray(po) - pe, 1.0 - np.asarray(pe), measure, reason)


def _multiclass(value: Any) -> float:
    return float(np.asarray(value))


@register("yule_q", name="Yule's Q (coefficient of association)", family="confusion",
          monotone_in_fp=True,
          prevalence_dependent=False,
          direction=1, range=_SIGNED, plot="measure",
          aliases=("q", "yules_q", "yule_coefficient_of_association"),
          source="Yule 1900; PyCM Q", formula="(TP TN - FP FN) / (TP TN + FP FN) = (OR-1)/(OR+1)")
def yule_q(c: Confusion) -> FloatOrArray:
    """Yule's Q, the odds ratio mapped to [-1, 1]: (OR - 1) / (OR + 1).

    Computed as (TP TN - FP FN) / (TP TN + FP FN), so it is defined (+-1) where the
    odds ratio is infinite or 0; PyCM's Q, computed from the odds ratio, is undefined
    there. Undefined only when TP TN = FP FN = 0.

    Examples
    --------
    >>> round(yule_q(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # (12 - 2) / (12 + 2)
    0.714286
    >>> yule_q(Confusion(tp=3, fp=0, fn=2, tn=4))
    1.0
    """
    tp, fp, fn, tn = _fractions(c)
    a, b = tp * tn, fp * fn
    return ratio(a - b, a + b, "yule_q", "TP x TN = FP x FN = 0")


@register("yule_y", name="Yule's Y (coefficient of colligation)", family="confusion",
          monotone_in_fp=True,
          prevalence_dependent=False,
          direction=1, range=_SIGNED, plot="measure",
          aliases=("yules_y", "coefficient_of_colligation"),
          source="Yule 1912", formula="(sqrt(TP TN) - sqrt(FP FN)) / (sqrt(TP TN) + sqrt(FP FN))")
def yule_y(c: Confusion) -> FloatOrArray:
    """Yule's Y: (sqrt(OR) - 1) / (sqrt(OR) + 1), in the count form defined where the
    odds ratio is not.

    Examples
    --------
    >>> round(yule_y(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # (sqrt 12 - sqrt 2) / (...)
    0.420204
    """
    tp, fp, fn, tn = _fractions(c)
    a, b = np.sqrt(tp * tn), np.sqrt(fp * fn)
    return ratio(a - b, a + b, "yule_y", "TP x TN = FP x FN = 0")


def _scott_pi_multiclass(data: MulticlassData) -> float:
    """Scott's pi of the k x k matrix: P_e = sum_j ((t_j + p_j) / 2)^2 (PyCM's
    Scott PI, the unbiased kappa)."""
    po, pooled = _matrix_margins(data)
    return _multiclass(_chance_corrected(po, pooled @ pooled, "scott_pi"))


@register("scott_pi", name="Scott's pi", family="confusion", direction=1, range=_SIGNED,
          monotone_in_fp=True,
          prevalence_dependent=True,
          plot="measure", aliases=("scotts_pi", "kappa_unbiased", "pi_scott"),
          source="Scott 1955; PyCM Scott PI", multiclass=_scott_pi_multiclass,
          formula="(P_o - P_e) / (1 - P_e), P_e = sum_j ((actual_j + predicted_j) / 2n)^2")
def scott_pi(c: Confusion) -> FloatOrArray:
    """Scott's pi: agreement corrected for chance, with chance from the pooled shares
    of each class in truth and prediction (kappa's P_e uses their product).

    Examples
    --------
    >>> round(scott_pi(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # P_e = .45^2 + .55^2
    0.393939
    """
    po, pos, neg = _binary_margins(c)
    return _chance_corrected(po, pos * pos + neg * neg, "scott_pi")


def _gwet_ac1_multiclass(data: MulticlassData) -> float:
    """Gwet's AC1 of the k x k matrix: P_e = sum_j pi_j (1 - pi_j) / (k - 1),
    pi_j = (t_j + p_j) / 2."""
    po, pooled = _matrix_margins(data)
    k = data.n_classes
    return _multiclass(_chance_corrected(po, pooled @ (1.0 - pooled) / (k - 1), "gwet_ac1"))


@register("gwet_ac1", name="Gwet's AC1", family="confusion", direction=1, range=_SIGNED,
          monotone_in_fp=True,
          prevalence_dependent=True,
          plot="measure", aliases=("ac1", "gwets_ac1"),
          source="Gwet 2008; PyCM Gwet AC1", multiclass=_gwet_ac1_multiclass,
          formula="(P_o - P_e) / (1 - P_e), P_e = sum_j pi_j (1 - pi_j) / (k - 1), "
                  "pi_j = (actual_j + predicted_j) / 2n")
def gwet_ac1(c: Confusion) -> FloatOrArray:
    """Gwet's first-order agreement coefficient, robust to the "kappa paradox" of
    high agreement with low kappa on skewed classes.

    Examples
    --------
    >>> round(gwet_ac1(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # P_e = 2 x .45 x .55
    0.405941
    """
    po, pos, neg = _binary_margins(c)
    return _chance_corrected(po, pos * neg + neg * pos, "gwet_ac1")


def _krippendorff_multiclass(data: MulticlassData) -> float:
    """Krippendorff's alpha (nominal, two coders, no missing values) of the k x k
    matrix."""
    po, pooled = _matrix_margins(data)
    eps = 1.0 / (2.0 * float(data.cm.sum()))
    return _multiclass(_chance_corrected((1.0 - eps) * po + eps, pooled @ pooled,
                                         "krippendorff_alpha"))


@register("krippendorff_alpha", name="Krippendorff's alpha (nominal)", family="confusion",
          monotone_in_fp=True,
          prevalence_dependent=True,
          weight_unit=True,  # its small-sample term reads the total weight as n: with a
          # total below 2 (fractional weights) it leaves [-1, 1]
          direction=1, range=(-np.inf, np.inf), plot="measure",
          aliases=("krippendorffs_alpha", "kripp_alpha"),
          source="Krippendorff 2004; PyCM Krippendorff Alpha",
          multiclass=_krippendorff_multiclass,
          formula="(P_a - P_e) / (1 - P_e), P_a = (1 - 1/2n) P_o + 1/2n, P_e as Scott's pi")
def krippendorff_alpha(c: Confusion) -> FloatOrArray:
    """Krippendorff's alpha for nominal data, two coders (truth and prediction) and
    no missing values: Scott's pi with the observed agreement corrected for the
    finite number 2n of pairable values. n is the total weight: weights must be case
    counts here (a table of weights that sum to less than a few cases, such as
    fractions, has no meaningful alpha).

    Examples
    --------
    >>> round(krippendorff_alpha(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)
    0.424242
    """
    po, pos, neg = _binary_margins(c)
    eps = 1.0 / (2.0 * np.asarray(c.total, dtype=np.float64))
    return _chance_corrected((1.0 - eps) * po + eps, pos * pos + neg * neg,
                             "krippendorff_alpha")


def _bennett_s_multiclass(data: MulticlassData) -> float:
    """Bennett's S of k classes: (k P_o - 1) / (k - 1) (Byrt's PABAK for k categories)."""
    k = data.n_classes
    po = float(np.trace(data.cm) / data.cm.sum())
    return (k * po - 1.0) / (k - 1.0)


@register("bennett_s", name="Bennett's S (PABAK)", family="confusion", direction=1,
          monotone_in_fp=True,
          prevalence_dependent=True,
          range=_SIGNED, plot="measure",
          aliases=("bennetts_s", "pabak", "kappa_no_prevalence",
                   "prevalence_adjusted_bias_adjusted_kappa"),
          source="Bennett et al. 1954; Byrt et al. 1993 (PABAK); PyCM Bennett S, "
                 "Kappa No Prevalence", multiclass=_bennett_s_multiclass,
          formula="(P_o - 1/k) / (1 - 1/k); binary: 2 ACC - 1")
def bennett_s(c: Confusion) -> FloatOrArray:
    """Bennett's S: agreement corrected for a uniform chance 1/k; for two classes
    Byrt's prevalence- and bias-adjusted kappa, PABAK = 2 P_o - 1.

    PyCM's multiclass "Kappa No Prevalence" stays 2 P_o - 1 for every k; Byrt's PABAK
    for k categories is Bennett's S, which this measure gives (docs/pycm.md).

    Examples
    --------
    >>> round(bennett_s(Confusion(tp=3, fp=1, fn=2, tn=4)), 12)
    0.4
    """
    po = ratio(np.asarray(c.tp) + c.tn, c.total, "bennett_s", "there are no cases")
    return as_result(2.0 * np.asarray(po) - 1.0)
