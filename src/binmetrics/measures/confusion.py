"""Measures of one confusion matrix (Berrar Defs 1-16 and 24, the Wikipedia table,
the multi-level comparison paper's Tables 4-5).

Every function takes a :class:`~binmetrics.table.confusion.Confusion` whose fields may be
arrays: on one threshold they return a float, on the cumulative table the
measure against the threshold. 0/0 gives NaN with an
:class:`~binmetrics.exceptions.UndefinedMeasureWarning`; x/0 with x > 0 gives inf.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binmetrics.exceptions import undefined_policy
from binmetrics.measures._util import FloatOrArray, flag_nan, ratio
from binmetrics.measures.registry import register
from binmetrics.table.counts import Confusion
from binmetrics.validation import check_in_range

_NO_POS = "y_true has no positives (TP + FN = 0)"
_NO_NEG = "y_true has no negatives (FP + TN = 0)"
_NO_PP = "nothing is predicted positive at this threshold (TP + FP = 0)"
_NO_PN = "nothing is predicted negative at this threshold (FN + TN = 0)"
_UNIT = (0.0, 1.0)
_SIGNED = (-1.0, 1.0)
_POSITIVE = (0.0, float("inf"))


@register("prevalence", name="Prevalence", family="confusion", direction=0, range=_UNIT,
          prevalence_dependent=True,
          plot="measure",
          source="Wikipedia table", formula="P / (P + N)",
          proportion=lambda c: (c.p, c.total))
def prevalence(c: Confusion) -> FloatOrArray:
    """Proportion of positives among all cases, P / (P + N).

    It does not depend on the threshold; it is here because the prevalence-
    dependent measures (precision, NPV, lift, accuracy) are read against it.
    """
    return ratio(c.p, c.total, "prevalence", "there are no cases")


@register("accuracy", name="Accuracy", family="confusion", plot="measure", direction=1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=True,
          aliases=("acc", "correct_classification_rate"), paired_tests=("mcnemar",),
          source="Berrar Def. 1; Wikipedia table; multi-level paper Table 5",
          formula="(TP + TN) / (TP + FP + FN + TN)",
          proportion=lambda c: (c.tp + c.tn, c.total))
def accuracy(c: Confusion) -> FloatOrArray:
    """Proportion of correct classifications (Berrar eq. 1).

    Examples
    --------
    >>> accuracy(Confusion(tp=3, fp=1, fn=2, tn=4))
    0.7
    """
    return ratio(c.tp + c.tn, c.total, "accuracy", "there are no cases")


@register("error_rate", name="Error rate", family="confusion", direction=-1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=True,
          plot="measure",
          aliases=("misclassification_rate", "zero_one_loss"),
          source="Berrar Def. 2", formula="(FP + FN) / (TP + FP + FN + TN)",
          proportion=lambda c: (c.fp + c.fn, c.total))
def error_rate(c: Confusion) -> FloatOrArray:
    """Proportion of incorrect classifications, 1 - accuracy (Berrar eq. 2)."""
    return ratio(c.fp + c.fn, c.total, "error_rate", "there are no cases")


@register("tpr", name="True positive rate", family="confusion", direction=1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=False,
          plot="measure",
          aliases=("sensitivity", "recall", "hit_rate", "true_positive_rate"),
          source="Berrar Def. 3; multi-level paper Table 4", formula="TP / (TP + FN)",
          proportion=lambda c: (c.tp, c.p))
def tpr(c: Confusion) -> FloatOrArray:
    """Sensitivity: correctly predicted positives over all positives (Berrar eq. 3).

    Examples
    --------
    >>> tpr(Confusion(tp=3, fp=1, fn=2, tn=4))
    0.6
    """
    return ratio(c.tp, c.p, "tpr", _NO_POS)


@register("tnr", name="True negative rate", family="confusion", direction=1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=False,
          plot="measure",
          aliases=("specificity", "selectivity", "true_negative_rate"),
          source="Berrar Def. 4; multi-level paper Table 4", formula="TN / (TN + FP)",
          proportion=lambda c: (c.tn, c.n))
def tnr(c: Confusion) -> FloatOrArray:
    """Specificity: correctly predicted negatives over all negatives (Berrar eq. 4)."""
    return ratio(c.tn, c.n, "tnr", _NO_NEG)


@register("ppv", name="Positive predictive value", family="confusion", plot="measure", direction=1,
          monotone_in_fp=True,
          prevalence_dependent=True,
          range=_UNIT, aliases=("precision", "positive_predictive_value"),
          source="Berrar Def. 5; multi-level paper Table 4", formula="TP / (TP + FP)",
          proportion=lambda c: (c.tp, c.pp))
def ppv(c: Confusion) -> FloatOrArray:
    """Precision: correct positive predictions over all positive predictions (Berrar eq. 5)."""
    return ratio(c.tp, c.pp, "ppv", _NO_PP)


@register("npv", name="Negative predictive value", family="confusion", plot="measure", direction=1,
          monotone_in_fp=True,
          prevalence_dependent=True,
          range=_UNIT, aliases=("negative_predictive_value",),
          source="Berrar Def. 6; multi-level paper Table 4", formula="TN / (TN + FN)",
          proportion=lambda c: (c.tn, c.pn))
def npv(c: Confusion) -> FloatOrArray:
    """Correct negative predictions over all negative predictions (Berrar eq. 6)."""
    return ratio(c.tn, c.pn, "npv", _NO_PN)


@register("fdr", name="False discovery rate", family="confusion", direction=-1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=True,
          plot="measure",
          aliases=("false_discovery_rate",),
          source="Berrar Def. 7; multi-level paper Table 4", formula="FP / (FP + TP)",
          proportion=lambda c: (c.fp, c.pp))
def fdr(c: Confusion) -> FloatOrArray:
    """False positives over all positive predictions, 1 - precision (Berrar eq. 7)."""
    return ratio(c.fp, c.pp, "fdr", _NO_PP)


@register("for", name="False omission rate", family="confusion", direction=-1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=True,
          plot="measure",
          aliases=("false_omission_rate",),
          source="Wikipedia table; multi-level paper Table 4", formula="FN / (FN + TN)",
          proportion=lambda c: (c.fn, c.pn))
def false_omission_rate(c: Confusion) -> FloatOrArray:
    """False negatives over all negative predictions, 1 - NPV."""
    return ratio(c.fn, c.pn, "for", _NO_PN)


@register("fnr", name="False negative rate", family="confusion", direction=-1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=False,
          plot="measure",
          aliases=("miss_rate", "false_negative_rate"),
          source="Wikipedia table; multi-level paper Table 4", formula="FN / (FN + TP)",
          proportion=lambda c: (c.fn, c.p))
def fnr(c: Confusion) -> FloatOrArray:
    """Miss rate: positives predicted negative over all positives, 1 - TPR."""
    return ratio(c.fn, c.p, "fnr", _NO_POS)


@register("fpr", name="False positive rate", family="confusion", direction=-1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=False,
          plot="measure",
          aliases=("fall_out", "false_positive_rate"),
          source="Wikipedia table; multi-level paper Table 4", formula="FP / (FP + TN)",
          proportion=lambda c: (c.fp, c.n))
def fpr(c: Confusion) -> FloatOrArray:
    """Fall-out: negatives predicted positive over all negatives, 1 - TNR."""
    return ratio(c.fp, c.n, "fpr", _NO_NEG)


def _fractions(c: Confusion) -> tuple[Any, Any, Any, Any]:
    """TP, FP, FN, TN as fractions of all cases: the measures that multiply counts
    then neither overflow nor underflow, whatever the scale of the weights."""
    total = np.asarray(c.total, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return tuple(np.asarray(x, dtype=np.float64) / total  # type: ignore[return-value]
                     for x in (c.tp, c.fp, c.fn, c.tn))


def _both_classes_reason(c: Confusion) -> str:
    return _NO_POS if np.any(np.asarray(c.p) == 0) else _NO_NEG


@register("informedness", name="Informedness (Youden's J)", family="confusion", direction=1,
          monotone_in_fp=True,
          prevalence_dependent=False,
          plot="measure",
          range=_SIGNED, aliases=("youden_j", "bookmaker_informedness", "youden_index", "youden"),
          source="Berrar Def. 8; Wikipedia table; multi-level paper Table 5",
          formula="TPR + TNR - 1")
def informedness(c: Confusion) -> FloatOrArray:
    """Youden's J at this threshold: sensitivity + specificity - 1 (Berrar eq. 8)."""
    with undefined_policy("ignore"):
        v = np.asarray(tpr(c)) + np.asarray(tnr(c)) - 1.0
    return flag_nan(v, "informedness", _both_classes_reason(c))


@register("markedness", name="Markedness", family="confusion", direction=1, range=_SIGNED,
          monotone_in_fp=True,
          prevalence_dependent=True,
          plot="measure",
          aliases=("deltap", "delta_p"),
          source="Wikipedia table; multi-level paper Table 5", formula="PPV + NPV - 1")
def markedness(c: Confusion) -> FloatOrArray:
    """PPV + NPV - 1, the regression coefficient dual to informedness."""
    with undefined_policy("ignore"):
        v = np.asarray(ppv(c)) + np.asarray(npv(c)) - 1.0
    reason = _NO_PP if np.any(np.asarray(c.pp) == 0) else _NO_PN
    return flag_nan(v, "markedness", reason)


def _haldane(c: Confusion, correction: float) -> Confusion:
    """Haldane–Anscombe: add ``correction`` to all four cells of every confusion
    matrix that has an empty cell, so that the ratios below stay finite (the usual
    rule of diagnostic meta-analysis, with 0.5; Glas et al. 2003). Matrices without
    an empty cell are unchanged."""
    k = check_in_range(correction, "correction", 0.0, np.inf, high_open=True)
    if k == 0:
        return c
    cells = [np.asarray(x, dtype=np.float64) for x in (c.tp, c.fp, c.fn, c.tn)]
    add = k * ((cells[0] == 0) | (cells[1] == 0) | (cells[2] == 0) | (cells[3] == 0))
    tp, fp, fn, tn = (x + add for x in cells)
    if np.ndim(add) == 0:
        return Confusion(tp=float(tp), fp=float(fp), fn=float(fn), tn=float(tn))
    return Confusion(tp=tp, fp=fp, fn=fn, tn=tn)


@register("lr_plus", name="Positive likelihood ratio", family="confusion", direction=1,
          # not monotone_in_fp: with a Haldane ``correction`` the ratio jumps where a
          # cell empties, so a cut with more false positives can be better
          prevalence_dependent=False,
          plot="measure",
          range=_POSITIVE, aliases=("positive_likelihood_ratio", "lr+"),
          interval_methods=("log",),
          source="Berrar Def. 9; multi-level paper Table 5",
          formula="TPR / FPR = TPR / (1 - TNR)")
def lr_plus(c: Confusion, *, correction: float = 0.0) -> FloatOrArray:
    """LR+ = sensitivity / (1 - specificity) (Berrar eq. 9); inf when FPR = 0 < TPR.

    Parameters
    ----------
    correction : float >= 0, default 0
        Haldane–Anscombe correction of empty cells, as for :func:`dor`.
    """
    c = _haldane(c, correction)
    with undefined_policy("ignore"):
        num, den = np.asarray(tpr(c)), np.asarray(fpr(c))
    if np.any(np.isnan(num) | np.isnan(den)):
        return flag_nan(num + den, "lr_plus", _both_classes_reason(c))
    return ratio(num, den, "lr_plus", "TPR = FPR = 0 (nothing is predicted positive)")


@register("lr_minus", name="Negative likelihood ratio", family="confusion", direction=-1,
          # not monotone_in_fp: with a Haldane ``correction`` the ratio jumps where a
          # cell empties, so a cut with more false positives can be better
          prevalence_dependent=False,
          plot="measure",
          range=_POSITIVE, aliases=("negative_likelihood_ratio", "lr-"),
          interval_methods=("log",),
          source="Berrar Def. 10; multi-level paper Table 5",
          formula="(1 - TPR) / TNR = FNR / TNR")
def lr_minus(c: Confusion, *, correction: float = 0.0) -> FloatOrArray:
    """LR- = (1 - sensitivity) / specificity (Berrar eq. 10); inf when TNR = 0 < FNR.

    Parameters
    ----------
    correction : float >= 0, default 0
        Haldane–Anscombe correction of empty cells, as for :func:`dor`.
    """
    c = _haldane(c, correction)
    with undefined_policy("ignore"):
        num, den = np.asarray(fnr(c)), np.asarray(tnr(c))
    if np.any(np.isnan(num) | np.isnan(den)):
        return flag_nan(num + den, "lr_minus", _both_classes_reason(c))
    return ratio(num, den, "lr_minus", "FNR = TNR = 0 (nothing is predicted negative)")


@register("dor", name="Diagnostic odds ratio", family="confusion", plot="measure", direction=1,
          prevalence_dependent=False,
          range=_POSITIVE, aliases=("diagnostic_odds_ratio",),
          interval_methods=("log",),
          source="Wikipedia table; multi-level paper Table 5",
          formula="LR+ / LR- = (TP x TN) / (FP x FN)")
def dor(c: Confusion, *, correction: float = 0.0) -> FloatOrArray:
    """Diagnostic odds ratio (TP·TN)/(FP·FN); inf when FP·FN = 0 < TP·TN.

    Parameters
    ----------
    correction : float >= 0, default 0 (the definition)
        Haldane–Anscombe correction: added to all four cells of a confusion matrix
        with an empty cell (0.5 is usual), so that the ratio stays finite, e.g. for
        ranking models by it (SRD). Matrices without an empty cell are unchanged.

    Examples
    --------
    >>> round(dor(Confusion(tp=3, fp=1, fn=2, tn=4)), 12)
    6.0
    >>> round(dor(Confusion(tp=5, fp=1, fn=0, tn=4), correction=0.5), 12)  # 5.5*4.5/(1.5*0.5)
    33.0
    """
    c = _haldane(c, correction)
    tp, fp, fn, tn = _fractions(c)
    return ratio(tp * tn, fp * fn, "dor", "TP x TN = FP x FN = 0")


@register("balanced_accuracy", name="Balanced accuracy", family="confusion", direction=1,
          monotone_in_fp=True,
          prevalence_dependent=False,
          plot="measure",
          range=_UNIT, aliases=("bacc",),
          source="Berrar Def. 11; multi-level paper Table 5", formula="(TPR + TNR) / 2")
def balanced_accuracy(c: Confusion) -> FloatOrArray:
    """Mean of sensitivity and specificity (Berrar eq. 11)."""
    with undefined_policy("ignore"):
        v = (np.asarray(tpr(c)) + np.asarray(tnr(c))) / 2.0
    return flag_nan(v, "balanced_accuracy", _both_classes_reason(c))


def _fbeta(c: Confusion, beta: float, measure: str) -> FloatOrArray:
    b2 = check_in_range(beta, "beta", 0.0, np.inf, low_open=True, high_open=True) ** 2
    tp = np.asarray(c.tp, dtype=np.float64)
    return ratio((1 + b2) * tp, (1 + b2) * tp + b2 * np.asarray(c.fn) + c.fp, measure,
                 "no positives and nothing predicted positive (TP + FP + FN = 0)")


@register("f1", name="F1 score", family="confusion", plot="measure", direction=1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=True,
          aliases=("f_measure", "f1_score", "f_score"),
          source="Berrar Def. 12; multi-level paper Table 5",
          formula="2 PPV TPR / (PPV + TPR) = 2TP / (2TP + FP + FN)")
def f1(c: Confusion) -> FloatOrArray:
    """Harmonic mean of precision and recall (Berrar eq. 12).

    Computed in the count form 2TP / (2TP + FP + FN), which is 0 (not undefined)
    when TP = 0 but FP + FN > 0.

    Examples
    --------
    >>> round(f1(Confusion(tp=3, fp=1, fn=2, tn=4)), 4)
    0.6667
    """
    return _fbeta(c, 1.0, "f1")


@register("fbeta", name="F-beta score", family="confusion", direction=1, range=_UNIT,
          monotone_in_fp=True,
          prevalence_dependent=True,
          plot="measure",
          aliases=("f_beta",), source="Berrar Def. 13",
          formula="(1 + b^2) PPV TPR / (b^2 PPV + TPR)")
def fbeta(c: Confusion, *, beta: float = 1.0) -> FloatOrArray:
    """F-beta: recall weighted beta times as much as precision (Berrar eq. 13).

    Parameters
    ----------
    beta : float > 0, default 1 (the F1 score).
    """
    return _fbeta(c, beta, "fbeta")


@register("g_measure", name="G-measure (Fowlkes-Mallows index)", family="confusion", plot="measure",
          monotone_in_fp=True,
          prevalence_dependent=True,
          direction=1, range=_UNIT, aliases=("fowlkes_mallows", "fowlkes_mallows_index",
                                          "otsuka_ochiai", "ooc"),
          source="Berrar Def. 14; Wikipedia table; PyCM OOC (Otsuka-Ochiai)",
          formula="sqrt(PPV x TPR)")
def g_measure(c: Confusion) -> FloatOrArray:
    """Geometric mean of precision and recall (Berrar eq. 14)."""
    tp, fp, fn, _ = _fractions(c)
    return ratio(tp, np.sqrt((tp + fp) * (tp + fn)), "g_measure",
                 _NO_POS if np.any(np.asarray(c.p) == 0) else _NO_PP)


@register("mcc", name="Matthews correlation coefficient", family="confusion", direction=1,
          monotone_in_fp=True,
          prevalence_dependent=True,
          plot="measure",
          range=_SIGNED, aliases=("phi", "matthews_corrcoef", "phi_coefficient"),
          source="Berrar Def. 15; Wikipedia table; multi-level paper Table 5",
          formula="(TP TN - FP FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))")
def mcc(c: Confusion) -> FloatOrArray:
    """Matthews correlation coefficient (Berrar eq. 15).

    Undefined (NaN, not scikit-learn's 0) when a row or column of the confusion
    matrix is empty, e.g. when nothing is predicted positive.

    Examples
    --------
    >>> round(mcc(Confusion(tp=3, fp=1, fn=2, tn=4)), 6)
    0.408248
    """
    tp, fp, fn, tn = _fractions(c)
    den = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    # an empty row or column makes both numerator and denominator 0
    return ratio(tp * tn - fp * fn, den, "mcc", "a row or column of the confusion matrix is empty")


@register("kappa", name="Cohen's kappa", family="confusion", direction=1, range=_SIGNED,
          monotone_in_fp=True,
          prevalence_dependent=True,
          plot="measure",
          aliases=("cohen_kappa", "cohens_kappa"),
          source=("Berrar Def. 24 (eqs. 26-27; the paper's 0.50 is P_e, kappa is 0.40); "
                  "multi-level paper Table 5"),
          formula="(P0 - Pe) / (1 - Pe), Pe = (PP P + PN N) / n^2")
def kappa(c: Confusion) -> FloatOrArray:
    """Cohen's kappa: accuracy corrected for chance agreement (Berrar eqs. 26-27).

    Examples
    --------
    >>> round(kappa(Confusion(tp=3, fp=1, fn=2, tn=4)), 12)
    0.4
    """
    tp, fp, fn, tn = _fractions(c)
    p0 = tp + tn
    pe = (tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)
    return ratio(p0 - pe, 1.0 - pe, "kappa",
                 "chance agreement is 1 (one class, and only that class predicted)")


@register("lift", name="Lift", family="confusion", plot="measure", direction=1, range=_POSITIVE,
          monotone_in_fp=True,
          prevalence_dependent=True,
          source="Berrar Def. 16", formula="PPV / prior, prior = P / (P + N) by default")
def lift(c: Confusion, *, prior: float | None = None) -> FloatOrArray:
    """How many times better than random guessing the positive predictions are (Berrar eq. 16).

    Parameters
    ----------
    prior : float in (0, 1], optional
        The null model's rate of positive predictions, i.e. the prior of the
        positive class (Berrar takes the training set's). Default: the prevalence
        of the evaluated data.
    """
    with undefined_policy("ignore"):
        precision = np.asarray(ppv(c))
    if prior is None:
        base = np.asarray(c.p, dtype=np.float64) / c.total
    else:
        base = np.asarray(check_in_range(prior, "prior", 0.0, 1.0, low_open=True))
    if np.any(np.isnan(precision)):
        # divide anyway: on an array of cuts only some are undefined (NaN stays NaN)
        with np.errstate(divide="ignore", invalid="ignore"):
            return flag_nan(precision / base, "lift", _NO_PP)
    return ratio(precision, base, "lift", "the prior of the positive class is 0")


@register("threat_score", name="Threat score (critical success index, Jaccard)",
          monotone_in_fp=True,
          prevalence_dependent=True,
          family="confusion", plot="measure", direction=1, range=_UNIT,
          aliases=("critical_success_index", "csi", "jaccard", "jaccard_index"),
          source="Wikipedia table; multi-level paper Table 5 (Jaccard)",
          formula="TP / (TP + FN + FP)")
def threat_score(c: Confusion) -> FloatOrArray:
    """True positives over everything that is positive in truth or prediction."""
    return ratio(c.tp, np.asarray(c.tp) + c.fn + c.fp, "threat_score",
                 "no positives and nothing predicted positive (TP + FN + FP = 0)")


@register("prevalence_threshold", name="Prevalence threshold", family="confusion", plot="measure",
          monotone_in_fp=True,
          prevalence_dependent=False,
          direction=-1, range=_UNIT, source="Wikipedia table",
          formula="(sqrt(TPR FPR) - FPR) / (TPR - FPR) = sqrt(FPR) / (sqrt(TPR) + sqrt(FPR))")
def prevalence_threshold(c: Confusion) -> FloatOrArray:
    """The prevalence below which the positive predictive value drops sharply.

    Computed as sqrt(FPR) / (sqrt(TPR) + sqrt(FPR)), equal to the table's
    (sqrt(TPR·FPR) - FPR) / (TPR - FPR) and defined also where TPR = FPR > 0.
    """
    with undefined_policy("ignore"):
        t, f = np.asarray(tpr(c)), np.asarray(fpr(c))
    if np.any(np.isnan(t) | np.isnan(f)):
        return flag_nan(t + f, "prevalence_threshold", _both_classes_reason(c))
    sf = np.sqrt(f)
    return ratio(sf, np.sqrt(t) + sf, "prevalence_threshold",
                 "TPR = FPR = 0 (nothing is predicted positive)")


@register("selection_rate", name="Selection rate", family="confusion", direction=0,
          prevalence_dependent=True,
          range=_UNIT, plot="measure",
          aliases=("detection_prevalence", "predicted_positive_rate"),
          source="Weerts et al. 2023 (fairlearn's selection_rate); docs/howto/groups.md",
          formula="(TP + FP) / (TP + FP + FN + TN)",
          proportion=lambda c: (c.tp + c.fp, c.total))
def selection_rate(c: Confusion) -> FloatOrArray:
    """Proportion of cases predicted positive, (TP + FP) / n: the rate demographic
    parity compares between groups (fairlearn's ``selection_rate``).

    Examples
    --------
    >>> selection_rate(Confusion(tp=3, fp=1, fn=2, tn=4))
    0.4
    """
    return ratio(c.tp + c.fp, c.total, "selection_rate", "there are no cases")
