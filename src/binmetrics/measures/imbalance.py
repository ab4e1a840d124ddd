"""Confusion measures for imbalanced data and set overlap (PyCM's class statistics):
G-mean, adjusted G-mean, IBA, discriminant power, optimized precision, the overlap
coefficient, Braun-Blanquet similarity, the adjusted F-score and ICSI.

Like :mod:`binmetrics.measures.confusion`, every function takes a
:class:`~binmetrics.table.Confusion` whose fields may be arrays, and 0/0 gives NaN with
one :class:`~binmetrics.exceptions.UndefinedMeasureWarning` naming the reason. The
Otsuka-Ochiai coefficient TP / sqrt((TP + FP)(TP + FN)) is the G-measure (an alias of
``g_measure``). Where binmetrics differs from PyCM 4.x (IBA's default alpha, the
discriminant power's logarithm) the docstring says so; docs/pycm.md lists them.
"""

from __future__ import annotations

import numpy as np

from binmetrics.exceptions import undefined_policy
from binmetrics.measures._util import FloatOrArray, flag_nan, ratio
from binmetrics.measures.confusion import accuracy, dor, fbeta, ppv, tnr, tpr
from binmetrics.measures.registry import register
from binmetrics.table.counts import Confusion
from binmetrics.validation import check_in_range

_UNIT = (0.0, 1.0)
_REAL = (-float("inf"), float("inf"))
_ONE_CLASS = "y_true has only one class (TPR or TNR is 0/0)"


def _rates(c: Confusion) -> tuple[np.ndarray, np.ndarray]:
    with undefined_policy("ignore"):
        return np.asarray(tpr(c), dtype=np.float64), np.asarray(tnr(c), dtype=np.float64)


@register("g_mean", name="Geometric mean of sensitivity and specificity", family="confusion",
          monotone_in_fp=True,
          prevalence_dependent=False,
          direction=1, range=_UNIT, plot="measure",
          aliases=("gm", "gmean", "geometric_mean_score"),
          source="Kubat & Matwin 1997; PyCM GM; imbalanced-learn geometric_mean_score",
          formula="sqrt(TPR x TNR)")
def g_mean(c: Confusion) -> FloatOrArray:
    """G-mean: the geometric mean of sensitivity and specificity, sqrt(TPR TNR).

    Examples
    --------
    >>> round(g_mean(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # sqrt(0.6 x 0.8)
    0.69282
    """
    t, s = _rates(c)
    return flag_nan(np.sqrt(t * s), "g_mean", _ONE_CLASS)


@register("adjusted_g_mean", name="Adjusted geometric mean", family="confusion", direction=1,
          monotone_in_fp=True,
          prevalence_dependent=True,
          range=_UNIT, plot="measure", aliases=("agm",),
          source="Batuwita & Palade 2012; PyCM AGM",
          formula="(GM + TNR Nn) / (1 + Nn) if TPR > 0 else 0, Nn = N / (P + N)")
def adjusted_g_mean(c: Confusion) -> FloatOrArray:
    """Adjusted G-mean (Batuwita & Palade): the G-mean raised by the specificity in
    proportion to the share of negatives Nn; 0 when no positive is found.

    Examples
    --------
    >>> round(adjusted_g_mean(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # Nn = 0.5
    0.728547
    """
    t, s = _rates(c)
    nn = np.asarray(c.n, dtype=np.float64) / np.asarray(c.total, dtype=np.float64)
    v = np.where(t == 0, 0.0, (np.sqrt(t * s) + s * nn) / (1.0 + nn))
    return flag_nan(v, "adjusted_g_mean", _ONE_CLASS)


@register("iba", name="Index of balanced accuracy", family="confusion", direction=1,
          # not monotone_in_fp: d IBA / d TNR = TPR (1 + alpha TPR - 2 alpha TNR), negative
          # for some tables once alpha > 0.5 (PyCM's alpha = 1 among them)
          prevalence_dependent=False,
          range=(0.0, 2.0), plot="measure", aliases=("index_of_balanced_accuracy",),
          source="García, Mollineda & Sánchez 2009; imbalanced-learn; PyCM IBA (alpha = 1)",
          formula="(1 + alpha (TPR - TNR)) TPR TNR")
def iba(c: Confusion, *, alpha: float = 0.1) -> FloatOrArray:
    """Index of balanced accuracy: the squared G-mean weighted by the dominance
    TPR - TNR.

    Parameters
    ----------
    alpha : float >= 0, default 0.1
        Weight of the dominance: 0.1 as García et al. and imbalanced-learn recommend.
        PyCM's IBA uses alpha = 1: ``ev.value("iba", alpha=1)`` gives its value.

    Examples
    --------
    >>> c = Confusion(tp=3, fp=1, fn=2, tn=4)  # TPR 0.6, TNR 0.8
    >>> round(iba(c), 6), round(iba(c, alpha=1), 6)  # (1 - 0.02) 0.48, (1 - 0.2) 0.48
    (0.4704, 0.384)
    """
    a = check_in_range(alpha, "alpha", 0.0, np.inf, high_open=True)
    t, s = _rates(c)
    return flag_nan((1.0 + a * (t - s)) * t * s, "iba", _ONE_CLASS)


@register("discriminant_power", name="Discriminant power", family="confusion", direction=1,
          prevalence_dependent=False,
          range=_REAL, plot="measure", aliases=("dp",),
          source="Blakeley & Oddone 1995; Sokolova et al. 2006; PyCM DP (base-10 logarithms)",
          formula="sqrt(3)/pi (ln(TPR/(1-TPR)) + ln(TNR/(1-TNR))) = sqrt(3)/pi ln(DOR)")
def discriminant_power(c: Confusion) -> FloatOrArray:
    """Discriminant power: the log odds ratio scaled by sqrt(3)/pi (the logistic
    distribution's standard deviation), in natural logarithms.

    Below 1 the test discriminates poorly, above 3 well (Sokolova et al.). PyCM uses
    base-10 logarithms, so its DP is this value divided by ln 10 (docs/pycm.md). +-inf
    where the odds ratio is 0 or inf (an empty FP or FN cell).

    Examples
    --------
    >>> round(discriminant_power(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # DOR 6
    0.987849
    """
    with undefined_policy("ignore"):
        d = np.asarray(dor(c), dtype=np.float64)
    with np.errstate(divide="ignore"):
        v = np.sqrt(3.0) / np.pi * np.log(d)
    return flag_nan(v, "discriminant_power", "TP x TN = FP x FN = 0")


@register("optimized_precision", name="Optimized precision", family="confusion", direction=1,
          prevalence_dependent=True,
          range=(-1.0, 1.0), plot="measure", aliases=("op",),
          source="Ranawana & Palade 2006; PyCM OP",
          formula="ACC - |TNR - TPR| / (TPR + TNR)")
def optimized_precision(c: Confusion) -> FloatOrArray:
    """Optimized precision: the accuracy less the relative imbalance of sensitivity
    and specificity.

    Examples
    --------
    >>> round(optimized_precision(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # 0.7 - 0.2/1.4
    0.557143
    """
    t, s = _rates(c)
    if np.any(np.isnan(t) | np.isnan(s)):
        return flag_nan(t + s, "optimized_precision", _ONE_CLASS)
    with undefined_policy("ignore"):
        acc = np.asarray(accuracy(c), dtype=np.float64)
    imbalance = ratio(np.abs(s - t), t + s, "optimized_precision", "TPR = TNR = 0")
    return flag_nan(acc - np.asarray(imbalance), "optimized_precision", "TPR = TNR = 0")


@register("overlap_coefficient", name="Overlap coefficient (Szymkiewicz-Simpson)",
          monotone_in_fp=True,
          prevalence_dependent=True,
          family="confusion", direction=1, range=_UNIT, plot="measure",
          aliases=("oc", "szymkiewicz_simpson"), source="Szymkiewicz 1934; Simpson 1943; PyCM OC",
          formula="TP / min(TP + FP, TP + FN)")
def overlap_coefficient(c: Confusion) -> FloatOrArray:
    """Overlap of the predicted and actual positives over the smaller of the two sets.

    Examples
    --------
    >>> overlap_coefficient(Confusion(tp=3, fp=1, fn=2, tn=4))  # 3 / min(4, 5)
    0.75
    """
    return ratio(c.tp, np.minimum(c.pp, c.p), "overlap_coefficient",
                 "no positives or nothing predicted positive (min(TP + FP, TP + FN) = 0)")


@register("braun_blanquet", name="Braun-Blanquet similarity", family="confusion", direction=1,
          monotone_in_fp=True,
          prevalence_dependent=True,
          range=_UNIT, plot="measure", aliases=("bb", "braun_blanquet_similarity"),
          source="Braun-Blanquet 1932; PyCM BB", formula="TP / max(TP + FP, TP + FN)")
def braun_blanquet(c: Confusion) -> FloatOrArray:
    """Overlap of the predicted and actual positives over the larger of the two sets.

    Examples
    --------
    >>> braun_blanquet(Confusion(tp=3, fp=1, fn=2, tn=4))  # 3 / max(4, 5)
    0.6
    """
    return ratio(c.tp, np.maximum(c.pp, c.p), "braun_blanquet",
                 "no positives and nothing predicted positive (TP + FP = TP + FN = 0)")


@register("adjusted_f_score", name="Adjusted F-score", family="confusion", direction=1,
          monotone_in_fp=True,
          prevalence_dependent=True,
          range=_UNIT, plot="measure", aliases=("agf", "adjusted_f", "agf_score"),
          source="Maratea, Petrosino & Manzo 2014; PyCM AGF",
          formula="sqrt(F2 x InvF0.5), InvF0.5 = 1.25 TN / (1.25 TN + 0.25 FP + FN)")
def adjusted_f_score(c: Confusion) -> FloatOrArray:
    """Adjusted F-score: the geometric mean of the F2 score and the F0.5 score of the
    negative class (positive and negative swapped), so that all four cells count.

    Examples
    --------
    >>> round(adjusted_f_score(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)
    0.656532
    """
    with undefined_policy("ignore"):
        f2 = np.asarray(fbeta(c, beta=2.0), dtype=np.float64)
        inv = np.asarray(fbeta(Confusion(tp=c.tn, fp=c.fn, fn=c.fp, tn=c.tp), beta=0.5),
                         dtype=np.float64)
    return flag_nan(np.sqrt(f2 * inv), "adjusted_f_score",
                    "an F-score is 0/0 (no positives and nothing predicted positive, or "
                    "the same of the negatives)")


@register("icsi", name="Individual classification success index", family="confusion",
          monotone_in_fp=True,
          prevalence_dependent=True,
          direction=1, range=(-1.0, 1.0), plot="measure",
          aliases=("individual_classification_success_index",),
          source="Koch 2005; PyCM ICSI", formula="PPV + TPR - 1")
def icsi(c: Confusion) -> FloatOrArray:
    """Individual classification success index: precision + recall - 1.

    Examples
    --------
    >>> round(icsi(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)  # 0.75 + 0.6 - 1
    0.35
    """
    with undefined_policy("ignore"):
        v = np.asarray(ppv(c), dtype=np.float64) + np.asarray(tpr(c), dtype=np.float64) - 1.0
    reason = ("y_true has no positives (TP + FN = 0)" if np.any(np.asarray(c.p) == 0)
              else "nothing is predicted positive at this threshold (TP + FP = 0)")
    return flag_nan(v, "icsi", reason)
