"""Resampling kernels: ranking measures of many count tables at once.

A bootstrap or permutation replicate of an evaluation set is the same sorted table with
new counts, so B replicates are two (B x groups) count matrices ``pos`` and ``neg``
(:mod:`binmetrics.inference.resampling`). A kernel computes a measure on every row of
them with cumulative sums, instead of building B tables. Each measure that has one
declares it in the registry (``@register(..., resampling_kernel=auc_kernel)``,
:attr:`~binmetrics.measures.Measure.resampling_kernel`); the resampling code reads it
from there and evaluates the other measures table by table. A measure with parameters
has a kernel that takes them as keywords (``bedroc_kernel(pos, neg, alpha=20.0)``): the
resampling code passes the measure's resolved parameters.

Every kernel is invariant to merging runs of adjacent groups that hold only negatives
(the resampling code condenses the tables that way when it is cheaper). Integer counts
(int64, as the bootstrap passes them: narrower types would wrap in NumPy's sums) stay
integers where the sums are exact. A row without positives or without negatives
gives NaN, silently: the caller counts and reports undefined replicates.

With the ``fast`` extra, the AUC, average precision, KS and the maximum Youden index, RIE
and BEDROC and the enrichment factor of whole-number matrices of :data:`COMPILED_COLUMNS`
columns or more take one compiled walk per row (:mod:`binmetrics.measures._kernels_numba`):
the same floats, except average precision's and RIE's (with BEDROC), to rounding.

Examples
--------
>>> import numpy as np
>>> pos = np.array([[2, 1, 0], [1, 1, 1]])
>>> neg = np.array([[0, 1, 2], [1, 1, 1]])
>>> auc_kernel(pos, neg).tolist(), gini_kernel(pos, neg).tolist()
([0.9444444444444444, 0.5], [0.8888888888888888, 0.0])
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast, overload

import numpy as np
import numpy.typing as npt

from binmetrics.backends import compiled
from binmetrics.measures._util import FloatOrArray
from binmetrics.validation import check_in_range

__all__ = [
    "COMPILED_COLUMNS",
    "COMPILED_TO_ROUNDING",
    "Kernel",
    "auc_kernel",
    "auc_transform",
    "average_precision_kernel",
    "bedroc_kernel",
    "compiled_walks",
    "enrichment_factor_kernel",
    "gini_from_auc",
    "gini_kernel",
    "ks_kernel",
    "rie_kernel",
    "sharing",
    "youden_j_max_kernel",
]

FloatArray = npt.NDArray[np.float64]
Counts = npt.NDArray[Any]

#: A resampling kernel: ``kernel(pos, neg)`` gives one value per row of the count matrices
#: (a measure's parameters, if it has any, come as keywords, bound before the call).
Kernel = Callable[[Counts, Counts], FloatArray]


#: Count matrices with at least this many columns (groups or slots of a replicate) and
#: whole-number counts take the compiled walks of :mod:`._kernels_numba`. A replicate
#: has no more columns than cases, so a bootstrap reaching it draws at least as many
#: cases a replicate as the draws' own threshold
#: (:data:`binmetrics.inference._counting.COMPILED_ROWS`, the same 20,000): numba is
#: then loaded already, and smaller bootstraps never import it.
COMPILED_COLUMNS = 20_000


def compiled_walks(columns: int) -> Any:
    """The compiled walks (:mod:`binmetrics.measures._kernels_numba`) for replicates of
    ``columns`` groups (or cases: never fewer), when numba is importable, not switched
    off, and ``columns`` reaches :data:`COMPILED_COLUMNS`
    (:func:`binmetrics.backends.compiled`); else None."""
    return compiled("binmetrics.measures._kernels_numba", columns, COMPILED_COLUMNS)


def _compiled(pos: Counts, neg: Counts) -> Any:
    """The compiled walks for these count matrices, or None (NumPy)."""
    if pos.ndim != 2 or pos.dtype.kind not in "iu" or neg.dtype.kind not in "iu":
        return None
    return compiled_walks(pos.shape[1])


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
    return _auc_rows(pos, neg).copy()  # a copy: the shared rows are never written to


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
    k = _compiled(pos, neg)
    if k is not None:
        P, N = pos.sum(axis=1), neg.sum(axis=1)
        sums = np.empty(pos.shape[0])
        k.precision_sums(pos, neg, sums)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _defined(sums / P, P, N)
    P, N, pos_f, tp1, fp1f = _cumulative_rows(pos, neg)
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(pos_f > 0, tp1 / (tp1 + fp1f), 0.0)
        v = np.einsum("ij,ij->i", pos_f, prec) / P
    return _defined(v, P, N)


_T = TypeVar("_T")
_last = threading.local()


def _shared(f: Callable[..., _T]) -> Callable[..., _T]:
    """``f(pos, neg, *params)``, kept for the last arrays and parameters this thread
    passed: the kernels of one resampling block read the same count matrices, so the
    ones that need the same cumulative sums take them once (average precision, KS and
    the maximum Youden index; the AUC and the Gini index; RIE and BEDROC at the same
    alpha). Only inside :func:`sharing` (the bootstrap's loop over its blocks), so
    that nothing is held after it. The arrays are held with the result (so neither can
    be another array at the same address); results are never written to."""
    def shared(pos: Counts, neg: Counts, *params: Any) -> _T:
        memo = getattr(_last, "memo", None)
        if memo is None:  # outside sharing(): nothing is kept
            return f(pos, neg, *params)
        hit = memo.get(f)
        if hit is not None and hit[0] is pos and hit[1] is neg and hit[2] == params:
            return cast(_T, hit[3])
        out = f(pos, neg, *params)
        memo[f] = (pos, neg, params, out)
        return out

    return shared


@contextlib.contextmanager
def sharing() -> Iterator[None]:
    """Inside the block, this thread's kernels share the cumulative sums of the same
    count matrices (see :func:`_shared`); they are dropped at its end.

    Examples
    --------
    >>> pos, neg = np.array([[1, 1, 0]]), np.array([[0, 1, 1]])
    >>> with sharing():
    ...     auc_kernel(pos, neg).tolist(), gini_kernel(pos, neg).tolist()
    ([0.875], [0.75])
    """
    before = getattr(_last, "memo", None)
    _last.memo = {}
    try:
        yield
    finally:
        _last.memo = before


@_shared
def _auc_rows(pos: Counts, neg: Counts) -> FloatArray:
    """:func:`auc_kernel`'s values, shared with the Gini index of the same block."""
    k = _compiled(pos, neg)
    if k is not None:  # the same integers, in one walk
        P, N, twice = (np.empty(pos.shape[0], dtype=np.int64) for _ in range(3))
        k.auc_sums(pos, neg, P, N, twice)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _defined(twice / (2.0 * (P * N)), P, N)
    P = pos.sum(axis=1)
    N = neg.sum(axis=1)
    fp1 = np.cumsum(neg, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        below2 = N[:, None] - fp1
        below2 *= 2
        below2 += neg
        v = np.einsum("ij,ij->i", pos, below2) / (2.0 * (P * N))
    return _defined(v, P, N)


@_shared
def _cumulative_rows(pos: Counts, neg: Counts) -> tuple[FloatArray, FloatArray, FloatArray,
                                                         FloatArray, FloatArray]:
    """Per replicate row: P, N, the positives as floats and the cumulative TP and FP
    after each cut (the counts summed as integers, then read as floats)."""
    pos_f = pos.astype(np.float64, copy=False)
    return (pos.sum(axis=1), neg.sum(axis=1), pos_f, np.cumsum(pos_f, axis=1),
            np.cumsum(neg, axis=1).astype(np.float64, copy=False))


@_shared
def _gaps(pos: Counts, neg: Counts) -> tuple[FloatArray, FloatArray]:
    """Per row, the largest and the smallest TPR - FPR over the cuts."""
    k = _compiled(pos, neg)
    if k is not None:  # the same floats, in one walk
        high, low = np.empty(pos.shape[0]), np.empty(pos.shape[0])
        with np.errstate(divide="ignore", invalid="ignore"):
            k.gap_extremes(pos, neg, high, low)
        return high, low
    P, N, _, tp1, fp1f = _cumulative_rows(pos, neg)
    with np.errstate(divide="ignore", invalid="ignore"):
        gap = tp1 / P[:, None] - fp1f / N[:, None]
        return gap.max(axis=1), gap.min(axis=1)


def _gap_extremes(pos: Counts, neg: Counts, both: bool) -> FloatArray:
    """The largest TPR - FPR over the cuts (at least 0), or with ``both`` the largest
    |TPR - FPR|, of each row."""
    high, low = _gaps(pos, neg)
    hi = np.maximum(0.0, high)
    v = np.maximum(hi, -np.minimum(0.0, low)) if both else hi
    return _defined(v, pos.sum(axis=1), neg.sum(axis=1))


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


@_shared
def _rie_rows(pos: Counts, neg: Counts, alpha: float) -> tuple[FloatArray, FloatArray, float,
                                                               Counts, Counts]:
    """Per row: RIE, Ra = P / n, the checked alpha, P and N, with the measure's tie
    convention (each positive of a tied group gets the group's mean of exp(-a r / n)
    over the ranks it spans) and its formula
    (:func:`binmetrics.measures.early_recognition.rie`), to rounding."""
    a = check_in_range(alpha, "alpha", 0.0, np.inf, low_open=True, high_open=True)
    P, N = pos.sum(axis=1), neg.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        big_n = np.asarray(P + N, dtype=np.float64)
        walks = _compiled(pos, neg)
        if walks is not None:
            sums = np.empty(pos.shape[0])
            walks.rie_sums(pos, neg, -a / big_n, sums)
            ra = P / big_n
            return -sums / (ra * -np.expm1(-a)), ra, a, P, N
        m = (pos + neg).astype(np.float64)  # whole counts stay exact (below 2^53)
        k = (-a / big_n)[:, None]
        # exp(-a (c0 + 1)/n) (1 - exp(-a m/n)) / (1 - exp(-a/n)) over the ranks of a
        # group of m cases after c0 others; the factor the random order shares is
        # cancelled, as the measure does. In place: each pass over the groups counts.
        group = np.cumsum(m, axis=1)
        group -= m  # the cases above each group
        group *= k
        np.exp(group, out=group)
        spread = m * k
        np.expm1(spread, out=spread)
        group *= spread  # = -exp(-a c0/n) (1 - exp(-a m/n))
        np.maximum(m, np.finfo(np.float64).tiny, out=m)  # an empty group: 0 / tiny
        observed = -np.einsum("ij,ij->i", pos / m, group)
        ra = P / big_n
        rie = observed / (ra * -np.expm1(-a))
    return rie, ra, a, P, N


def rie_kernel(pos: Counts, neg: Counts, *, alpha: float = 20.0) -> FloatArray:
    """The robust initial enhancement of each replicate (Truchon & Bayly eq. 18), ties
    averaged as the measure averages them.

    Each row of the (replicates x groups) count matrices ``pos``, ``neg`` is one
    replicate's table, possibly with runs of adjacent negative-only groups merged (they
    move no positive's rank); values equal the measure's function
    (:func:`binmetrics.measures.early_recognition.rie`) on each table to rounding.

    Examples
    --------
    >>> import numpy as np
    >>> rie_kernel(np.array([[1, 0, 1, 0]]), np.array([[0, 1, 0, 1]]), alpha=1.0).round(6)
    array([1.124353])
    """
    rie, _, _, P, N = _rie_rows(pos, neg, alpha)
    return _defined(rie.copy(), P, N)  # a copy: the shared rows are never written to


def bedroc_kernel(pos: Counts, neg: Counts, *, alpha: float = 20.0) -> FloatArray:
    """BEDROC of each replicate: its RIE (:func:`rie_kernel`) rescaled between the worst
    and best orders, in the measure's stable form
    ``(RIE/RIEmax - e^(-a(1-Ra))) / (1 - e^(-a(1-Ra)))``.

    Each row of the (replicates x groups) count matrices ``pos``, ``neg`` is one
    replicate's table, possibly with runs of adjacent negative-only groups merged;
    values equal the measure's function
    (:func:`binmetrics.measures.early_recognition.bedroc`) on each table to rounding.

    Examples
    --------
    >>> import numpy as np
    >>> bedroc_kernel(np.array([[2, 0, 0], [0, 0, 2]]), np.array([[0, 1, 1], [1, 1, 0]])).tolist()
    [1.0, 0.0]
    """
    rie, ra, a, P, N = _rie_rows(pos, neg, alpha)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        rie_max = np.expm1(-a * ra) / (ra * np.expm1(-a))
        low = np.exp(-a * (1.0 - ra))
        v = (rie / rie_max - low) / (1.0 - low)
    return _defined(v, P, N)


def enrichment_factor_kernel(pos: Counts, neg: Counts, *, fraction: float = 0.01) -> FloatArray:
    """The enrichment factor of each replicate: the rate of positives among its top
    ``fraction`` of cases over its overall rate, the group that straddles the cut-off
    x = fraction * n contributing its positives pro rata, as the measure does (the
    expected value over the orders of a tied group).

    Each row of the (replicates x groups) count matrices ``pos``, ``neg`` is one
    replicate's table, possibly with runs of adjacent negative-only groups merged (a
    cut-off inside such a run finds no positive there either way); values equal the
    measure's function (:func:`binmetrics.measures.early_recognition.enrichment_factor`)
    on each table to rounding.

    Examples
    --------
    >>> import numpy as np
    >>> enrichment_factor_kernel(np.array([[1, 1, 0]]), np.array([[0, 1, 1]]),
    ...                          fraction=0.25).tolist()  # top case positive: 1 / 0.5
    [2.0]
    """
    f = check_in_range(fraction, "fraction", 0.0, 1.0, low_open=True)
    P, N = pos.sum(axis=1), neg.sum(axis=1)
    k = _compiled(pos, neg)
    if k is not None:  # the same floats, in one walk
        with np.errstate(divide="ignore", invalid="ignore"):
            total = np.asarray(P + N, dtype=np.float64)
            x = f * total
            found = np.empty(pos.shape[0])
            k.early_found(pos, neg, x, found)
            return _defined((found / x) / (P / total), P, N)
    c = np.cumsum(pos + neg, axis=1)  # the cases down to each group's end
    tp = np.cumsum(pos, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = np.asarray(P + N, dtype=np.float64)
        x = f * total
        # the first group whose end reaches x; none when x rounds above the total
        i = np.count_nonzero(c < x[:, None], axis=1)
        rows = np.arange(c.shape[0])
        inside = i < c.shape[1]
        j = np.minimum(i, c.shape[1] - 1)
        before = np.maximum(j - 1, 0)
        c0 = np.where(j > 0, c[rows, before], 0).astype(np.float64)
        tp0 = np.where(j > 0, tp[rows, before], 0).astype(np.float64)
        ratio = pos[rows, j].astype(np.float64) / (c[rows, j].astype(np.float64) - c0)
        found = np.where(inside, tp0 + (x - c0) * ratio, P)
        v = (found / x) / (P / total)
    return _defined(v, P, N)


#: The kernels whose compiled walks agree with NumPy's way to rounding, not bit for bit
#: (the others give the same floats): average precision's (compensated sums), RIE's and
#: BEDROC's (libm's exp). Tests read it to know which replicates to compare how.
COMPILED_TO_ROUNDING = frozenset({average_precision_kernel, rie_kernel, bedroc_kernel})


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
