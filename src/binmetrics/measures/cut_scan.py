"""Reading the cuts of a count table block by block, and binary searches where a measure
is monotone along them: the scans of ``best_threshold`` and of the at-fixed measures
(:mod:`binmetrics.measures.at_fixed`) without table-sized temporaries.

The cumulative counts come from :meth:`CountTable.iter_cuts` (bit for bit the table's
:attr:`~CountTable.tp` and :attr:`~CountTable.fp`, or slices of those when they are built
already), :data:`~binmetrics.table.counts.CHUNK` cuts at a time, so every measure
evaluated on a block gives the same floats as on the whole arrays. A predicate that is
monotone along the cuts (a rate whose denominator is a class total: the TPR, TNR, FPR,
FNR) changes value once: :func:`first_change` finds where from the sums at the block
edges (:meth:`CountTable.block_carries`) and one block, evaluating the predicate itself,
so the answer is the full scan's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import numpy.typing as npt

from binmetrics.measures.registry import Measure
from binmetrics.table.counts import Confusion, CountTable, FloatArray, block_size

__all__ = ["cut_blocks", "first_change", "ignores_fp", "monotone_along_cuts"]

#: cuts per block of a scan (at most :data:`~binmetrics.table.counts.CHUNK`, which tests
#: shrink): a block's few temporaries stay in the core's cache (measured at n = 1e7:
#: 2**14 beat 2**13 and 2**16)
SCAN = 1 << 14
#: ``pred(tp, fp) -> bool array``: a condition on the cumulative counts of cuts
Predicate = Callable[[FloatArray, FloatArray], npt.NDArray[np.bool_]]


def cut_blocks(t: CountTable, first: int = 0, stop: int | None = None, *,
               reverse: bool = False,
               few: bool = False) -> Iterator[tuple[int, FloatArray, FloatArray]]:
    """``(k0, tp, fp)`` for the cuts ``first <= k < stop`` (default every cut, ``n_distinct
    + 1``), a block at a time, ``tp[i]`` and ``fp[i]`` the counts at cut ``k0 + i``;
    ``reverse``: the blocks from the last (each block still ascending); ``few``: only a
    block or two will be read (their own cumulative sums, rather than the positive
    groups, which pay off over many blocks).

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6])
    >>> [(k0, tp.tolist()) for k0, tp, _ in cut_blocks(t, 1)]
    [(1, [1.0, 1.0, 2.0, 2.0])]
    """
    n = t.n_distinct
    stop = n + 1 if stop is None else min(stop, n + 1)
    first = max(first, 0)
    if first >= stop:
        return
    size = min(block_size(), SCAN)
    zero = (0, np.zeros(1), np.zeros(1))
    if first == 0 and not reverse:
        yield zero
    read = _reader(t, few)
    lo_block, hi_block = (max(first, 1) - 1) // size, (stop - 2) // size
    order = range(hi_block, lo_block - 1, -1) if reverse else range(lo_block, hi_block + 1)
    for b in order:
        if stop <= 1:
            break
        start, tp, fp = read(b, size)
        k0 = start + 1  # block b holds cuts k0 .. k0 + len - 1
        a, z = max(first - k0, 0), min(stop - k0, tp.size)
        yield k0 + a, tp[a:z], fp[a:z]
    if first == 0 and reverse:
        yield zero


Block = tuple[int, FloatArray, FloatArray]


def _reader(t: CountTable, few: bool = False) -> Callable[[int, int], Block]:
    """``read(b, size) -> (start, tp, fp)``: block b's counts at cuts ``start + 1`` to
    ``start + len``, equal to :attr:`CountTable.tp` and :attr:`CountTable.fp` there."""
    n = t.n_distinct
    if "tp" in t.__dict__ and "fp" in t.__dict__:  # slices of the arrays already built

        def built(b: int, size: int) -> Block:
            start = b * size
            stop = min(start + size, n) + 1
            return start, t.tp[start + 1:stop], t.fp[start + 1:stop]

        return built
    if few or t.weighted or t.total != n:  # carried cumulative sums, as the table's
        def summed(b: int, size: int) -> Block:
            start, tp, fp, _, _ = next(t.iter_cuts(size, first_block=b))
            return start, tp, fp

        return summed
    # one case per score, unweighted (continuous scores): TP steps at the groups holding
    # positives (t.positive_groups(), kept for the ranking measures), and cut k holds k
    # cases, so FP = k - TP; whole numbers, so exact, and no cumulative sum
    g = t.positive_groups()
    idx, tp1 = g.idx, g.tp1

    def stepped(b: int, size: int) -> Block:
        start = b * size
        k0, k1 = start + 1, min(start + size, n) + 1  # the cuts k0 .. k1 - 1
        lo, hi = np.searchsorted(idx, [k0, k1 - 1])  # groups whose cut is inside
        before = tp1[lo - 1] if lo > 0 else 0.0
        steps = np.diff(np.concatenate(([k0], idx[lo:hi] + 1, [k1])))
        tp = np.repeat(np.concatenate(([before], tp1[lo:hi])), steps)
        fp = np.arange(k0, k1, dtype=np.float64)
        fp -= tp
        return start, tp, fp

    return stepped


def first_change(t: CountTable, pred: Predicate) -> int:
    """The first cut whose ``pred`` differs from cut 0's (``n_distinct + 1`` if none), for
    a predicate monotone along the cuts (it changes at most once): read at the block edges
    (:meth:`CountTable.block_carries`), then within the one block where it changes.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.5])
    >>> first_change(t, lambda tp, fp: tp / t.P >= 2 / 3)
    2
    """
    n = t.n_distinct
    with np.errstate(divide="ignore", invalid="ignore"):
        f0 = bool(pred(np.zeros(1), np.zeros(1))[0])
        size = min(block_size(), SCAN)
        tps, fps = t.block_carries(size)
        edges = np.asarray(pred(tps, fps), dtype=bool) != f0  # at cuts 0, size, ..., n
        if not edges.any():
            return n + 1
        i = int(np.argmax(edges))  # the change is in cuts ((i - 1) size, min(i size, n)]
        for k0, tp, fp in cut_blocks(t, (i - 1) * size + 1, min(i * size, n) + 1,
                                     few=True):
            differs = np.asarray(pred(tp, fp), dtype=bool) != f0
            return k0 + int(np.argmax(differs))
    return n + 1  # pragma: no cover - the edges said it changes


#: measure id -> monotone_along_cuts (a registered measure's declaration never changes)
_MONOTONE: dict[str, int] = {}


def monotone_along_cuts(m: Measure) -> int:
    """+1 when the confusion measure ``m`` never decreases from a cut to the next more
    lenient one, -1 when it never increases, 0 when neither is known: read from the
    registry's ``proportion`` (successes among trials) of a confusion matrix with one
    more positive, or one more negative, predicted positive. A proportion whose trials
    stay the same (a class total: TPR, TNR, FPR, FNR) and whose successes move one way
    is monotone; precision (its trials, the predicted positives, grow) and the accuracy
    (its successes move both ways) are not.

    Examples
    --------
    >>> from binmetrics.measures import get_measure
    >>> [monotone_along_cuts(get_measure(m)) for m in ("tpr", "tnr", "fnr", "ppv", "f1")]
    [1, -1, -1, 0, 0]
    """
    if m.id not in _MONOTONE:
        _MONOTONE[m.id] = _probe(m)
    return _MONOTONE[m.id]


def ignores_fp(m: Measure) -> bool:
    """Whether the confusion measure ``m`` is the same at every cut with the same TP (the
    TPR, the FNR): a proportion whose successes and trials stay the same when a negative
    crosses the cut, read from the registry's ``proportion`` as
    :func:`monotone_along_cuts` reads it.

    Examples
    --------
    >>> from binmetrics.measures import get_measure
    >>> [ignores_fp(get_measure(m)) for m in ("tpr", "fnr", "tnr", "ppv")]
    [True, True, False, False]
    """
    if m.family != "confusion" or m.proportion is None:
        return False
    base = Confusion(tp=3.0, fp=4.0, fn=5.0, tn=6.0)
    one_neg = Confusion(tp=3.0, fp=5.0, fn=5.0, tn=5.0)
    return bool(tuple(map(float, m.proportion(base))) ==
                tuple(map(float, m.proportion(one_neg))))


def _probe(m: Measure) -> int:
    if m.family != "confusion" or m.proportion is None:
        return 0
    base = Confusion(tp=3.0, fp=4.0, fn=5.0, tn=6.0)
    one_pos = Confusion(tp=4.0, fp=4.0, fn=4.0, tn=6.0)  # a positive crosses the cut
    one_neg = Confusion(tp=3.0, fp=5.0, fn=5.0, tn=5.0)  # a negative crosses it
    (s0, n0), (s1, n1), (s2, n2) = (tuple(map(float, m.proportion(c)))
                                    for c in (base, one_pos, one_neg))
    if not n0 == n1 == n2:
        return 0
    moves = (s1 - s0, s2 - s0)
    values = [float(m.func(c, **m.params)) for c in (base, one_pos, one_neg)]
    if all(d >= 0 for d in moves) and any(moves) and values[1] >= values[0] <= values[2]:
        return 1
    if all(d <= 0 for d in moves) and any(moves) and values[1] <= values[0] >= values[2]:
        return -1
    return 0
