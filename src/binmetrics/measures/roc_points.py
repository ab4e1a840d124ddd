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

__all__ = ["check_rates", "cut_counts", "cut_rates", "find_block", "read_curve",
           "read_rate", "tnr_at_tpr", "tpr_at_fpr"]


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


def cut_counts(t: CountTable, on: str, values: list[float]) -> tuple[list[int], list[int]]:
    """For each v: how many cuts have a rate on axis ``on`` (``"fpr"``: fp/N, ``"tpr"``:
    tp/P; cut 0 included) below v, and at most v: ``np.searchsorted(rate, v)`` with
    side "left" and "right". Each from the one block where the rates pass v
    (:func:`find_block`), its rates computed as from ``t.fp / t.N`` or ``t.tp / t.P``
    (:meth:`~binmetrics.table.counts.CountTable.iter_cuts` gives the same counts bit
    for bit): the blocks before count whole, the blocks after not at all."""

    def rate_of(tp: FloatArray, fp: FloatArray) -> FloatArray:
        return fp / t.N if on == "fpr" else tp / t.P

    blocks: dict[int, tuple[int, FloatArray]] = {}  # (first group, rates) by block

    def count(v: float, side: Literal["left", "right"]) -> int:
        k = find_block(t, rate_of, v, side)[0]
        at_zero = int(0.0 < v if side == "left" else 0.0 <= v)  # cut 0: rate 0
        if k == -(-t.n_distinct // block_size()):  # every cut's rate is below (at most) v
            return at_zero + t.n_distinct
        if k not in blocks:
            start, tp, fp, _, _ = next(t.iter_cuts(first_block=k))
            blocks[k] = (start, rate_of(tp, fp))
        start, rate = blocks[k]
        return at_zero + start + int(np.searchsorted(rate, v, side=side))

    return [count(v, "left") for v in values], [count(v, "right") for v in values]


def cut_rates(t: CountTable, a: int, b: int) -> tuple[FloatArray, FloatArray]:
    """(tp/P, fp/N) of the cuts a..b-1, equal to ``t.tp[a:b] / t.P`` and
    ``t.fp[a:b] / t.N``, from the blocks that hold them (and no others)."""
    tp, fp = np.zeros(b - a), np.zeros(b - a)  # cut 0: nothing predicted positive
    if b > max(a, 1):  # some cut after cut 0: the block of cut c >= 1 holds group c - 1
        first = max(a - 1, 0) // block_size()
        for start, btp, bfp, _, _ in t.iter_cuts(first_block=first):
            lo, hi = max(a, start + 1), min(b, start + 1 + btp.size)  # block: cuts start+1..
            if lo < hi:
                tp[lo - a:hi - a] = btp[lo - start - 1:hi - start - 1]
                fp[lo - a:hi - a] = bfp[lo - start - 1:hi - start - 1]
            if start + 1 + btp.size >= b:
                break
    tp /= t.P  # in place: the same quotients, no second pair of arrays
    fp /= t.N
    return tp, fp


def read_rate(t: CountTable, on: str, x: FloatArray, *, last: bool) -> float:
    """:func:`read_curve` of the ROC curve at one rate ``x`` on axis ``on`` (the other
    rate returned), from the few cuts that it reads: those around the first cut at or
    above x and the last cut at or below it. The same value as on the whole curve."""
    below, upto = cut_counts(t, on, [float(x[0])])
    size = t.n_distinct + 1
    spans = sorted((max(k - 2, 0), min(k + 2, size)) for k in (below[0], upto[0]))
    if spans[1][0] <= spans[0][1]:  # overlapping: one span
        spans = [(spans[0][0], max(spans[0][1], spans[1][1]))]
    rates = [cut_rates(t, a, b) for a, b in spans]  # each span's blocks read once
    tpr = np.concatenate([r[0] for r in rates])
    fpr = np.concatenate([r[1] for r in rates])
    xs, ys = (fpr, tpr) if on == "fpr" else (tpr, fpr)
    return float(read_curve(xs, ys, x, last=last)[0][0])


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
    return read_rate(t, "fpr", x, last=True)


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
    return 1.0 - read_rate(t, "tpr", x, last=False)
