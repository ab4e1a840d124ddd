"""The groups of a count table that hold positives, and the running sums read before
them on a weighted table.

Most ranking measures are sums over the positives, so they read only these groups
(:meth:`binmetrics.table.counts.CountTable.positive_groups`): with a prevalence of 0.1,
about a tenth of the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

__all__ = ["PositiveGroups", "count_sum", "walked_groups", "weighted_sums_before"]


def count_sum(counts: npt.NDArray[Any]) -> float:
    """The sum of a count array as a float: whole-number counts in int64 (exact, and
    faster than a float sum, which casts every count), weights in float64.

    >>> count_sum(np.array([3, 250, 7], dtype=np.uint8))
    260.0
    """
    if counts.dtype.kind in "iu":
        return float(counts.sum(dtype=np.int64))
    return float(counts.sum(dtype=np.float64))


@dataclass(frozen=True)
class PositiveGroups:
    """The groups of a table that hold positives: their index, own counts, and the
    cumulative counts before them (``tp0``, ``fp0``; after them: + pos, + neg)."""

    idx: npt.NDArray[np.intp]
    pos: FloatArray
    neg: FloatArray
    tp0: FloatArray
    fp0: FloatArray

    # not cached: each is a tenth of the score bytes at a prevalence of 0.1, and held
    # they lift the peak memory of to_dict() over 3x the score bytes (issue 18)
    @property
    def tp1(self) -> FloatArray:
        return self.tp0 + self.pos

    @property
    def fp1(self) -> FloatArray:
        return self.fp0 + self.neg

    @cached_property
    def precision(self) -> FloatArray:
        """TP / (TP + FP) at the cut after each group (read by two measures)."""
        tp1 = self.tp1
        cases = tp1 + self.fp1
        return np.divide(tp1, cases, out=cases)


def weighted_sums_before(neg: npt.NDArray[Any], idx: npt.NDArray[np.intp], pos: FloatArray,
                         size: int) -> tuple[FloatArray, FloatArray,
                                             tuple[FloatArray, FloatArray]]:
    """(TP, FP) at the cut before each group ``idx`` holding positives (weights ``pos``)
    of a weighted table with negatives ``neg``, bit for bit its cumulative
    :attr:`~binmetrics.table.counts.CountTable.tp` and
    :attr:`~binmetrics.table.counts.CountTable.fp`, and as a by-product its block
    carries of blocks of ``size`` groups
    (:meth:`~binmetrics.table.counts.CountTable.block_carries`, read-only).

    Both are running sums in table order. The groups without positives add exact
    zeros to TP, so its running sum over the positive groups alone has the same floats
    (a tenth of the table at a prevalence of 0.1); FP is summed over every group, block
    by block from the carry in one reused buffer, as ``iter_cuts`` sums it.

    Examples
    --------
    >>> tp0, fp0, _ = weighted_sums_before(np.array([0.5, 0.0, 2.0]), np.array([1, 2]),
    ...                                    np.array([1.5, 0.25]), 2)
    >>> tp0.tolist(), fp0.tolist()
    ([0.0, 1.5], [0.5, 0.5])
    """
    n = neg.size
    starts = np.append(np.arange(0, n, size), n)
    bounds = np.searchsorted(idx, starts)
    tp_at = np.concatenate(([0.0], np.cumsum(pos)))  # TP before the k-th positive group
    fp0 = np.empty(idx.size)
    fp_carries = np.zeros(starts.size)
    buf = np.empty(min(size, n) + 1)
    for j, a in enumerate(range(0, n, size), 1):
        m = min(size, n - a)
        buf[0] = fp_carries[j - 1]
        buf[1:m + 1] = neg[a:a + m]
        np.cumsum(buf[:m + 1], out=buf[:m + 1])  # buf[k]: FP before group a + k
        lo, hi = bounds[j - 1], bounds[j]
        fp0[lo:hi] = buf[idx[lo:hi] - a]
        fp_carries[j] = buf[m]
    carries = (tp_at[bounds], fp_carries)
    for c in carries:
        c.flags.writeable = False
    return tp_at[:-1], fp0, carries


def walked_groups(loops: Any, pos: FloatArray, neg: FloatArray, size: int
                  ) -> tuple[PositiveGroups, tuple[FloatArray, FloatArray]]:
    """The groups holding positives of a weighted table with counts ``pos``, ``neg``
    (float64), and its block carries of blocks of ``size`` groups, from one compiled
    walk of its rows (``loops``: :mod:`binmetrics.table._running_numba`): the same floats
    as :func:`weighted_sums_before` after a scan for the groups, in one read of the
    counts."""
    g = int(np.count_nonzero(pos))
    idx = np.empty(g, dtype=np.intp)
    pos_at, neg_at, tp0, fp0 = (np.empty(g) for _ in range(4))
    blocks = -(-pos.size // size) + 1
    carries = np.empty(blocks), np.empty(blocks)
    loops.positive_walk(pos, neg, size, idx, pos_at, neg_at, tp0, fp0, *carries)
    for c in carries:
        c.flags.writeable = False
    return PositiveGroups(idx=idx, pos=pos_at, neg=neg_at, tp0=tp0, fp0=fp0), carries
