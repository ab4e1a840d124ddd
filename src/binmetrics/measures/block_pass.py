"""The blocks of a count table that the probabilistic measures' blocked pass reads
(:class:`Block`, :func:`table_blocks`), and the compiled pass of the whole family over
them (:func:`family_pass`: one loop per block gives every sum of ``sums.POLY``,
``sums.LOG_PASS`` and the Spiegelhalter test and the logistic fits' bins, the
logarithms formed in registers; :func:`family_totals`: the groups' sums memoised
together). The sum groups and :func:`~binmetrics.measures.sums.shared_sums` live in
:mod:`binmetrics.measures.sums`, which reads these.

Examples
--------
>>> import binmetrics as bm
>>> t = bm.CountTable.from_arrays([1, 0, 1], [0.9, 0.2, 0.6])
>>> [b.s.tolist() for b in table_blocks(t)]
[[0.9, 0.6, 0.2]]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from binmetrics.backends import compiled_table
from binmetrics.measures._util import EPS
from binmetrics.table.counts import CountTable, FloatArray, chunks

__all__ = [
    "FAMILY_BIN_WIDTH",
    "FAMILY_TOTALS",
    "READ_AHEAD_BYTES",
    "Block",
    "FamilyPart",
    "FamilySums",
    "FamilyTerms",
    "compiled_sums",
    "family_pass",
    "family_totals",
    "information_prior",
    "table_blocks",
]


def compiled_sums(t: CountTable) -> Any:
    """The compiled loops of the blocked pass (:mod:`binmetrics.measures._sums_numba`)
    for table ``t``: when numba is installed (``pip install 'binmetrics[fast]'``), not
    switched off (``BINMETRICS_COMPILED=0``) and the table has at least
    :data:`binmetrics.backends.COMPILED_TABLE_ROWS` distinct scores; else None (NumPy).
    Every group of the table takes the same way, alone or in the shared pass."""
    return compiled_table("binmetrics.measures._sums_numba", t.n_distinct)


# --- one block of a table and the per-row terms the groups share -------------------------
class Block:
    """One block of consecutive rows of a table: its scores ``s`` (descending), and the
    per-row terms the sum groups read, each computed on first use and then shared by
    every group of the pass (never written to: a group computes its own products in new
    arrays).

    Attributes
    ----------
    s : the scores; ``p``, ``n``: the positives and negatives as float64.
    start : the table row of the block's first row.
    miss : 1 - s; ``miss2``: (1 - s)^2; ``s2``: s^2 (each in that one rounding).

    Examples
    --------
    >>> b = Block(np.array([0.75, 0.5]), np.array([1, 0]), np.array([0, 1]))
    >>> b.miss.tolist(), b.s2.tolist(), b.p.tolist()
    ([0.25, 0.5], [0.5625, 0.25], [1.0, 0.0])
    """

    __slots__ = ("_family", "_logs", "_memo", "_pass", "neg_counts", "pos_counts", "s",
                 "start")

    def __init__(self, s: FloatArray, pos: npt.NDArray[Any], neg: npt.NDArray[Any],
                 start: int = 0, family: Callable[[Block], FamilyTerms] | None = None
                 ) -> None:
        self.s = s
        self.start = start
        self.pos_counts, self.neg_counts = pos, neg
        self._memo: dict[str, FloatArray] = {}
        self._logs: dict[tuple[str, float], FloatArray] = {}
        self._pass = family
        self._family: FamilyTerms | None = None

    def family(self) -> FamilyTerms:
        """The probabilistic family's sums and the fits' bins of this block, from one
        compiled pass (:func:`family_pass`; computed on first use, then shared by every
        group of the table's pass, and by a group alone: the same floats)."""
        if self._family is None:
            if self._pass is None:
                raise RuntimeError("this block's table has no compiled family pass "
                                   "(family_pass(t) is None)")
            self._family = self._pass(self)
        return self._family

    def _term(self, name: str, compute: Callable[[], FloatArray]) -> FloatArray:
        out = self._memo.get(name)
        if out is None:
            out = self._memo[name] = compute()
        return out

    @property
    def p(self) -> FloatArray:
        return self._term("p", lambda: self.pos_counts.astype(np.float64, copy=False))

    @property
    def n(self) -> FloatArray:
        return self._term("n", lambda: self.neg_counts.astype(np.float64, copy=False))

    @property
    def miss(self) -> FloatArray:
        return self._term("miss", lambda: 1.0 - self.s)

    @property
    def miss2(self) -> FloatArray:
        return self._term("miss2", lambda: self.miss * self.miss)

    @property
    def s2(self) -> FloatArray:
        return self._term("s2", lambda: self.s * self.s)

    def log_s(self, eps: float) -> FloatArray:
        """ln max(s, eps) (the maximum taken only in a block that reaches below eps)."""
        key = ("s", eps)
        out = self._logs.get(key)
        if out is None:
            s = self.s
            out = self._logs[key] = np.log(s if s[-1] >= eps else np.maximum(s, eps))
        return out

    def log_miss(self, eps: float) -> FloatArray:
        """ln max(1 - s, eps) (the maximum taken only in a block that reaches above
        1 - eps)."""
        key = ("miss", eps)
        out = self._logs.get(key)
        if out is None:
            miss = self.miss  # (read on 1 - s: 1 - eps rounds to 1 for eps below 2^-53)
            out = self._logs[key] = np.log(miss if miss[0] >= eps else np.maximum(miss, eps))
        return out


def table_blocks(t: CountTable) -> Iterator[Block]:
    """The table as consecutive :class:`Block` s of :func:`~binmetrics.table.counts.chunks`
    (with the table's :func:`family_pass`, when it has one)."""
    family = family_pass(t)
    for sl in chunks(t.n_distinct):
        yield Block(t.scores[sl], t.pos[sl], t.neg[sl], sl.start, family)


class FamilyTerms(NamedTuple):
    """One block's output of the compiled family pass (:func:`family_pass`).

    Attributes
    ----------
    poly, log_pass, spiegelhalter : the block's sums of
        :data:`~binmetrics.measures.sums.POLY`, of
        :data:`~binmetrics.measures.sums.LOG_PASS` at its default eps, and of
        ``calibration.SPIEGELHALTER``.
    bins : the block's rows strictly inside (0, 1) compressed into bins of logit(p)
        of width :data:`FAMILY_BIN_WIDTH` (lower edges, moments sum tot d^m by rows,
        positives, sum pos d, the width: ``logistic_fit``'s bins), or None when it
        has no such rows.
    """

    poly: tuple[float, ...]
    log_pass: tuple[float, ...]
    spiegelhalter: tuple[float, ...]
    bins: tuple[FloatArray, FloatArray, FloatArray, FloatArray, float] | None


#: The width of the bins of logit(p) that the compiled family pass compresses the fits'
#: rows into, with moments to order 6 (``logistic_fit.REPLICATE_BINS``: few bins, so
#: the pass pays little per bin and the fits' Newton steps little per step), and takes
#: its logarithms from (a power of two: a row's place in its bin is exact)
FAMILY_BIN_WIDTH = 2.0**-9


#: bins the compiled family pass makes room for beyond its blocks' span of logits
_BIN_MARGIN = 8

#: a table of at least this many bytes (scores and counts) has each block's cache lines
#: read ahead of the family pass (``_sums_numba.touch``): at 1e7 rows (100 MB) that
#: saved 5.7 ms of 46, at 3e6 2 ms of 17; at 1e6 (10 MB, in cache once built) it cost
#: 0.25-0.35 ms of 6.5
READ_AHEAD_BYTES = 32 << 20

#: the memo key of a table's :func:`family_totals`
FAMILY_TOTALS = ("family_totals",)


@dataclass(frozen=True)
class FamilyPart:
    """A group's :attr:`SumGroup.block <binmetrics.measures.sums.SumGroup.block>` on a
    table with the compiled family pass: its part of each block is field ``field`` of
    :meth:`Block.family`, and its total is that field of :func:`family_totals` (the
    groups' sums of one pass, memoised together: a group asked after another costs
    nothing)."""

    field: Literal["poly", "log_pass", "spiegelhalter"]

    def __call__(self, b: Block) -> tuple[float, ...]:
        return getattr(b.family(), self.field)


class FamilySums:
    """The family pass's group sums over a table's blocks, added block by block."""

    def __init__(self) -> None:
        self.totals: dict[str, Any] = {}

    def add(self, b: Block) -> None:
        f = b.family()
        for name in FamilyTerms._fields[:3]:  # the groups' fields, not the bins
            part = np.asarray(getattr(f, name), dtype=np.float64)
            have = self.totals.get(name)
            self.totals[name] = part if have is None else have + part

    def result(self) -> FamilyTerms:
        v = {k: tuple(float(x) for x in a) for k, a in self.totals.items()}
        return FamilyTerms(v["poly"], v["log_pass"], v["spiegelhalter"], None)


def family_totals(t: CountTable) -> FamilyTerms:
    """The sums of every group the compiled family pass serves (``bins`` None), over
    the blocks of table ``t`` (which has :func:`family_pass`), memoised: from the
    shared pass when it ran, else from a pass of their own."""
    def compute() -> FamilyTerms:
        acc = FamilySums()
        for b in table_blocks(t):
            acc.add(b)
        return acc.result()

    return t.memo(FAMILY_TOTALS, compute)


def family_pass(t: CountTable) -> Callable[[Block], FamilyTerms] | None:
    """The compiled pass of the whole probabilistic family over one block of table
    ``t``, as a function of the :class:`Block`
    (:func:`binmetrics.measures._sums_numba.family_block`: every sum of
    :data:`~binmetrics.measures.sums.POLY`, of :data:`~binmetrics.measures.sums.LOG_PASS`
    at its default eps and of the Spiegelhalter test, and the logistic fits' bins, in
    one read of the block, the logarithms formed in registers), or None: NumPy's
    blocks (a table below :data:`~binmetrics.backends.COMPILED_TABLE_ROWS` distinct
    scores, numba not installed or switched off, binned scores, or some score outside
    [0, 1]).

    Each group of these takes its part of the pass whenever the table has it (alone,
    or in :func:`~binmetrics.measures.sums.shared_sums`): any of them costs the one
    pass, and all of them together cost the same.
    """
    k = compiled_sums(t)
    if k is None or t.binning is not None or not t.probabilities_ok:
        return None
    pi, with_info, lpi, l1pi = information_prior(t, EPS)
    width = FAMILY_BIN_WIDTH
    top, bottom = 1.0 - 2.0**-53, 5e-324  # the widest scores strictly inside (0, 1)
    order = k.MOMENT_ORDER + 1
    read_ahead = t.scores.nbytes + t.pos.nbytes + t.neg.nbytes >= READ_AHEAD_BYTES
    work: list[Any] = []

    def run(b: Block) -> FamilyTerms:
        s = b.s
        size = s.size
        # the bins' indices descend: at most the span of the block's logits over the
        # width (and a margin), at most one per row; arrays of that size, not the
        # block's (a middle block of a million rows holds a few hundred bins)
        # (the rows strictly inside (0, 1): a row at p = 1 or 0 has no bin, and a
        # table's first and last rows may be the only ones there)
        i, j = int(s[0] >= 1.0), size - int(s[-1] <= 0.0)
        need = 1
        if j > i:
            high, low = min(float(s[i]), top), max(float(s[j - 1]), bottom)
            span = (math.log(high) - math.log1p(-high)) - (math.log(low) - math.log1p(-low))
            need = int(min(size, max(1.0, max(span, 0.0) / width + _BIN_MARGIN)))
        out = np.empty(k.FAMILY_SUMS)
        if read_ahead:  # the block's lines read ahead, together
            k.touch(s, b.pos_counts, b.neg_counts)
        while True:
            if not work or work[0].size < need:
                work[:] = [np.empty(need), np.empty((order, need)), np.empty(need),
                           np.empty(need)]
            m = k.family_block(s, b.pos_counts, b.neg_counts, pi, lpi, l1pi, with_info,
                               EPS, 1.0 / width, *work, out)
            if m >= 0:
                break
            need = size  # more bins than the estimate: one per row suffices
        sums, groups = out.tolist(), []
        for n in k.FAMILY_WIDTHS:  # POLY's, LOG_PASS's, SPIEGELHALTER's
            groups.append(tuple(sums[:n]))
            sums = sums[n:]
        poly, log_pass, spiegelhalter = groups
        lower, moments, positives, first = work
        bins = None if m == 0 else (lower[:m] * width, moments[:, :m].copy(),
                                    positives[:m].copy(), first[:m].copy(), width)
        return FamilyTerms(poly, log_pass, spiegelhalter, bins)

    return run


def information_prior(t: CountTable, eps: float) -> tuple[float, bool, float, float]:
    """The information score's prior in :data:`~binmetrics.measures.sums.LOG_PASS`: the
    data's prevalence pi, whether the score is taken (eps <= pi <= 1 - eps), ln pi and
    ln(1 - pi)."""
    pi = t.prevalence
    with_info = eps <= pi <= 1.0 - eps
    lpi, l1pi = (float(np.log(pi)), float(np.log1p(-pi))) if with_info else (0.0, 0.0)
    return pi, with_info, lpi, l1pi
