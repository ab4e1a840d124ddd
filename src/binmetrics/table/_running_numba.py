"""The compiled loops of a weighted count table's running sums (numba, the ``fast``
extra): the cumulative positives and negatives walked in table order, as one NumPy
cumulative sum adds them (the same floats), without the NumPy way's temporaries.

Reached only through :meth:`~binmetrics.table.counts.CountTable.positive_groups`,
:meth:`~binmetrics.table.counts.CountTable.block_carries` and
:func:`binmetrics.table.sorting.positions` (the build's placing of the minority class:
a merge, :func:`merged_positions`) and a weighted confusion matrix's sums below its cut
(:func:`reversed_sum`), for tables of at least
:data:`~binmetrics.backends.COMPILED_TABLE_ROWS` distinct scores
(:func:`binmetrics.backends.compiled_table`). At 1e7 weighted rows NumPy's way takes a
scan for the rows with positives (50 ms) and a cumulative sum of each block from its
carry through a buffer (70 ms); each loop here reads the counts once.
"""

from __future__ import annotations

from typing import Any

from binmetrics.backends import jit

__all__ = ["block_carries", "merged_positions", "positive_walk", "reversed_sum"]


@jit
def positive_walk(pos: Any, neg: Any, size: int, idx: Any, pos_at: Any, neg_at: Any,
                  tp0: Any, fp0: Any, tp_carries: Any,
                  fp_carries: Any) -> None:  # pragma: no cover - compiled
    """The groups holding positives (``pos`` nonzero; ``idx`` sized to their number):
    their rows, own counts, and the running sums TP and FP before them; and the sums
    before each block of ``size`` rows and at the end (``tp_carries``, ``fp_carries``).
    The running sums add every row in order, the rows without positives adding exact
    zeros to TP, as ``positive_groups.weighted_sums_before`` takes them."""
    n = pos.shape[0]
    tp = 0.0
    fp = 0.0
    g = 0
    b = 0
    for a in range(0, n, size):
        tp_carries[b] = tp
        fp_carries[b] = fp
        b += 1
        for i in range(a, min(a + size, n)):
            p = pos[i]
            q = neg[i]
            if p != 0.0:
                idx[g] = i
                pos_at[g] = p
                neg_at[g] = q
                tp0[g] = tp
                fp0[g] = fp
                g += 1
            tp += p
            fp += q
    tp_carries[b] = tp
    fp_carries[b] = fp


@jit
def block_carries(counts: Any, start: int, stop: int, size: int, carry: float,
                  out: Any) -> None:  # pragma: no cover - compiled
    """The running sum of ``counts`` from ``carry`` over the blocks of ``size`` rows
    from row ``start`` to ``stop``, at the end of each block (``out[1:]``), in the
    order of one cumulative sum."""
    j = 1
    for a in range(start, stop, size):
        for i in range(a, min(a + size, stop)):
            carry += counts[i]
        out[j] = carry
        j += 1


@jit
def merged_positions(keys: Any, queries: Any, out: Any) -> None:  # pragma: no cover
    """``out[i] = np.searchsorted(keys, queries[i])`` for ascending ``keys`` and
    ``queries``, by one merge of the two (a linear walk: 1e6 queries into 1e7 keys in
    about 15 ms, where the blocked binary searches took 60)."""
    j = 0
    n = keys.shape[0]
    for i in range(queries.shape[0]):
        q = queries[i]
        while j < n and keys[j] < q:
            j += 1
        out[i] = j


@jit
def reversed_sum(counts: Any, start: int) -> float:  # pragma: no cover - compiled
    """counts[start:] summed from the last row up, one addition at a time: the last
    entry of ``np.cumsum(counts[start:][::-1])``, without the array."""
    total = 0.0
    for i in range(counts.shape[0] - 1, start - 1, -1):
        total += counts[i]
    return total
