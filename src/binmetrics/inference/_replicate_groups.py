"""The ranking measures of many bootstrap replicates from their groups with positives.

Most ranking measures read a table only through
:meth:`~binmetrics.table.counts.CountTable.positive_groups` (the groups that hold
positives, their own counts and the counts above them) and the totals. A bootstrap
replicate's groups with positives follow from the block's per-cell counts
(:meth:`~binmetrics.inference._replicates._BootstrapBlock.cell_counts`) without
building the replicate's table: the positive cells drawn at least once are those
groups; the negatives above one are a running sum of the negative cells' counts read
where that group's score falls among them (found once per call); its row in the
replicate's table is the number of non-empty groups above it. That costs a pass over
the negative cells' counts and work in the size of the positive cells, where a table
costs several passes over every group (measured at 1e6 distinct scores: about 3 ms a
replicate against 20 ms).

The measure's own function then runs on a :class:`_GroupsTable`, a stand-in replicate
that holds those groups and the totals and nothing else. The sums are the ones the
replicate's table would take, in the same order (whole numbers exactly; with weights the
same running sums, zeros skipped), so the values are bit for bit the table's (tested).
Unweighted replicates, compiled, are built from two running sums over the negative
cells (:func:`._counting_numba.positive_groups`), which also give taKS's sum over the
groups of their row times their negatives (whole numbers, exact), and answer, when
asked, mean_precision's sum over the cuts (:data:`WALKED`) from a compiled walk of the
cells, in the order the table sums it (once asked, the walk that builds the next
stand-ins takes it too), the confusion matrix at a score (net benefit's)
from the cells above it, and average lift's sum of g(j)/j over the cases
(:data:`~binmetrics.measures.early_recognition.LIFT_SUM`) from gaps of one table of
harmonic numbers (:func:`._counting_numba.lift_sum`: within 5e-16 of the sum taken case
by case, tested; the table's own series differ from it in the last bits, so that one
measure's replicates agree with the tables' to 1e-13, not bit for bit: 11 -> 2 ms a
replicate at 1e6). A measure that asks the stand-in for anything else raises
:class:`~binmetrics.inference._replicate_sums._NeedsTable` and is evaluated on
replicate tables instead, for the whole call.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.inference._counting import compiled_kernels
from binmetrics.inference._replicate_sums import _NeedsTable
from binmetrics.measures.early_recognition import LIFT_SUM
from binmetrics.measures.kernels import compiled_walks
from binmetrics.measures.ranking import NEGATIVES_BY_RANK, PRECISION_SUM, ROC_HULL, roc_hull_of
from binmetrics.table.counts import Confusion, CountTable, FloatArray, PositiveGroups

__all__: list[str] = []

#: The memo keys of a table's sums over every one of its groups that a stand-in gets
#: from a walk of its cells (compiled, unweighted): mean_precision's and taKS's.
WALKED = (PRECISION_SUM, NEGATIVES_BY_RANK)


class _GroupsTable(CountTable):
    """A replicate known by its totals and its groups with positives only (see the
    module docstring). ``memo`` computes and keeps as a table's does; the scores and
    counts raise :class:`_NeedsTable`, and so does everything that reads them."""

    def __init__(self, P: float, N: float, n_distinct: int, weighted: bool,
                 groups: PositiveGroups, probabilities_ok: bool,
                 answers: Mapping[Hashable, Callable[[], Mapping[Hashable, Any]]] | None = None,
                 confusion_at: Callable[[float], Confusion] | None = None) -> None:
        self.weighted = weighted
        self._memo: dict[Hashable, Any] = {"positive_groups": groups}
        self._answers = answers or {}
        self._probabilities_ok = probabilities_ok
        self._confusion_at = confusion_at
        self.calibration = None
        self.uncalibrated = None
        self.binning = None
        self.weight_exponent = 0
        self.case_costs = None
        self._n_distinct = n_distinct
        self.__dict__["P"], self.__dict__["N"] = float(P), float(N)

    @property  # a stand-in has no arrays
    def _scores(self) -> FloatArray:  # type: ignore[override]
        raise _NeedsTable

    _pos = _neg = _scores

    @property
    def n_distinct(self) -> int:
        return self._n_distinct

    @property
    def probabilities_ok(self) -> bool:
        return self._probabilities_ok

    def confusion(self, threshold: float) -> Confusion:
        """The confusion matrix at ``score >= threshold`` from the cells' counts above
        it (unweighted replicates: whole numbers, exactly the table's)."""
        if self._confusion_at is None:
            raise _NeedsTable
        return self._confusion_at(threshold)

    def memo(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        # memo keys the stand-in answers itself (the sums over every group, WALKED, from
        # one compiled walk of the replicate's cells; average lift's sum): taken when a
        # measure first asks for one of them, with whatever else the same pass gives
        if key not in self._memo and key in self._answers:
            self._memo.update(self._answers[key]())
        return super().memo(key, compute)


class _GroupsPlan:
    """Where each positive cell's group falls among the negative cells, found once per
    sampler: ``below[i]``, the negative cells of the groups above positive cell i's, and
    ``same[i]``, whether its group holds a negative cell (then the cell ``below[i]``)."""

    def __init__(self, table: CountTable, pos_groups: npt.NDArray[np.intp],
                 neg_groups: npt.NDArray[np.intp], draws: int) -> None:
        self.kernels = compiled_kernels(draws)  # in the thread that starts the work
        # the ranking measures' compiled walks (the ROC hull), where the draws are compiled
        self.walks = compiled_walks(draws) if self.kernels is not None else None
        self.source = table
        self.probabilities_ok = table.probabilities_ok
        self.pos_groups, self.neg_groups = pos_groups, neg_groups
        self._above: dict[float, tuple[int, int]] = {}
        self._harmonic: tuple[FloatArray, FloatArray] | None = None
        #: whether a replicate was asked for the sums over every group (WALKED): the
        #: walk that builds the next stand-ins then takes them too
        self.walk_wanted = False
        self.below = np.searchsorted(neg_groups, pos_groups).astype(np.intp)
        inside = self.below < neg_groups.size
        self.same = np.zeros(pos_groups.size, dtype=bool)
        self.same[inside] = neg_groups[self.below[inside]] == pos_groups[inside]

    def cells_above(self, threshold: float) -> tuple[int, int]:
        """The positive and the negative cells whose score is at least ``threshold``
        (the first ones of each: cells are in table order), found once per threshold."""
        if threshold not in self._above:
            cut = self.source.cut_index(threshold)
            self._above[threshold] = (int(np.searchsorted(self.pos_groups, cut)),
                                      int(np.searchsorted(self.neg_groups, cut)))
        return self._above[threshold]

    def table(self, c_pos: npt.NDArray[Any], c_neg: npt.NDArray[Any], w_pos: float,
              w_neg: float, weighted: bool) -> _GroupsTable:
        """The stand-in of one replicate from its positive and negative cells' counts
        (whole numbers; times the unit weights ``w_pos``, ``w_neg`` when weighted)."""
        if self.kernels is not None and not weighted and c_neg.size:
            return self._compiled_table(c_pos, c_neg)
        sel = np.flatnonzero(c_pos)
        below = self.below[sel]
        same = self.same[sel]
        pos = c_pos[sel].astype(np.float64)
        above = below - 1  # the last negative cell above each group (-1: none)
        has_above = below > 0
        cells = c_neg * w_neg if weighted else c_neg
        if c_neg.size == 0:
            fp0, drawn_above = np.zeros(sel.size), np.zeros(sel.size, dtype=np.intp)
            n_neg, n_drawn = 0.0, 0
        else:
            # running sums, each in its own dtype (a cumulative sum that casts as it goes
            # is several times slower): the cases of the negative cells (with weights,
            # each cell's weight added in table order, as the replicate's table sums
            # them) and the cells drawn at all
            fp = np.cumsum(cells)
            drawn = np.cumsum(np.minimum(c_neg, 1))
            fp0 = np.where(has_above, fp[np.maximum(above, 0)], 0).astype(np.float64)
            drawn_above = np.where(has_above, drawn[np.maximum(above, 0)], 0)
            n_neg, n_drawn = float(fp[-1]), int(drawn[-1])
        if weighted:
            pos *= w_pos
        # the negatives of a positive group's own score (0 where it has none)
        own = np.minimum(below, max(c_neg.size - 1, 0))
        neg = np.where(same, cells[own], 0).astype(np.float64) if c_neg.size else \
            np.zeros(sel.size)
        tp_at = np.zeros(sel.size + 1)
        np.cumsum(pos, out=tp_at[1:])
        # the group's row in the replicate's table: the non-empty groups above it, i.e.
        # the negative cells drawn above it, the positive groups above it, less those
        # counted twice (a positive group above it whose own negatives were drawn)
        both = (same & (neg > 0)).astype(np.intp)
        both_above = np.cumsum(both) - both
        idx = drawn_above + np.arange(sel.size) - both_above
        n_distinct = int(n_drawn) + sel.size - int(both.sum())
        groups = PositiveGroups(idx=idx, pos=pos, neg=neg, tp0=tp_at[:-1], fp0=fp0)
        return self._stand_in(c_pos, c_neg, float(tp_at[-1]), n_neg, n_distinct, weighted,
                              groups)

    def _compiled_table(self, c_pos: npt.NDArray[Any], c_neg: npt.NDArray[Any]) -> _GroupsTable:
        """:meth:`table` of an unweighted replicate in one compiled walk of its cells
        (:func:`._counting_numba.positive_groups`; whole numbers, the same values): 2.4
        against 6 ms at 1e6 cells. Once a replicate of the sampler was asked for the sums
        over every group (:data:`WALKED`), the same walk takes them for the next ones."""
        size = c_pos.size
        idx = np.empty(size, dtype=np.intp)
        pos, neg, tp0, fp0 = (np.empty(size) for _ in range(4))
        assert self.kernels is not None
        walked = self.walk_wanted
        k, P, n_neg, n_distinct, precision, by_rank = self.kernels.positive_groups(
            c_pos, c_neg, self.below, self.same, idx, pos, neg, tp0, fp0, walked)
        groups = PositiveGroups(idx=idx[:k], pos=pos[:k], neg=neg[:k], tp0=tp0[:k],
                                fp0=fp0[:k])
        kernels, total = self.kernels, int(P + n_neg)

        def lift() -> float:  # average lift's sum, from gaps of one table of H(k)
            hi, lo = self.harmonic(total)
            return float(kernels.lift_sum(groups.pos, groups.neg, groups.tp0, groups.fp0,
                                          total, hi, lo))

        # taKS's sum comes with every build; mean_precision's with the walk only
        sums: Mapping[Hashable, Any] = (
            {PRECISION_SUM: precision, NEGATIVES_BY_RANK: by_rank} if walked
            else {NEGATIVES_BY_RANK: by_rank})
        return self._stand_in(c_pos, c_neg, float(P), float(n_neg), int(n_distinct), False,
                              groups, lift, sums)

    def harmonic(self, total: int) -> tuple[FloatArray, FloatArray]:
        """H(k) = sum_{j<=k} 1/j for k = 0..total as double-double (hi, lo)
        (:func:`._counting_numba.harmonic_table`), made once per sampler: an
        unweighted replicate holds as many cases as the sampler draws."""
        if self._harmonic is None or self._harmonic[0].size <= total:
            assert self.kernels is not None
            hi, lo = np.empty(total + 1), np.empty(total + 1)
            self.kernels.harmonic_table(hi, lo)
            self._harmonic = (hi, lo)
        return self._harmonic

    def _stand_in(self, c_pos: npt.NDArray[Any], c_neg: npt.NDArray[Any], P: float,
                  n_neg: float, n_distinct: int, weighted: bool, groups: PositiveGroups,
                  lift: Callable[[], float] | None = None,
                  taken: Mapping[Hashable, Any] | None = None) -> _GroupsTable:
        walk: Callable[[], Mapping[Hashable, Any]] | None = None
        confusion_at: Callable[[float], Confusion] | None = None
        answers: dict[Hashable, Callable[[], Mapping[Hashable, Any]]] = {}
        if lift is not None:
            answers[LIFT_SUM] = lambda: {LIFT_SUM: lift()}
        if self.walks is not None:  # the hull in one compiled pass (not 7-19 of pruning)
            hull = self.walks.roc_hull_points
            answers[ROC_HULL] = lambda: {ROC_HULL: roc_hull_of(groups, n_distinct, P, n_neg,
                                                               hull)}
        if self.kernels is not None and not weighted:
            def walk() -> Mapping[Hashable, Any]:  # the walk again, with its sums: and from
                self.walk_wanted = True  # now on in the walk that builds the stand-ins
                size = c_pos.size
                scratch = np.empty(size, dtype=np.intp), *(np.empty(size) for _ in range(4))
                assert self.kernels is not None
                *_, precision, by_rank = self.kernels.positive_groups(
                    c_pos, c_neg, self.below, self.same, *scratch, True)
                return {PRECISION_SUM: precision, NEGATIVES_BY_RANK: by_rank}
        got = taken or {}
        for key in WALKED:  # the sums the build took, else the walk's (when compiled)
            if key in got:
                answers[key] = lambda: got
            elif walk is not None:
                answers[key] = walk
        if not weighted:
            def confusion_at(threshold: float) -> Confusion:
                kp, kn = self.cells_above(threshold)
                tp, fp = float(c_pos[:kp].sum()), float(c_neg[:kn].sum())
                return Confusion(tp=tp, fp=fp, fn=P - tp, tn=n_neg - fp)
        return _GroupsTable(P, n_neg, n_distinct, weighted, groups, self.probabilities_ok,
                            answers, confusion_at)
