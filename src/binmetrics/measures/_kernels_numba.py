"""The compiled loops of the ranking kernels over whole-number count matrices (numba, the
``fast`` extra), reached only through :mod:`binmetrics.measures.kernels` for matrices of
at least :data:`~binmetrics.measures.kernels.COMPILED_COLUMNS` columns, and of a
replicate's ROC convex hull (:mod:`binmetrics.inference._replicate_groups`): a
bootstrap's replicate blocks at scale, where NumPy's way takes five to ten passes over
each block (cumulative sums, their differences and products, one more for the sum) and
each pass reads and writes the whole block.

**AUC** (:func:`auc_sums`). Each row's P, N and twice its Mann-Whitney count in one walk,
in 64-bit integers as NumPy's way takes them: exact, so the kernel's values are the same
floats, bit for bit (1.5 -> 0.2 ms a replicate at 1e6 distinct scores).

**Average precision** (:func:`precision_sums`). Each row's sum over its groups of the
positives times TP / (TP + FP): the same terms (the cumulative counts are exact), added
with Neumaier's compensation instead of ``np.einsum``'s plain sums, so the values agree
to rounding (1e-15 relative), not bit for bit.

**KS, the maximum Youden index** (:func:`gap_extremes`) and **the enrichment factor**
(:func:`early_found`): the same floats as NumPy's way, in one walk per row.

**The ROC convex hull** (:func:`roc_hull_points`): a replicate's candidate vertices and
the rounds of pruning that NumPy's way takes in a dozen array passes per round, in one
call: the same floats, the same tests on the same triples, so the same points kept
(1.7 -> 0.45 ms a replicate at 1e6 distinct scores). A monotone chain, one pass, was
tried first: it tests a point against a chord to the vertex before it on its stack,
not to its neighbour, and on collinear points its rounding kept some that the pruning
drops.

**RIE** (:func:`rie_sums`). Each row's observed sum, from the same per-group terms as
NumPy's way with libm's ``exp`` and ``expm1`` in place of NumPy's, added as average
precision's: to rounding.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from binmetrics.backends import inline, jit

__all__ = ["auc_sums", "early_found", "gap_extremes", "precision_sums", "rie_sums",
           "roc_hull_points"]


@inline
def _add(acc: float, comp: float, x: float) -> tuple[float, float]:  # pragma: no cover
    # Neumaier's compensated step: the sum and the rounding errors it dropped, so that a
    # row of 1e5 terms is summed to about an ulp (a plain loop: 3e-15 relative)
    t = acc + x
    if abs(acc) >= abs(x):
        comp += (acc - t) + x
    else:
        comp += (x - t) + acc
    return t, comp


@inline
def _totals(p_row: Any, n_row: Any) -> tuple[int, int]:  # pragma: no cover - compiled
    # a row's positives and negatives, in 64-bit integers
    p_total = 0
    n_total = 0
    for j in range(p_row.shape[0]):
        p_total += p_row[j]
        n_total += n_row[j]
    return p_total, n_total


@jit
def auc_sums(pos: Any, neg: Any, P: Any, N: Any, twice: Any) -> None:  # pragma: no cover
    # per row i: P[i], N[i] and sum_j pos[i, j] (2 (N - fp1[j]) + neg[i, j]), fp1 the
    # negatives down to group j (2 x the Mann-Whitney count), all in int64
    for i in range(pos.shape[0]):
        p_row, n_row = pos[i], neg[i]
        p_total, n_total = _totals(p_row, n_row)
        acc = 0
        fp1 = 0
        for j in range(n_row.shape[0]):
            c = n_row[j]
            fp1 += c
            acc += p_row[j] * (2 * (n_total - fp1) + c)
        P[i] = p_total
        N[i] = n_total
        twice[i] = acc


@jit
def precision_sums(pos: Any, neg: Any, out: Any) -> None:  # pragma: no cover - compiled
    # per row i: sum over the groups j with positives of pos[i, j] TP1 / (TP1 + FP1), the
    # cumulative counts through group j (whole numbers, exact as floats)
    for i in range(pos.shape[0]):
        p_row, n_row = pos[i], neg[i]
        tp = 0
        fp = 0
        acc = 0.0
        comp = 0.0
        for j in range(p_row.shape[0]):
            c = p_row[j]
            tp += c
            fp += n_row[j]
            if c > 0:
                acc, comp = _add(acc, comp, c * (tp / (tp + fp)))
        out[i] = acc + comp


@jit
def rie_sums(pos: Any, neg: Any, k: Any, out: Any) -> None:  # pragma: no cover - compiled
    # per row i: sum over the groups j of pos[i, j] / m exp(k c0) expm1(k m), m the
    # group's cases and c0 the cases above it, k = -alpha / n of the row (the negated
    # observed sum of rie's formula, as kernels._rie_rows takes it)
    for i in range(pos.shape[0]):
        p_row, n_row = pos[i], neg[i]
        ki = k[i]
        c0 = 0
        acc = 0.0
        comp = 0.0
        for j in range(p_row.shape[0]):
            c = p_row[j]
            m = c + n_row[j]
            if c > 0:
                acc, comp = _add(acc, comp, (c / m) * (math.exp(ki * c0) * math.expm1(ki * m)))
            c0 += m
        out[i] = acc + comp


@jit(error_model="numpy")  # a class without cases: NaN or inf, as NumPy
def gap_extremes(pos: Any, neg: Any, high: Any, low: Any) -> None:  # pragma: no cover
    # per row i: the largest and the smallest TP1 / P - FP1 / N over the cuts, each gap
    # taken as NumPy's way takes it (the same floats)
    for i in range(pos.shape[0]):
        p_row, n_row = pos[i], neg[i]
        p_total, n_total = _totals(p_row, n_row)
        tp = 0
        fp = 0
        hi = -math.inf
        lo = math.inf
        for j in range(p_row.shape[0]):
            tp += p_row[j]
            fp += n_row[j]
            g = tp / p_total - fp / n_total
            hi = max(hi, g)
            lo = min(lo, g)
        high[i] = hi
        low[i] = lo


@jit(error_model="numpy")
def early_found(pos: Any, neg: Any, x: Any, found: Any) -> None:  # pragma: no cover
    # per row i: the positives among its first x[i] cases, the group that straddles x[i]
    # counted pro rata (its positives times the share of it above x[i]), all of them
    # when x[i] passes every case: the enrichment factor's numerator, with the same
    # floats as NumPy's way
    for i in range(pos.shape[0]):
        p_row, n_row = pos[i], neg[i]
        xi = x[i]
        c = 0
        tp = 0
        j = 0
        width = p_row.shape[0]
        while j < width:
            step = p_row[j] + n_row[j]
            if c + step >= xi:
                break
            c += step
            tp += p_row[j]
            j += 1
        if j == width:  # x rounds above the total: every positive
            found[i] = tp
        else:
            ratio = p_row[j] / ((c + p_row[j] + n_row[j]) - c)
            found[i] = tp + (xi - c) * ratio


@jit
def roc_hull_points(idx: Any, pos: Any, neg: Any, tp0: Any, fp0: Any, n_distinct: int,
                    P: float, N: float, rounds: int, x: Any, y: Any,
                    out: Any) -> tuple[int, bool]:  # pragma: no cover - compiled
    # ranking.roc_hull_of's candidates and pruning in one compiled call: the candidate
    # vertices of a table known by its groups with positives ((0, 0), the point after
    # each group with positives that a step holding negatives leaves, (1, 1); as rates,
    # the same floats) to x and y, then up to ``rounds`` rounds of
    # ranking._prune_below_neighbours, each point tested against its neighbours' chord
    # by the same products, every point of a round against the round's neighbours. The
    # survivors' indices go to out; returns how many and whether the pruning converged
    # (else the caller finishes with quickhull, as NumPy's way does)
    m = 1
    x[0] = 0.0
    y[0] = 0.0
    last = idx.shape[0] - 1
    for j in range(idx.shape[0]):
        after = idx[j] + 1
        if after < n_distinct and (j == last or idx[j + 1] != after or neg[j + 1] > 0):
            x[m] = (fp0[j] + neg[j]) / N
            y[m] = (tp0[j] + pos[j]) / P
            m += 1
    x[m] = 1.0
    y[m] = 1.0
    m += 1
    for i in range(m):
        out[i] = i
    keep = np.empty(m, dtype=np.bool_)
    k = m
    for _ in range(rounds):
        dropped = False
        for t in range(1, k - 1):  # the round's tests, before any point is dropped
            a, b, c = out[t - 1], out[t], out[t + 1]
            left = (y[c] - y[a]) * (x[b] - x[a])
            right = (x[c] - x[a]) * (y[b] - y[a])
            keep[t] = left < right
            dropped |= not keep[t]
        if not dropped:
            return k, True
        kept = 1
        for t in range(1, k - 1):
            out[kept] = out[t]
            kept += 1 if keep[t] else 0
        out[kept] = out[k - 1]
        k = kept + 1
    return k, False
