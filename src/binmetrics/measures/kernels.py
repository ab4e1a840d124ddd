"""Resampling kernels: ranking measures of many count tables at once.

A bootstrap or permutation replicate of an evaluation set is the same sorted table with
new counts, so B replicates are two (B x groups) count matrices ``pos`` and ``neg``
(:mod:`binmetrics.inference.resampling`). A kernel computes a measure on every row of
them with cumulative sums, instead of building B tables. Each measure that has one
declares it in the registry (``@register(..., resampling_kernel=auc_kernel)``,
:attr:`~binmetrics.measures.Measure.resampling_kernel`); the resampling code reads it
from there and evaluates the other measures table by table.

Every kernel is invariant to merging runs of adjacent groups that hold only negatives
(the resampling code condenses the tables that way when it is cheaper). Integer counts
stay integers where the sums are exact. A row without positives or without negatives
gives NaN, silently: the caller counts and reports undefined replicates.

Examples
--------
>>> import numpy as np
>>> pos = np.array([[2, 1, 0], [1, 1, 1]])
>>> neg = np.array([[0, 1, 2], [1, 1, 1]])
>>> auc_kernel(pos, neg).tolist(), gini_kernel(pos, neg).tolist()
([0.9444444444444444, 0.5], [0.8888888888888888, 0.0])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from binmetrics.measures._util import FloatOrArray

__all__ = [
    "Kernel",
    "auc_kernel",
    "auc_transform",
    "average_precision_kernel",
    "gini_from_auc",
    "gini_kernel",
    "ks_kernel",
    "youden_j_max_kernel",
]

FloatArray = npt.NDArray[np.float64]
Counts = npt.NDArray[Any]

#: A resampling kernel: ``kernel(pos, neg)`` gives one value per row of the count matrices.
Kernel = Callable[[Counts, Counts], FloatArray]


def _defined(v: Any, P: Counts, N: Counts) -> FloatArray:
    """``v`` as float64, NaN in the rows that lack a class."""
    out = np.asarray(v, dtype=np.float64)
    out[(P <= 0) | (N <= 0)] = np.nan
    return out


def auc_kernel(pos: Counts, neg: Counts) -> FloatArray:
    """The AUC of each replicate: the Mann-Whitney probability that a positive outscores
    a negative, ties counting one half.

    Each row of the (replicates x groups) count matrices ``pos``, ``neg`` is one
    replicate's table, possibly with runs of adjacent negative-only groups merged;
    values equal the measure's function (:func:`binmetrics.measures.ranking.auc`) on
    each table. Integer counts give the exact Mann-Whitney count: each positive beats
    the negatives below its group and ties half of its own, and twice that is an
    integer.

    Examples
    --------
    >>> import numpy as np
    >>> auc_kernel(np.array([[1, 1, 0]]), np.array([[0, 1, 1]])).tolist()
    [0.875]
    """
    P = pos.sum(axis=1)
    N = neg.sum(axis=1)
    fp1 = np.cumsum(neg, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        below2 = N[:, None] - fp1
        below2 *= 2
        below2 += neg
        v = np.einsum("ij,ij->i", pos, below2) / (2.0 * (P * N))
    return _defined(v, P, N)


@overload
def gini_from_auc(auc: float) -> float: ...


@overload
def gini_from_auc(auc: FloatArray) -> FloatArray: ...


def gini_from_auc(auc: Any) -> FloatOrArray:
    """The Gini index of an AUC (or an array of them): 2 AUC - 1."""
    return 2.0 * auc - 1.0


def gini_kernel(pos: Counts, neg: Counts) -> FloatArray:
    """The Gini index (2 AUC - 1) of each replicate.

    Each row of the (replicates x groups) count matrices ``pos``, ``neg`` is one
    replicate's table, possibly with runs of adjacent negative-only groups merged;
    values equal the measure's function (:func:`binmetrics.measures.ranking.gini`) on
    each table.
    """
    v: FloatArray = gini_from_auc(auc_kernel(pos, neg))
    return v


def average_precision_kernel(pos: Counts, neg: Counts) -> FloatArray:
    """The average precision of each replicate: the precision at each group holding
    positives, weighted by its positives.

    Each row of the (replicates x groups) count matrices ``pos``, ``neg`` is one
    replicate's table, possibly with runs of adjacent negative-only groups merged;
    values equal the measure's function
    (:func:`binmetrics.measures.ranking.average_precision`) on each table.
    """
    P, N, pos_f, tp1, fp1f = _cumulative_rows(pos, neg)
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(pos_f > 0, tp1 / (tp1 + fp1f), 0.0)
        v = np.einsum("ij,ij->i", pos_f, prec) / P
    return _defined(v, P, N)


def _cumulative_rows(pos: Counts, neg: Counts) -> tuple[FloatArray, FloatArray, FloatArray,
                                                         FloatArray, FloatArray]:
    """Per replicate row: P, N, the positives as floats and the cumulative TP and FP
    after each cut (the counts summed as integers, then read as floats)."""
    pos_f = pos.astype(np.float64, copy=False)
    return (pos.sum(axis=1), neg.sum(axis=1), pos_f, np.cumsum(pos_f, axis=1),
            np.cumsum(neg, axis=1).astype(np.float64, copy=False))


def _gap_extremes(pos: Counts, neg: Counts, both: bool) -> FloatArray:
    """The largest TPR - FPR over the cuts (at least 0), or with ``both`` the largest
    |TPR - FPR|, of each row."""
    P, N, _, tp1, fp1f = _cumulative_rows(pos, neg)
    with np.errstate(divide="ignore", invalid="ignore"):
        gap = tp1 / P[:, None] - fp1f / N[:, None]
        hi = np.maximum(0.0, gap.max(axis=1))
        v = np.maximum(hi, -np.minimum(0.0, gap.min(axis=1))) if both else hi
    return _defined(v, P, N)


def ks_kernel(pos: Counts, neg: Counts) -> FloatArray:
    """The Kolmogorov-Smirnov statistic of each replicate: the largest |TPR - FPR| over
    the cuts.

    Each row of the (replicates x groups) count matrices ``pos``, ``neg`` is one
    replicate's table, possibly with runs of adjacent negative-only groups merged;
    values equal the measure's function (:func:`binmetrics.measures.ranking.ks`) on
    each table.
    """
    return _gap_extremes(pos, neg, both=True)


def youden_j_max_kernel(pos: Counts, neg: Counts) -> FloatArray:
    """The maximum Youden index of each replicate: the largest TPR - FPR over the cuts.

    Each row of the (replicates x groups) count matrices ``pos``, ``neg`` is one
    replicate's table, possibly with runs of adjacent negative-only groups merged;
    values equal the measure's function
    (:func:`binmetrics.measures.ranking.youden_j_max`) on each table.
    """
    return _gap_extremes(pos, neg, both=False)


def _identity(auc: Any) -> Any:
    return auc


_AUC_TRANSFORMS: dict[Callable[..., Any], Callable[[Any], Any]] = {
    auc_kernel: _identity,
    gini_kernel: gini_from_auc,
}


def auc_transform(kernel: Callable[..., Any]) -> Callable[[Any], Any] | None:
    """For a kernel whose values are a function of the AUC alone, that function; else None.

    The identity for :func:`auc_kernel`, :func:`gini_from_auc` for :func:`gini_kernel`.
    Resampling code that has the AUC of its replicates by a faster route than the count
    matrices (the permutation test's rank sums, the jackknife's closed form) applies it
    instead of calling the kernel.

    Examples
    --------
    >>> auc_transform(gini_kernel)(0.75), auc_transform(ks_kernel) is None
    (0.5, True)
    """
    return _AUC_TRANSFORMS.get(kernel)
