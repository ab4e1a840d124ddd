"""The replicates behind :mod:`binmetrics.inference.resampling` and the paired bootstrap of
:mod:`binmetrics.inference.paired`: what is resampled, how replicates are drawn, and how
the measures are evaluated on blocks of them.

* :class:`_Target`, :func:`_targets`: the statistics to resample (registered measures
  with their parameters and their registry's resampling kernel, or callables).
* :class:`_Cells`, :func:`_slot_of_group`: the (score, label) cells of a table, and the
  condensed slots the resampling kernels work on.
* :class:`_BootstrapSampler` / :class:`_BootstrapBlock` and :class:`_PermutationSampler`
  / :class:`_PermutationBlock`: blocks of bootstrap replicates and of label
  permutations, each with the views the measures need (a :class:`Confusion` of arrays,
  count matrices for the kernels, count tables); :func:`_evaluate_blocks` runs the
  measures over any such blocks.
* :func:`replicate_streams`, :func:`_evaluate_streams`: the replicates in streams, each
  drawn by its own generator spawned from the seed, evaluated in parallel threads.
* :class:`ResamplingWarning` and :func:`_report_undefined_replicates`, shared with
  :mod:`~binmetrics.inference.paired` and :mod:`~binmetrics.inference.refit`.

The methods and their conventions are described in :mod:`binmetrics.inference.resampling`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, partial
from itertools import chain
from types import MappingProxyType
from typing import Any

import numpy as np
import numpy.typing as npt

from binmetrics.backends import THREAD_ROWS, thread_imap
from binmetrics.exceptions import (
    BinmetricsWarning,
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    current_policy,
    undefined_policy,
    warn_at_user,
)
from binmetrics.inference._counting import (
    compiled_kernels,
    count_rows,
    nonempty_groups,
)
from binmetrics.inference._replicate_bins import BinsOf, bin_values, bins_of
from binmetrics.inference._replicate_fits import passes_tables
from binmetrics.inference._replicate_groups import _GroupsPlan
from binmetrics.inference._replicate_sums import _groups, _NeedsTable, _SumsPlan
from binmetrics.inference._replicate_tables import _mean_case_costs, _replicate_table, _table_of
from binmetrics.inference._strata import IntArray, _Cells, _integral, _slot_of_group, _Stratum
from binmetrics.measures import Measure, get_measure
from binmetrics.measures.kernels import Kernel, auc_transform, sharing
from binmetrics.table.counts import Confusion, CountTable, FloatArray, count_dtype
from binmetrics.validation import check_count

#: Target number of elements of a block's draw or count matrices: large enough to
#: amortise the per-block work, small enough to stay in cache.
_BLOCK_ELEMENTS = 1 << 20

#: Index draws cost ~5 ns per case (draw, look-up, count); multinomial draws ~100 ns
#: per category. Multinomial is used when categories * this < cases.
_MULTINOMIAL_RATIO = 20
#: Weighted index draws need a binary search (~30 ns per case).
_MULTINOMIAL_RATIO_WEIGHTED = 4
#: The fewest replicates of a stream: one generator's draws, one thread's unit of work.
_STREAM = 16
#: Replicates grouped in a block where one fills it (1e6 cases), compiled: the replicate
#: sums then read each tile of their terms once for the group (a 1e6-cell table's ten
#: terms are 72 MB): ci_table() at 1e6, 36-46 -> 33-35 ms a replicate
_GROUP = 4

#: Choosing k of n cases costs ~15 ns per chosen case; the marginal hypergeometric
#: split ~110 ns per group. The split is used when groups * this < k.
_HYPERGEOMETRIC_RATIO = 8


#: A progress callback: called with (replicates done, replicates in all).
Progress = Callable[[int, int], None]


class ResamplingWarning(BinmetricsWarning):
    """A resampling result needs care (e.g. weights that may not be frequencies)."""


# --- the statistics -----------------------------------------------------------------------
@dataclass(frozen=True)
class _Target:
    """One statistic to resample: a registered measure with parameters, or a callable."""

    key: str
    family: str  # "confusion", "ranking", "probabilistic" or "callable"
    func: Callable[..., Any]
    params: Mapping[str, Any]
    kernel: Kernel | None  # the measure's resampling kernel, if the registry declares one
    sums: tuple[Any, ...] = ()  # the measure's sum groups (registry), read from replicate sums
    passes: tuple[Any, ...] = ()  # the measure's block passes (registry): the logistic fits
    bins: BinsOf | None = None  # its bin sums (registry) and their edges, read per bin

    def value(self, table: CountTable, threshold: float) -> float:
        if self.family == "confusion":
            return float(self.func(table.confusion(threshold), **self.params))
        return float(self.func(table, **self.params))

    def on_confusion(self, c: Confusion, size: int) -> FloatArray:
        out = np.asarray(self.func(c, **self.params), dtype=np.float64)
        return np.broadcast_to(out, (size,))


def _targets(measures: Any, params: Mapping[str, Mapping[str, Any]] | None) -> list[_Target]:
    if isinstance(measures, (str, Measure)) or callable(measures):
        items: list[Any] = [measures]
    elif isinstance(measures, Iterable):
        items = list(measures)
    else:
        raise TypeError(f"measures must be a measure name, a Measure, a callable or a list of "
                        f"them; got {measures!r}")
    if not items:
        raise ValueError("no measures given")
    wanted: dict[str, dict[str, Any]] = {}
    for name, p in (params or {}).items():
        if not isinstance(p, Mapping):
            raise TypeError(f"params maps a measure to its parameters, e.g. "
                            f"{{'fbeta': {{'beta': 2}}}}; got {name!r}: {p!r}")
        wanted[get_measure(name).id] = dict(p)
    out: list[_Target] = []
    for item in items:
        if isinstance(item, (str, Measure)):
            m = get_measure(item)
            p = m.resolve_params(**wanted.get(m.id, {}))
            kernel = m.resampling_kernel  # a measure's parameters go to its kernel
            kernel = partial(kernel, **p) if kernel is not None and p else kernel
            out.append(_Target(m.id, m.family, m.func, MappingProxyType(p),
                               kernel, m.sums if m.family == "probabilistic" else (),
                               m.passes, bins_of(m, p)))
        elif callable(item):
            name = str(getattr(item, "__name__", "statistic"))
            out.append(_Target(name, "callable", item, MappingProxyType({}), None))
        else:
            raise TypeError(f"a measure must be a name, a Measure or a callable taking a "
                            f"CountTable; got {item!r}")
    keys = [t.key for t in out]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError(f"measure(s) given twice: {', '.join(dup)}")
    unused = sorted(set(wanted) - set(keys))
    if unused:
        raise ValueError(f"params given for measure(s) not requested: {', '.join(unused)}")
    return out


# --- bootstrap sampling -------------------------------------------------------------------
def _draw_counts(table: CountTable, stratified: bool,
                 n_cases: Any) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Cases drawn per stratum and the weight each carries (see "Weighted tables" in
    :mod:`binmetrics.inference.resampling`)."""
    if not table.weighted:
        if n_cases is not None:
            raise ValueError("n_cases applies to weighted tables only: an unweighted table's "
                             "counts are its cases")
        if stratified:
            return (int(table.P), int(table.N)), (1.0, 1.0)
        return (int(table.total),), (1.0,)
    totals = (table.P, table.N) if stratified else (table.total,)
    if n_cases is None:
        counts = tuple(round(w) for w in totals)
        if not _integral(table):
            warn_at_user(
                "the table is weighted with non-integer weights; the bootstrap treats weights "
                f"as frequencies and draws round(total weight) = {counts} cases"
                f"{' per class' if stratified else ''}. Pass n_cases (the number of rows "
                "behind the table) if that is not what the weights mean",
                ResamplingWarning)
    else:
        if stratified:
            if isinstance(n_cases, (int, np.integer)) or len(n_cases) != 2:
                raise ValueError("with stratified=True give n_cases as a pair "
                                 "(positives, negatives)")
            counts = tuple(check_count(c, "n_cases") for c in n_cases)
        elif isinstance(n_cases, (int, np.integer)):
            counts = (check_count(n_cases, "n_cases"),)
        else:
            counts = (sum(check_count(c, "n_cases") for c in n_cases),)
    for c, w in zip(counts, totals, strict=True):
        if w > 0 and c < 1:
            raise ValueError(f"a total weight of {w:g} rounds to {c} cases: the weights are not "
                             "frequencies; pass n_cases, the number of rows behind the table")
    return counts, tuple(w / c if c > 0 else 0.0 for c, w in zip(counts, totals, strict=True))


class _BootstrapSampler:
    """Draws blocks of bootstrap replicates of one table."""

    def __init__(self, table: CountTable, stratified: bool, n_cases: Any = None) -> None:
        self.table = table
        self.stratified = stratified
        self.cells = cells = _Cells.of(table)
        draws, units = _draw_counts(table, stratified, n_cases)
        self.units = units
        ranges = ((0, cells.n_pos), (cells.n_pos, cells.size)) if stratified else ((0, cells.size),)
        self.strata = [self._stratum(lo, hi, d, u)
                       for (lo, hi), d, u in zip(ranges, draws, units, strict=True)]
        self.strata = [s for s in self.strata if s.draws > 0]
        self.n_draws = sum(s.draws for s in self.strata)
        G = table.n_distinct
        self.block = max(1, _BLOCK_ELEMENTS // max(self.n_draws, 2 * G, 1))
        self._levels: dict[str, tuple[npt.NDArray[np.intp], int]] = {}
        self._plan: Any = None
        self.extras: dict[str, Any] = {}  # what other replicate paths find once per sampler
        self._groups_plan: _GroupsPlan | None = None
        self._runs: dict[str, tuple[npt.NDArray[np.intp] | None, npt.NDArray[np.intp]]] = {}
        self._group_cells: npt.NDArray[np.intp] | None = None
        self.bin_plans: dict[tuple[float, ...], Any] = {}  # see _replicate_bins

    def _stratum(self, lo: int, hi: int, draws: int, unit: float) -> _Stratum:
        w = self.cells.weight[lo:hi]
        n_cells = hi - lo
        ratio = _MULTINOMIAL_RATIO_WEIGHTED if self.table.weighted else _MULTINOMIAL_RATIO
        if n_cells * ratio < draws:
            method = "counts"
        else:
            method = "index"
        if method == "counts" or self.table.weighted:
            start = np.arange(n_cells + 1, dtype=np.int64)
            probs = w / w.sum() if method == "counts" else None
            cum = np.cumsum(w) if method == "index" else None
            return _Stratum(lo, hi, draws, unit, method, start, None, cum, probs)
        counts = w.astype(np.int64)
        start = np.concatenate(([0], np.cumsum(counts)))
        # one case per cell (distinct scores): a case is its cell, no look-up per draw
        unit_cell = (None if start[-1] == n_cells else
                     np.repeat(np.arange(n_cells, dtype=np.intp), counts))
        return _Stratum(lo, hi, draws, unit, method, start, unit_cell, None, None)

    def level(self, name: str) -> tuple[npt.NDArray[np.intp], int]:
        """Key of each cell at a level ("group" or "slot") and the level's width."""
        if name not in self._levels:
            label = self.cells.label()
            if name == "group":
                width = self.cells.n_groups
                key = self.cells.group + width * label
            else:
                slot, width = _slot_of_group(self.table)
                key = slot[self.cells.group] + width * label
            self._levels[name] = (key.astype(np.intp), width)
        return self._levels[name]

    @cached_property
    def slot_level(self) -> str:
        """The level the ranking kernels use: condensed slots with index draws, when smaller."""
        if any(s.method == "counts" for s in self.strata):
            return "group"
        n_pos_groups = int(np.count_nonzero(self.table.pos))
        return "slot" if 2 * n_pos_groups + 1 < self.table.n_distinct else "group"

    def runs(self, level: str, i: int) -> tuple[npt.NDArray[np.intp] | None, npt.NDArray[np.intp]]:
        """The runs of stratum i's cells that share a key at ``level`` (their starts, None
        when every cell has its own key) and the runs' keys."""
        name = f"{level}:{i}"
        if name not in self._runs:
            key, _ = self.level(level)
            st = self.strata[i]
            k = key[st.lo:st.hi]
            assert k.size < 2 or bool((k[1:] >= k[:-1]).all())  # non-decreasing
            if k.size < 2 or bool((k[1:] > k[:-1]).all()):
                self._runs[name] = (None, k)
            else:
                starts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]]).astype(np.intp)
                self._runs[name] = (starts, k[starts])
        return self._runs[name]

    def group_cells(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """Per group of the table, its positive cell and its negative cell (indices among
        the positive cells and among the negative cells; -1 where it has none)."""
        if self._group_cells is None:
            c = self.cells
            out = np.full((2, c.n_groups), -1, dtype=np.intp)
            out[0, c.group[: c.n_pos]] = np.arange(c.n_pos)
            out[1, c.group[c.n_pos:]] = np.arange(c.size - c.n_pos)
            self._group_cells = out
        return self._group_cells[0], self._group_cells[1]

    def groups_plan(self) -> _GroupsPlan:
        """Where the positive cells' groups fall among the negative cells (once)."""
        if self._groups_plan is None:
            group, n_pos = self.cells.group, self.cells.n_pos
            self._groups_plan = _GroupsPlan(self.table, group[:n_pos], group[n_pos:], self.n_draws)
        return self._groups_plan

    def sums_plan(self, groups: list[Any]) -> _SumsPlan:
        """The terms of ``groups`` over the cells, taken once per sampler."""
        if self._plan is None:
            self._plan = _SumsPlan(self, groups)
        return self._plan

    def streams(self, rng: np.random.Generator, n: int) -> list[tuple[np.random.Generator, int]]:
        """The ``n`` replicates as streams of at least :data:`_STREAM` (a block's worth
        when a block holds more), each with its own generator (:func:`replicate_streams`)."""
        return replicate_streams(rng, n, max(_STREAM, self.block))

    def stream_blocks(self, rng: np.random.Generator, n: int) -> Iterator[_BootstrapBlock]:
        """The blocks of one stream of ``n`` replicates, drawn by its generator. Where one
        replicate fills a block and the kernels are compiled, :data:`_GROUP` replicates
        make a block, each drawn as a block of its own would be (the same values)."""
        group = _GROUP if self.block == 1 and compiled_kernels(self.n_draws) else 1
        done = 0
        while done < n:
            if group > 1:
                b = min(group, n - done)
                rows = [[s.draw(rng, 1) for s in self.strata] for _ in range(b)]
                draws = [np.concatenate(col) for col in zip(*rows, strict=True)]
            else:
                b = min(self.block, n - done)
                draws = [s.draw(rng, b) for s in self.strata]
            yield _BootstrapBlock(self, b, draws)
            done += b

    def blocks(self, rng: np.random.Generator, n: int) -> Iterator[_BootstrapBlock]:
        """Every block of the ``n`` replicates, stream after stream: the draws of
        :func:`_evaluate_streams` with the same generator, whatever its threads."""
        for child, b in self.streams(rng, n):
            yield from self.stream_blocks(child, b)


class _BootstrapBlock:
    """The draws of ``size`` replicates, with the views the measures need."""

    def __init__(self, sampler: _BootstrapSampler, size: int,
                 draws: list[npt.NDArray[Any]]) -> None:
        self.s = sampler
        self.size = size
        self.draws = draws
        self._cache: dict[Hashable, Any] = {}

    def kept(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per block and key: what the block's measures share (counts,
        stand-ins, per-bin sums), whichever module computes it."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def counts(self, level: str) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """(pos, neg) count matrices of shape (size, width): weights for weighted tables.

        Summed from the block's cell counts (:meth:`cell_counts`, one count of the draws
        per replicate shared by every level and by the replicate sums): within a
        stratum the cells' keys never decrease, so a level's count is a sum over a run
        of adjacent cells. Compiled (unweighted), the runs are summed straight from the
        draws' counts as drawn (8 bits: no wider copy, nor a ``reduceat`` per level)."""
        def compute() -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
            _, width = self.s.level(level)
            weighted = self.s.table.weighted
            both: npt.NDArray[Any] = np.zeros((self.size, 2 * width),
                                              dtype=np.float64 if weighted else np.int64)
            k = compiled_kernels(self.s.n_draws)
            for i, st in enumerate(self.s.strata):
                starts, keys = self.s.runs(level, i)
                if not weighted and st.counted:  # from the counts as drawn (8 bits)
                    if starts is None:
                        both[:, keys] = self.draws[i]
                        continue
                    if k is not None:
                        k.run_sums(self.draws[i], starts, keys, both)
                        continue
                c = self.cell_counts()[i]
                part = c if starts is None else np.add.reduceat(c, starts, axis=1)
                both[:, keys] = part * st.unit_weight if weighted else part
            return both[:, :width], both[:, width:]

        return self.kept(level, compute)

    def cell_counts(self) -> list[npt.NDArray[Any]]:
        """Per stratum, the (size, cells of the stratum) matrix of how many cases each
        replicate drew of each of its cells (whole numbers; times the stratum's unit
        weight for a weighted table)."""
        return self.kept("cells", lambda: [
            d.astype(np.int64, copy=False) if st.counted else  # (8-bit counts widened)
            count_rows(d, st.hi - st.lo, draws=self.s.n_draws)
            for st, d in zip(self.s.strata, self.draws, strict=True)])

    def counts_as_drawn(self) -> list[npt.NDArray[Any]]:
        """:meth:`cell_counts` as drawn, for the compiled loops (they add in 64 bits or in
        floats whatever they read): the 8-bit counts of an unweighted table's strata
        where the draws were counted so (every count under 256), not a copy of them in
        64 bits (32 MB a block of four replicates at 1e6 cells, 0.8 ms a replicate)."""
        if self.s.table.weighted or not all(st.counted for st in self.s.strata):
            return self.cell_counts()
        return self.draws

    def sums_tables(self, groups: list[Any]) -> list[Any]:
        """Stand-in replicates holding the sums of ``groups`` (see
        :mod:`binmetrics.inference._replicate_sums`); the terms are taken once per sampler."""
        return self.kept("sums", lambda: self.s.sums_plan(groups).tables(
            self.counts_as_drawn(), tuple(st.unit_weight for st in self.s.strata),
            self.s.table.weighted))

    def group_tables(self) -> list[Any] | None:
        """Stand-in replicates holding their groups with positives and totals only (see
        :mod:`binmetrics.inference._replicate_groups`), from the cells' counts; None
        when the cells are not split by class (per-case costs, other strata)."""
        def compute() -> list[Any] | None:
            plan, weighted = self.s.groups_plan(), self.s.table.weighted
            split = self._cells_by_class(as_drawn=plan.kernels is not None and not weighted)
            if split is None:
                return None
            c_pos, c_neg, w_pos, w_neg = split
            return [plan.table(c_pos[i], c_neg[i], w_pos, w_neg, weighted)
                    for i in range(self.size)]

        return self.kept("groups", compute)

    def _class_counts(self, c0: int, c1: int) -> npt.NDArray[Any]:
        total: Any = 0.0 if self.s.table.weighted else 0
        for st, d in zip(self.s.strata, self.draws, strict=True):
            k = st.count_in(d, c0, c1)
            total = total + (k * st.unit_weight if self.s.table.weighted else k)
        return np.broadcast_to(np.asarray(total), (self.size,))

    def confusion(self, cut: int) -> Confusion:
        cells = self.s.cells
        a_pos, a_neg = cells.above(cut)
        split = (0, a_pos, cells.n_pos, cells.n_pos + a_neg, cells.size)
        tp, fn, fp, tn = (self._class_counts(split[i], split[i + 1]).astype(np.float64)
                          for i in range(4))
        costs: dict[str, Any] = {}
        if self.s.table.case_costs is not None:  # each drawn case: its group's mean cost
            pos, neg = self.counts("group")
            mfp, mfn = _mean_case_costs(self.s.table)
            costs = {"fp_cost": neg[:, :cut] @ mfp[:cut], "fn_cost": pos[:, cut:] @ mfn[cut:]}
        return Confusion(tp=tp, fp=fp, fn=fn, tn=tn, **costs)

    def kernel(self, kernel: Kernel) -> FloatArray:
        pos, neg = self.counts(self.s.slot_level)
        return kernel(pos, neg)

    def tables(self) -> list[CountTable]:
        if "tables" not in self._cache:
            split = self._cells_by_class()
            if split is not None and compiled_kernels(self.s.n_draws) is not None:
                # compiled: each replicate's non-empty groups in one pass over the cells'
                # counts, with no group-wide count arrays (nor the GIL)
                c_pos, c_neg, w_pos, w_neg = split
                pos_cell, neg_cell = self.s.group_cells()
                tabs = []
                for i in range(self.size):
                    keep, p, n = nonempty_groups(c_pos[i], c_neg[i], pos_cell, neg_cell,
                                                 draws=self.s.n_draws)
                    if self.s.table.weighted:
                        p, n = p * w_pos, n * w_neg
                    tabs.append(_table_of(self.s.table, keep, p, n))
                self._cache["tables"] = tabs
            else:
                pos, neg = self.counts("group")
                self._cache["tables"] = [_replicate_table(self.s.table, p, n)
                                         for p, n in zip(pos, neg, strict=True)]
        return self._cache["tables"]

    def _cells_by_class(self, as_drawn: bool = False) -> tuple[Any, Any, float, float] | None:
        """The counts of the positive and of the negative cells (size, cells) and their
        unit weights, when the strata are the classes or one stratum of all cells and the
        table has no per-case costs; else None. ``as_drawn``: for compiled walks,
        :meth:`counts_as_drawn`."""
        if self.s.table.case_costs is not None:
            return None
        st, n_pos = self.s.strata, self.s.cells.n_pos
        cc = self.counts_as_drawn() if as_drawn else self.cell_counts()
        if len(st) == 2:
            return cc[0], cc[1], st[0].unit_weight, st[1].unit_weight
        if len(st) == 1 and st[0].lo == 0 and st[0].hi == self.s.cells.size:
            return cc[0][:, :n_pos], cc[0][:, n_pos:], st[0].unit_weight, st[0].unit_weight
        return None


class _PermutationSampler:
    """Draws blocks of label permutations over the fixed sorted scores."""

    def __init__(self, table: CountTable) -> None:
        pos = np.asarray(table.pos, dtype=np.float64)
        neg = np.asarray(table.neg, dtype=np.float64)
        if table.weighted and not _integral(table):
            raise ValueError("a permutation test permutes the labels of cases, and a table "
                             "with non-integer weights has no cases; build the table without "
                             "sample_weight, or with integer frequency weights")
        if table.case_costs is not None:
            raise ValueError("a permutation test moves labels between cases, and per-case "
                             "costs belong to a case's own label; evaluate without "
                             "case_cost_fp/case_cost_fn for a permutation test")
        self.table = table
        m = (pos + neg).astype(np.int64)
        self.m = m
        self.G = int(m.size)
        self.P = round(float(pos.sum()))
        self.n = int(m.sum())
        self.N = self.n - self.P
        self.cum = np.concatenate(([0], np.cumsum(m)))  # cases in the top k groups
        self.complement = self.N < self.P  # draw the smaller class
        self.k = min(self.P, self.N)
        if self.G * _HYPERGEOMETRIC_RATIO < self.k:
            self.method = "hypergeometric"
        else:
            self.method = "choice"
        self.identity = bool(self.n == self.G)  # one case per group
        self._case_group: npt.NDArray[Any] | None = None
        self.block = max(1, _BLOCK_ELEMENTS // max(self.k, self.G, 1))

    @property
    def case_group(self) -> npt.NDArray[Any]:
        if self._case_group is None:
            self._case_group = np.repeat(np.arange(self.G, dtype=np.intp), self.m)
        return self._case_group

    @property
    def group_rank(self) -> FloatArray:
        """Average ascending rank of each group's cases (rank 1 = lowest score)."""
        return (self.n - self.cum[1:]) + (self.m + 1) / 2.0

    def blocks(self, rng: np.random.Generator, n: int) -> Iterator[_PermutationBlock]:
        done = 0
        while done < n:
            b = min(self.block, n - done)
            if self.k == 0:
                d: npt.NDArray[Any] = np.zeros((b, 0 if self.method == "choice" else self.G),
                                               dtype=np.int64)
            elif self.method == "hypergeometric":
                d = rng.multivariate_hypergeometric(self.m, self.k, size=b, method="marginals")
            else:
                d = np.empty((b, self.k), dtype=np.int64)
                for i in range(b):
                    d[i] = rng.choice(self.n, self.k, replace=False, shuffle=False)
            yield _PermutationBlock(self, b, d)
            done += b


class _PermutationBlock:
    def __init__(self, sampler: _PermutationSampler, size: int, draws: npt.NDArray[Any]) -> None:
        self.s = sampler
        self.size = size
        self.draws = draws  # chosen case indices (choice) or per-group counts of the drawn class
        self._cache: dict[str, Any] = {}

    def _drawn_counts(self) -> IntArray:
        if self.s.method == "hypergeometric":
            return np.asarray(self.draws, dtype=np.int64)
        if self.s.identity:
            return count_rows(self.draws, self.s.G)
        return count_rows(self.draws, self.s.G, self.s.case_group)

    def counts(self) -> tuple[IntArray, IntArray]:
        if "counts" not in self._cache:
            c = self._drawn_counts()
            other = self.s.m[None, :] - c
            self._cache["counts"] = (other, c) if self.s.complement else (c, other)
        return self._cache["counts"]

    def confusion(self, cut: int) -> Confusion:
        above = int(self.s.cum[cut])
        if self.s.method == "hypergeometric":
            k = np.asarray(self.draws[:, :cut].sum(axis=1), dtype=np.float64)
        else:
            k = np.count_nonzero(self.draws < above, axis=1).astype(np.float64)
        tp = above - k if self.s.complement else k
        fp = above - tp
        return Confusion(tp=tp, fp=fp, fn=self.s.P - tp, tn=self.s.N - fp)

    def rank_sum(self) -> FloatArray:
        """Sum of the positives' average ranks in each permutation (exact in float64)."""
        s = self.s
        if s.method == "hypergeometric":
            r = np.einsum("ij,j->i", self.draws, s.group_rank)  # no BLAS threads
        elif s.identity:  # case i (descending) has ascending rank n - i
            r = s.k * float(s.n) - self.draws.sum(axis=1).astype(np.float64)
        else:
            r = s.group_rank[s.case_group[self.draws]].sum(axis=1)
        r = np.asarray(r, dtype=np.float64)
        return s.n * (s.n + 1) / 2.0 - r if s.complement else r

    def kernel(self, kernel: Kernel) -> FloatArray:
        s = self.s
        from_auc = auc_transform(kernel)
        if from_auc is not None and s.P > 0 and s.N > 0:  # the AUC from the rank sums
            u = self.rank_sum() - s.P * (s.P + 1) / 2.0  # Mann-Whitney U
            v: FloatArray = from_auc(u / (float(s.P) * float(s.N)))
            return v
        pos, neg = self.counts()
        return kernel(pos, neg)

    def tables(self) -> list[CountTable]:
        if "tables" not in self._cache:
            pos, neg = self.counts()
            t = self.s.table
            dt = count_dtype(float(self.s.m.max(initial=0)))
            self._cache["tables"] = [
                CountTable(t.scores, p.astype(dt), n.astype(dt), weighted=False, _trusted=True,
                           _totals=(self.s.P, self.s.N))
                for p, n in zip(pos, neg, strict=True)
            ]
        return self._cache["tables"]


def _evaluate_blocks(blocks: Iterable[Any], targets: list[_Target], threshold: float,
                     cut: int, n: int, progress: Progress | None = None) -> dict[str, FloatArray]:
    """Every target on every replicate of the blocks (undefined values are NaN, silently);
    ``progress(done, n)`` is called after each block.

    The blocks are drawn once and shared by every target: confusion measures read one
    :class:`Confusion` of arrays per block, ranking measures with a kernel the block's
    count matrices, probabilistic measures that declare sums the block's replicate sums
    (one pass of the block's counts over the terms of every declared sum group, see
    :mod:`binmetrics.inference._replicate_sums`), the logistic calibration fits
    (``passes``) fits on the block's cell counts
    (:mod:`binmetrics.inference._replicate_fits`), those that declare bin sums the
    per-bin sums (:mod:`~binmetrics.inference._replicate_bins`), ranking measures without
    a kernel their groups with positives (:mod:`~binmetrics.inference._replicate_groups`),
    the rest the tables. The stand-in replicates are tried in one way for all
    (:func:`_on_stand_ins`).
    """
    out = {t.key: np.empty(n) for t in targets}
    groups = _groups(targets)
    routes = {t.key: _stand_in_routes(t, groups) for t in targets}
    start = 0
    with undefined_policy("ignore"), sharing():  # kernels of a block share cumulative sums
        for block in blocks:
            conf = None
            stop = start + block.size
            for t in targets:
                if t.family == "confusion":
                    conf = conf if conf is not None else block.confusion(cut)
                    out[t.key][start:stop] = t.on_confusion(conf, block.size)
                elif t.kernel is not None:
                    out[t.key][start:stop] = block.kernel(t.kernel)
                elif t.bins is not None and isinstance(block, _BootstrapBlock) and (
                        v := bin_values(block, t.bins, t.params)) is not None:
                    out[t.key][start:stop] = v
                else:
                    out[t.key][start:stop] = _on_stand_ins(block, t, routes[t.key], threshold)
            start = stop
            if progress is not None:
                progress(start, n)
    return out


def _stand_in_routes(t: _Target, groups: list[Any]) -> list[Callable[[Any], Any]]:
    """The stand-in replicates a target may read, in order, each a function of a block
    giving them (None where the block has none): its replicate sums (``sums=``), its
    logistic fits (``passes=``), its groups with positives (a ranking measure, or a
    probabilistic one that reads the confusion matrix at a score, as net benefit)."""
    routes: list[Callable[[Any], Any]] = []
    if t.sums:
        routes.append(lambda b: b.sums_tables(groups) if hasattr(b, "sums_tables") else None)
    if t.passes:
        routes.append(lambda b: passes_tables(b, t.passes))
    if t.family in ("ranking", "probabilistic") and t.kernel is None:
        routes.append(lambda b: b.group_tables() if hasattr(b, "group_tables") else None)
    return routes


def _on_stand_ins(block: Any, t: _Target, routes: list[Callable[[Any], Any]],
                  threshold: float) -> list[float]:
    """The target on the block's first stand-ins it can read, else on its tables. A
    measure that asks a stand-in for more than it holds (:class:`_NeedsTable`) leaves
    that route for the rest of the call (``routes`` is the call's)."""
    for route in list(routes):
        stand_ins = route(block)
        if stand_ins is None:
            continue
        try:
            return [t.value(tab, threshold) for tab in stand_ins]
        except _NeedsTable:
            routes.remove(route)
    return [t.value(tab, threshold) for tab in block.tables()]


def replicate_streams(rng: np.random.Generator, n: int,
                      size: int) -> list[tuple[np.random.Generator, int]]:
    """(generator, replicates) of each stream of ``size`` replicates (the last may hold
    fewer), in order: stream j is drawn by the j-th child of a seed sequence whose entropy
    is one draw from ``rng``. Streams can then be drawn in any order, in parallel
    threads, and the same seed still gives the same replicates.

    >>> [b for _, b in replicate_streams(np.random.default_rng(0), 40, 16)]
    [16, 16, 8]
    """
    entropy = rng.integers(0, 2**63, size=4, dtype=np.int64).tolist()
    sizes = [min(size, n - start) for start in range(0, n, size)]
    children = np.random.SeedSequence(entropy).spawn(len(sizes))
    return [(np.random.default_rng(c), b) for c, b in zip(children, sizes, strict=True)]


def _evaluate_streams(sampler: _BootstrapSampler, rng: np.random.Generator,
                      targets: list[_Target], threshold: float, cut: int, n: int,
                      progress: Progress | None = None) -> dict[str, FloatArray]:
    """:func:`_evaluate_blocks` over the sampler's streams, in parallel threads when the
    replicates are large enough to gain from them (NumPy's draws and counts release the
    GIL); the values are those of the sequential loop over ``sampler.blocks(rng, n)``,
    bit for bit, whatever the number of threads.

    The first stream runs in this thread, so that what the sampler finds once and keeps
    (the levels, runs and sum plans the targets read) exists before threads share it.
    """
    streams = sampler.streams(rng, n)
    compiled_kernels(sampler.n_draws)  # imports numba, if any, before the threads count

    def run(item: tuple[np.random.Generator, int]) -> dict[str, FloatArray]:
        child, b = item
        return _evaluate_blocks(sampler.stream_blocks(child, b), targets, threshold, cut, b)

    out = {t.key: np.empty(n) for t in targets}
    parallel = len(streams) > 2 and sampler.n_draws >= THREAD_ROWS
    done = 0
    first = [run(streams[0])] if streams else []
    for (_, b), got in zip(streams, chain(first, thread_imap(run, streams[1:],
                                                             parallel=parallel)), strict=True):
        for key, values in got.items():
            out[key][done:done + b] = values
        done += b
        if progress is not None:
            progress(done, n)
    return out


# --- undefined replicates ----------------------------------------------------------------
def _report_undefined_replicates(measure: str, k: int, total: int, what: str) -> None:
    policy = current_policy()
    if policy == "ignore":
        return
    msg = (f"{measure} is undefined (NaN) in {k} of {total} {what}; "
           f"the result uses the {total - k} defined ones")
    if policy == "raise":
        raise UndefinedMeasureError(msg)
    warn_at_user(msg, UndefinedMeasureWarning)
