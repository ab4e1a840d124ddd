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

from collections.abc import Callable
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from binmetrics.measures.ranking import both_classes
from binmetrics.measures.registry import register
from binmetrics.table.counts import CountTable, FloatArray, block_size

__all__ = ["check_rates", "find_block", "fpr_read_at_tpr", "read_curve", "tnr_at_tpr",
           "tpr_at_fpr", "tpr_read_at_fpr"]


# --- the ROC points without the table-sized cumulative arrays (issue 18: memory) ---------
def find_block(t: CountTable, end_of: Callable[[FloatArray, FloatArray], FloatArray],
               v: float, side: Literal["left", "right"]) -> tuple[int, FloatArray, FloatArray]:
    """The block where a nondecreasing quantity of the cuts passes v, and the carries.

    Parameters
    ----------
    t : the count table.
    end_of : the quantity (a rate, the cases) at the last cut of blocks from their
        (TP, FP) there, computed as the block's own values are, e.g.
        ``lambda tp, fp: fp / t.N``.
    v, side : as ``np.searchsorted``: with "left" every cut of the blocks before the
        one returned has a value below v, with "right" at most v; every cut after it
        has a value at or above (above) v. The number of blocks when none passes v.

    Returns
    -------
    k, tp, fp : the block and :meth:`~binmetrics.table.counts.CountTable.block_carries`,
        at least through entry k (extended, doubling, only as far as the search needs).
    """
    count = -(-t.n_distinct // block_size())
    blocks = 4
    while True:
        tp, fp = t.block_carries(blocks=blocks)
        ends = end_of(tp[1:], fp[1:])
        k = int(np.searchsorted(ends, v, side=side))
        if k < ends.size or ends.size == count:
            return k, tp, fp
        blocks = 2 * ends.size


def tpr_read_at_fpr(t: CountTable, x: float) -> float:
    """The ROC curve's TPR at FPR ``x`` by pROC's rules (:func:`read_curve` with
    ``last=True`` on every cut: the top of a vertical run at x, else linear between the
    cuts on either side), from the groups holding positives alone.

    The TPR steps only at those groups. The last cut with FPR at most x lies before the
    first such group k whose cut after it has FPR above x, or in the run of negative
    groups before it: its TP is k's TP before (``tp0``), and where the curve crosses x
    along a run of negatives it is flat, so that is the reading. Only a crossing inside
    k's own diagonal (a tied group holding both classes) interpolates, between the cuts
    before and after k. The same floats as the reading of every cut (tested), without
    the cuts between the groups.
    """
    g = t.positive_groups()
    k = int(np.searchsorted(g.fp1 / t.N, x, side="right"))
    if k == g.idx.size:  # past the last positive: every positive is in
        return float(g.tp1[-1] / t.P)
    f0, f1 = g.fp0[k] / t.N, g.fp1[k] / t.N
    y0 = g.tp0[k] / t.P
    if f0 >= x:  # the cut before k (at x: the top of a vertical run), or flat before it
        return float(y0)
    return float(y0 + (x - f0) / (f1 - f0) * (g.tp1[k] / t.P - y0))


def fpr_read_at_tpr(t: CountTable, x: float) -> float:
    """The ROC curve's FPR at TPR ``x`` by pROC's rules (:func:`read_curve` with
    ``last=False`` on every cut: the first cut at x, the lowest FPR, else linear between
    the cuts on either side), from the groups holding positives alone: the first cut
    with TPR at least x (x > 0) ends the first such group k whose TPR after it reaches
    x; below it the curve runs up k's own segment from the cut before k."""
    if x <= 0.0:  # cut 0
        return 0.0
    g = t.positive_groups()
    r1 = g.tp1 / t.P
    k = int(np.searchsorted(r1, x, side="left"))  # < size: the last reaches 1
    f1 = g.fp1[k] / t.N
    if r1[k] == x:
        return float(f1)
    r0, f0 = g.tp0[k] / t.P, g.fp0[k] / t.N
    return float(f0 + (x - r0) / (r1[k] - r0) * (f1 - f0))


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
        raise ValueError(f"{name}= must hold rates in [0, 1]; got {float(v[bad].ravel()[0])!r}")
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
          prevalence_dependent=False,
          plot="roc", binning_bound="refinements", direction=1, range=(0.0, 1.0),
          aliases=("sensitivity_at_specificity", "se_at_sp"),
          source=("Robin et al. 2011 (pROC): coords(input = \"specificity\"), "
                  "roc.test(method = \"specificity\")"),
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
    return tpr_read_at_fpr(t, float(x[0]))


@register("tnr_at_tpr", name="Specificity at a fixed true positive rate", family="ranking",
          prevalence_dependent=False,
          plot="roc", binning_bound="refinements", direction=1, range=(0.0, 1.0),
          aliases=("specificity_at_sensitivity", "sp_at_se"),
          source=("Robin et al. 2011 (pROC): coords(input = \"sensitivity\"), "
                  "roc.test(method = \"sensitivity\")"),
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
    return 1.0 - fpr_read_at_tpr(t, float(x[0]))
