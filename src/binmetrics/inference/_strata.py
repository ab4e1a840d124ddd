"""The cells of a table and the strata the bootstrap draws them from.

A table's non-empty (score, label) cells (:class:`_Cells`: positive cells first, then
negative cells, each in table order) are what a bootstrap replicate counts; a stratum
(:class:`_Stratum`: one class when stratified, else every cell) draws its cases per
replicate, as multinomial counts, as equally likely cases counted per cell as they are
drawn (:func:`binmetrics.inference._counting.draw_counts`), or as weighted index draws.
Used by :mod:`binmetrics.inference._replicates`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.inference._counting import draw_counts
from binmetrics.table.counts import CountTable, FloatArray

__all__: list[str] = []

IntArray = npt.NDArray[np.int64]


# --- the cells of a table -----------------------------------------------------------------
@dataclass(frozen=True)
class _Cells:
    """The non-empty (score, label) cells of a table: positive cells first, then negative
    cells, each in table (descending score) order."""

    group: npt.NDArray[np.intp]
    weight: FloatArray
    n_pos: int  # number of positive cells
    n_groups: int

    @classmethod
    def of(cls, table: CountTable) -> _Cells:
        ip, ineg = np.flatnonzero(table.pos), np.flatnonzero(table.neg)
        group = np.concatenate((ip, ineg)).astype(np.intp)
        weight = np.concatenate((table.pos[ip], table.neg[ineg])).astype(np.float64)
        return cls(group=group, weight=weight, n_pos=int(ip.size), n_groups=table.n_distinct)

    @property
    def size(self) -> int:
        return int(self.group.size)

    def label(self) -> npt.NDArray[np.intp]:
        """0 for positive cells, 1 for negative cells."""
        out = np.ones(self.size, dtype=np.intp)
        out[: self.n_pos] = 0
        return out

    def above(self, cut: int) -> tuple[int, int]:
        """Number of positive and of negative cells in the top ``cut`` groups."""
        a_pos = int(np.searchsorted(self.group[: self.n_pos], cut))
        a_neg = int(np.searchsorted(self.group[self.n_pos:], cut))
        return a_pos, a_neg


def _slot_of_group(table: CountTable) -> tuple[npt.NDArray[np.intp], int]:
    """Slots of the table condensed around its groups with positives: slot 2q+1 is the
    q-th group holding positives, slot 2q the negative-only groups just above it (slot
    2Q those below the last). The ranking kernels are invariant to this merge."""
    is_pos = table.pos > 0
    idx = np.flatnonzero(is_pos)
    slot = 2 * np.searchsorted(idx, np.arange(table.n_distinct)) + is_pos
    return slot.astype(np.intp), 2 * int(idx.size) + 1


@dataclass
class _Stratum:
    """A set of cells resampled together: one class (stratified) or all cells."""

    lo: int  # global cell range [lo, hi)
    hi: int
    draws: int  # cases drawn per replicate
    unit_weight: float  # weight of each drawn case
    method: str  # "index": draw case (or cell) indices; "counts": multinomial counts
    unit_start: IntArray  # cumulative units per local cell (units: cases or cells)
    unit_cell: npt.NDArray[np.intp] | None  # case -> local cell (None: one case per cell)
    cum_weight: FloatArray | None  # weighted index draws
    probs: FloatArray | None  # multinomial draws

    @property
    def n_units(self) -> int:
        return int(self.unit_start[-1])

    @property
    def counted(self) -> bool:
        """True when :meth:`draw` gives each replicate's counts per cell (multinomial
        draws, or equally likely cases counted as they are drawn), False when it gives
        the cells drawn (weighted index draws)."""
        return self.method == "counts" or self.cum_weight is None

    def draw(self, rng: np.random.Generator, b: int) -> npt.NDArray[Any]:
        if self.method == "counts":
            assert self.probs is not None
            return rng.multinomial(self.draws, self.probs, size=b)
        if self.cum_weight is None:  # cases, equally likely: counted per cell as drawn
            # (in 8 bits when compiled: cell_counts widens them)
            return draw_counts(rng, self.n_units, (b, self.draws), self.unit_cell,
                               self.hi - self.lo)
        x = rng.random((b, self.draws))
        x *= self.cum_weight[-1]
        u = np.searchsorted(self.cum_weight, x, side="right")
        return np.minimum(u, self.hi - self.lo - 1)

    def count_in(self, d: npt.NDArray[Any], c0: int, c1: int) -> npt.NDArray[Any]:
        """Per replicate, the number of draws in the global cells [c0, c1)."""
        l0, l1 = max(c0, self.lo) - self.lo, min(c1, self.hi) - self.lo
        b = d.shape[0]
        if l1 <= l0:
            return np.zeros(b, dtype=np.int64)
        if l0 == 0 and l1 == self.hi - self.lo:
            return np.full(b, self.draws, dtype=np.int64)
        if self.counted:
            return d[:, l0:l1].sum(axis=1, dtype=np.int64)
        if l0 == 0:  # weighted index draws: the cells drawn
            return np.count_nonzero(d < l1, axis=1)
        if l1 == self.hi - self.lo:
            return np.count_nonzero(d >= l0, axis=1)
        return np.count_nonzero((d >= l0) & (d < l1), axis=1)


def _integral(table: CountTable) -> bool:
    """True if every count of the table is a whole number (frequency weights)."""
    return bool(np.all(np.mod(table.pos, 1.0) == 0) and np.all(np.mod(table.neg, 1.0) == 0))
