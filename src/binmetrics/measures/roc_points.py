"""One rate of the ROC curve read at a fixed value of the other, as pROC's ``coords``.

``tpr_at_fpr`` is the sensitivity at a fixed specificity (pROC ``coords(roc, 1 - fpr,
input = "specificity", ret = "sensitivity")``), ``tnr_at_tpr`` the specificity at a fixed
sensitivity (``coords(roc, tpr, input = "sensitivity", ret = "specificity")``). They are
what pROC's ``roc.test(method = "specificity" | "sensitivity")`` compares and what its
``ci.se`` / ``ci.sp`` bands bound.

The rules (pROC's): where the curve has several vertices at exactly the rate asked (a
run of tied rates), the one with the highest TPR (asked by FPR) or the lowest FPR (asked
by TPR); otherwise linear interpolation between the vertices on either side, tied
scores being diagonal segments. Rates are compared exactly as given.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.measures.ranking import both_classes
from binmetrics.measures.registry import register
from binmetrics.table.counts import CountTable, FloatArray

__all__ = ["check_rates", "read_curve", "tnr_at_tpr", "tpr_at_fpr"]


def check_rates(values: Any, name: str) -> FloatArray:
    """Rates as a float array, each in [0, 1], or a one-line error."""
    try:
        v = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name}= must be a rate or an array of rates in [0, 1]; got "
                        f"{values!r}") from None
    if v.size == 0:
        raise ValueError(f"{name}= is empty; pass one rate or an array of rates in [0, 1]")
    bad = ~((v >= 0.0) & (v <= 1.0))
    if bad.any():
        raise ValueError(f"{name}= must hold rates in [0, 1]; got {v[bad].ravel()[0]!r}")
    return v


def _one_rate(value: Any, name: str, measure: str) -> FloatArray:
    v = check_rates(value, name)
    if v.size != 1:
        raise TypeError(f"{measure} takes one {name}= rate; for several read the curve: "
                         f"ev.roc().at({name}=[...])")
    return v.reshape(1)


def read_curve(xs: FloatArray, ys: FloatArray, x: FloatArray, *,
               last: bool) -> tuple[FloatArray, npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """The curve (xs nondecreasing from 0 to 1, ys nondecreasing) read at ``x``.

    Returns the ordinates, the vertex index of each exact hit and which were hits; on a
    run of vertices at x the last (``last=True``, highest ordinate) or the first.
    """
    if last:
        idx = np.searchsorted(xs, x, side="right") - 1
    else:
        idx = np.minimum(np.searchsorted(xs, x, side="left"), xs.size - 1)
    idx = np.maximum(idx, 0)
    hit = xs[idx] == x
    out = np.where(hit, ys[idx], np.nan)
    miss = ~hit & ~np.isnan(x)
    if miss.any():
        hi = np.minimum(np.searchsorted(xs, x[miss], side="right"), xs.size - 1)
        lo = hi - 1
        prop = (x[miss] - xs[lo]) / (xs[hi] - xs[lo])
        out[miss] = ys[lo] + prop * (ys[hi] - ys[lo])
    return out, idx, hit


@register("tpr_at_fpr", name="Sensitivity at a fixed false positive rate", family="ranking",
          plot="roc", binning_bound="refinements", direction=1, range=(0.0, 1.0),
          aliases=("sensitivity_at_specificity", "se_at_sp"),
          source="pROC coords(input = \"specificity\"); roc.test(method = \"specificity\")",
          formula="TPR(fpr), linear between the ROC vertices (highest TPR on a vertical run)")
def tpr_at_fpr(t: CountTable, *, fpr: float = 0.1) -> float:
    """The TPR of the ROC curve at a fixed FPR (sensitivity at specificity 1 - fpr).

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
    >>> tpr_at_fpr(t, fpr=0.5), tpr_at_fpr(t, fpr=0.25)
    (1.0, 0.5)
    """
    x = _one_rate(fpr, "fpr", "tpr_at_fpr")
    if not both_classes(t, "tpr_at_fpr"):
        return float("nan")
    out, _, _ = read_curve(t.fp / t.N, t.tp / t.P, x, last=True)
    return float(out[0])


@register("tnr_at_tpr", name="Specificity at a fixed true positive rate", family="ranking",
          plot="roc", binning_bound="refinements", direction=1, range=(0.0, 1.0),
          aliases=("specificity_at_sensitivity", "sp_at_se"),
          source="pROC coords(input = \"sensitivity\"); roc.test(method = \"sensitivity\")",
          formula="1 - FPR(tpr), linear between the ROC vertices (lowest FPR on a run)")
def tnr_at_tpr(t: CountTable, *, tpr: float = 0.9) -> float:
    """The specificity (1 - FPR) of the ROC curve at a fixed TPR.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 1, 0], [0.9, 0.7, 0.6, 0.2])
    >>> tnr_at_tpr(t, tpr=0.5), tnr_at_tpr(t, tpr=0.75)
    (1.0, 0.5)
    """
    x = _one_rate(tpr, "tpr", "tnr_at_tpr")
    if not both_classes(t, "tnr_at_tpr"):
        return float("nan")
    out, _, _ = read_curve(t.tp / t.P, t.fp / t.N, x, last=False)
    return 1.0 - float(out[0])
