"""One rate at the best cut that keeps another at or above a floor: the "at fixed"
measures of torchmetrics (``BinaryRecallAtFixedPrecision``,
``BinaryPrecisionAtFixedRecall``, ``BinarySensitivityAtSpecificity``,
``BinarySpecificityAtSensitivity``).

Each reads the cuts of the count table (every distinct score, ties never split) and
returns, among the cuts whose second rate is at least the floor, the largest first rate:
a value some threshold achieves, unlike pROC's interpolated ``tpr_at_fpr`` and
``tnr_at_tpr`` (:mod:`binmetrics.measures.roc_points`), which read the ROC curve between
its vertices. Where the floor is a rate some cut reaches exactly, ``tnr_at_min_tpr``
equals pROC's ``tnr_at_tpr``.

As torchmetrics: the precision-based pair reads the cuts that predict some case positive
(the precision-recall curve's points with a threshold); the ROC-based pair reads every
cut, the one predicting nothing positive included. When no cut meets the floor (only
possible for ``tpr_at_ppv``) the value is 0, the recall of predicting nothing positive
(torchmetrics returns 0 there too). A table without positives or without negatives gives
NaN with an :class:`~binmetrics.exceptions.UndefinedMeasureWarning`.

Read from the groups that hold positives alone (:meth:`CountTable.positive_groups`, no
table-sized arrays): the TPR rises only across those groups and the TNR falls only
across groups holding negatives, so a floor on either holds on a run of cuts that starts
or ends at one of them, with the TP and FP found there; and with the TP of a cut, the
cut ending at the last score holding positives has the fewest FP, so the best precision,
and the most recall at a precision floor, are read at those cuts only (in floats too: a
larger denominator never rounds to a larger ratio). The values equal the full scan's,
bit for bit (tested), and a bootstrap replicate needs no table for them
(:mod:`binmetrics.inference._replicate_groups`).
"""

from __future__ import annotations

import numpy as np

from binmetrics.measures.ranking import both_classes
from binmetrics.measures.registry import register
from binmetrics.table.counts import CountTable
from binmetrics.validation import check_in_range

__all__ = ["ppv_at_tpr", "tnr_at_min_tpr", "tpr_at_ppv", "tpr_at_tnr"]

_SOURCE = ("torchmetrics {} (the largest {} among cuts with {} >= the floor); "
           "docs/howto/thresholds.md")


@register("tpr_at_ppv", name="Recall at a fixed precision", family="ranking", plot="pr",
          prevalence_dependent=True,
          direction=1, range=(0.0, 1.0),
          aliases=("recall_at_precision", "recall_at_fixed_precision", "tpr_at_min_ppv"),
          source=_SOURCE.format("BinaryRecallAtFixedPrecision", "recall", "precision"),
          formula="max TPR(k) over the cuts k >= 1 with PPV(k) >= ppv (0 if none)")
def tpr_at_ppv(t: CountTable, *, ppv: float = 0.9) -> float:
    """The largest recall among the cuts whose precision is at least ``ppv``.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4, .3, .2])
    >>> tpr_at_ppv(t, ppv=0.75), tpr_at_ppv(t, ppv=0.6)
    (0.75, 1.0)
    """
    floor = check_in_range(ppv, "ppv", 0.0, 1.0)
    if not both_classes(t, "tpr_at_ppv"):
        return float("nan")
    g = t.positive_groups()  # a cut meeting the floor with the most TP: one ending at
    tp, fp = g.tp1, g.fp1  # a positive score (the stricter cut with its TP has less FP)
    ok = tp / (tp + fp) >= floor
    if ok.any():  # the largest TPR: the last such cut
        return float(tp[ok.size - 1 - int(np.argmax(ok[::-1]))] / t.P)
    return 0.0


@register("ppv_at_tpr", name="Precision at a fixed recall", family="ranking", plot="pr",
          prevalence_dependent=True,
          direction=1, range=(0.0, 1.0),
          aliases=("precision_at_recall", "precision_at_fixed_recall", "ppv_at_min_tpr"),
          source=_SOURCE.format("BinaryPrecisionAtFixedRecall", "precision", "recall"),
          formula="max PPV(k) over the cuts k >= 1 with TPR(k) >= tpr")
def ppv_at_tpr(t: CountTable, *, tpr: float = 0.9) -> float:
    """The largest precision among the cuts whose recall is at least ``tpr``.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4, .3, .2])
    >>> ppv_at_tpr(t, tpr=0.75), ppv_at_tpr(t, tpr=1.0)
    (0.75, 0.6666666666666666)
    """
    floor = check_in_range(tpr, "tpr", 0.0, 1.0)
    if not both_classes(t, "ppv_at_tpr"):
        return float("nan")
    # the recall moves only at the groups holding positives, and along the run of cuts
    # that follows one (its TP, more FP) the precision falls: the best cut meeting the
    # floor ends at such a group (with weights too: the same sums as a walk of every cut)
    g = t.positive_groups()
    tp, fp = g.tp1, g.fp1
    return float(np.max((tp / (tp + fp))[tp / t.P >= floor]))


@register("tpr_at_tnr", name="Sensitivity at a fixed specificity (a cut's)",
          prevalence_dependent=False,
          family="ranking", plot="roc", direction=1, range=(0.0, 1.0),
          aliases=("tpr_at_min_tnr", "sensitivity_at_min_specificity"),
          source=_SOURCE.format("BinarySensitivityAtSpecificity", "sensitivity",
                                "specificity"),
          formula="max TPR(k) over the cuts k >= 0 with TNR(k) >= tnr")
def tpr_at_tnr(t: CountTable, *, tnr: float = 0.9) -> float:
    """The largest sensitivity among the cuts whose specificity is at least ``tnr``
    (pROC's interpolated reading of the ROC curve is ``tpr_at_fpr``).

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4, .3, .2])
    >>> tpr_at_tnr(t, tnr=0.75), tpr_at_tnr(t, tnr=0.9)
    (0.75, 0.5)
    """
    floor = check_in_range(tnr, "tnr", 0.0, 1.0)
    if not both_classes(t, "tpr_at_tnr"):
        return float("nan")
    # the TNR falls only across groups with negatives, the TPR rises only across groups
    # with positives: the last cut meeting the floor lies before the first group with
    # positives whose cut after it fails, or in the negatives before it, and has that
    # group's TP before (all of them if none fails); the same TP as at that cut
    g = t.positive_groups()
    fails = ~(1.0 - g.fp1 / t.N >= floor)
    tp = g.tp0[int(np.argmax(fails))] if fails.any() else g.tp1[-1]
    return float(tp / t.P)


@register("tnr_at_min_tpr", name="Specificity at a fixed sensitivity (a cut's)",
          prevalence_dependent=False,
          family="ranking", plot="roc", direction=1, range=(0.0, 1.0),
          aliases=("specificity_at_min_sensitivity",),
          source=_SOURCE.format("BinarySpecificityAtSensitivity", "specificity",
                                "sensitivity"),
          formula="max TNR(k) over the cuts k >= 0 with TPR(k) >= tpr")
def tnr_at_min_tpr(t: CountTable, *, tpr: float = 0.9) -> float:
    """The largest specificity among the cuts whose sensitivity is at least ``tpr``
    (pROC's interpolated reading of the ROC curve is ``tnr_at_tpr``).

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 0, 1, 0, 0], [.9, .8, .7, .6, .5, .4, .3, .2])
    >>> tnr_at_min_tpr(t, tpr=0.6), tnr_at_min_tpr(t, tpr=1.0)
    (0.75, 0.5)
    """
    floor = check_in_range(tpr, "tpr", 0.0, 1.0)
    if not both_classes(t, "tnr_at_min_tpr"):
        return float("nan")
    if floor <= 0:  # cut 0 meets it: nothing predicted positive
        return 1.0
    # the first cut meeting the floor ends a group with positives (the TPR rises there
    # only), the first whose TPR after it reaches the floor (the last one's is 1)
    g = t.positive_groups()
    k = int(np.argmax(g.tp1 / t.P >= floor))
    return float(1.0 - g.fp1[k] / t.N)
