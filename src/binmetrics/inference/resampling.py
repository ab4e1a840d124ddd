"""Bootstrap intervals and permutation tests on the count table, without re-sorting.

A resample of the evaluation set changes how many cases each distinct score holds,
never the order of the scores. So a bootstrap replicate or a label permutation is
the same sorted table with new counts (DESIGN.md, "Resampling reuses it"): B
replicates cost B count vectors and their cumulative sums, and no sort.

Bootstrap (:func:`bootstrap`)
    *Stratified* (the default) draws P positives with replacement from the
    positive cases and N negatives from the negative cases, so every replicate
    keeps P and N: the positive counts are multinomial over the groups holding
    positives (probabilities pos_g / P), and likewise the negatives.
    *Unstratified* draws n cases from all cases (multinomial over every
    (score, label) cell), so P and N vary and a replicate may lack a class.
    Draws are made by sampling case indices and counting them per group, or with
    ``Generator.multinomial`` when a class has far fewer groups than cases (heavy
    ties): index draws cost a few ns per case, multinomial draws about 100 ns per
    group, and the cheaper one is used. Either way a replicate's counts have the
    exact multinomial distribution.

Permutation test (:func:`permutation_test`)
    The null hypothesis "labels are unrelated to scores" permutes the labels over
    the fixed sorted scores: each permutation is a uniformly random choice of
    which P of the n cases are positive, i.e. a multivariate hypergeometric split
    of the group sizes m_g = pos_g + neg_g. The smaller class is drawn without
    replacement (``Generator.choice``, O(min(P, N)) per permutation) or, with few
    groups, with ``Generator.multivariate_hypergeometric``.

Replicates are :class:`~binmetrics.counts.CountTable` objects on the original
scores (the groups a replicate leaves empty are dropped by a mask, which keeps the
order), so every registered measure applies unchanged. Confusion measures are
computed for a whole block of replicates at once (one :class:`Confusion` of
arrays), and AUC, Gini, average precision, KS and J_max from block matrices of
counts by cumulative sums; the other measures are evaluated table by table.

Weighted tables
    A weighted table has no cases to resample, only weights. The convention here
    is that weights are frequencies: the table stands for ``n_cases`` cases drawn
    with probabilities proportional to weight, by default ``round(total weight)``
    (per class when stratified). Each drawn case carries the weight
    ``total / n_cases`` so a stratified replicate keeps the class totals. With
    integer weights this is exactly the bootstrap of the data set in which each
    row is repeated ``weight`` times. For other weights (importance, balancing or
    calibration weights) pass ``n_cases`` = the number of rows behind the table
    (a warning says so otherwise). Permutation tests need integer counts.

Undefined values
    A replicate in which a measure is undefined (e.g. precision when nothing is
    predicted positive) is NaN. They are counted in ``n_undefined`` and the
    intervals use the defined replicates, with an
    :class:`~binmetrics.exceptions.UndefinedMeasureWarning` that names the count
    (or an error under ``undefined_policy("raise")``).

Randomness
    ``random_state`` is anything :func:`numpy.random.default_rng` accepts; the
    same seed gives the same replicates, intervals and p-values.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, TypeAlias

import numpy as np
import numpy.typing as npt
from scipy.special import ndtr, ndtri

from binmetrics.exceptions import (
    UndefinedMeasureError,
    UndefinedMeasureWarning,
    current_policy,
    undefined_policy,
)
from binmetrics.inference.intervals import Interval
from binmetrics.measures import Measure, get_measure
from binmetrics.table.counts import Confusion, CountTable, FloatArray, count_dtype
from binmetrics.validation import (
    Alternative,
    check_alternative,
    check_count,
    check_level,
    check_threshold,
)

__all__ = [
    "BootstrapInterval",
    "BootstrapResult",
    "PermutationResult",
    "ResamplingWarning",
    "bootstrap",
    "bootstrap_tables",
    "permutation_pvalue",
    "permutation_tables",
    "permutation_test",
]

IntervalKind = Literal["percentile", "basic", "bca"]
MeasureLike: TypeAlias = "str | Measure | Callable[[CountTable], float]"
IntArray = npt.NDArray[np.int64]

_KINDS = ("percentile", "basic", "bca")

#: Measures with a vectorised kernel over a block of replicates (cumulative sums of
#: block count matrices); every other measure is evaluated replicate by replicate.
_KERNELS = frozenset({"auc", "gini", "average_precision", "ks", "youden_j_max"})

#: Target number of elements of a block's draw or count matrices: large enough to
#: amortise the per-block work, small enough to stay in cache.
_BLOCK_ELEMENTS = 1 << 20

#: Index draws cost ~5 ns per case (draw, look-up, count); multinomial draws ~100 ns
#: per category. Multinomial is used when categories * this < cases.
_MULTINOMIAL_RATIO = 20
#: Weighted index draws need a binary search (~30 ns per case).
_MULTINOMIAL_RATIO_WEIGHTED = 4
#: Choosing k of n cases costs ~15 ns per chosen case; the marginal hypergeometric
#: split ~110 ns per group. The split is used when groups * this < k.
_HYPERGEOMETRIC_RATIO = 8

#: The BCa jackknife is exact (one evaluation per (score, label) cell) up to this
#: many cells; beyond, about this many runs of adjacent cells of a class are each
#: represented by one cell (see :meth:`BootstrapResult.acceleration`).
_JACKKNIFE_CELLS = 2000


#: A progress callback: called with (replicates done, replicates in all).
Progress = Callable[[int, int], None]


class ResamplingWarning(UserWarning):
    """A resampling result needs care (e.g. weights that may not be frequencies)."""


# --- argument checks -------------------------------------------------------------------
def _check_table(table: Any) -> CountTable:
    if not isinstance(table, CountTable):
        raise TypeError(
            "table must be a CountTable (e.g. Evaluation.table or "
            f"CountTable.from_arrays(y_true, y_score)); got {type(table).__name__}"
        )
    return table


def _check_choice(value: Any, name: str, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}")
    return str(value)


# --- measures ----------------------------------------------------------------------------
def quantiles(values: Any, probs: Any) -> list[float]:
    """Quantiles by linear interpolation (numpy's default), also where the neighbours
    are infinite: np.quantile computes inf - inf there and returns NaN, which a
    likelihood ratio or an odds ratio with infinite replicates would hit."""
    v = np.sort(np.asarray(values, dtype=np.float64))
    out = []
    for q in np.atleast_1d(probs):
        h = (v.size - 1) * float(q)
        lo = math.floor(h)
        hi = min(lo + 1, v.size - 1)
        a, b, frac = float(v[lo]), float(v[hi]), h - lo
        if a == b or frac == 0.0 or math.isinf(a):
            out.append(a)
        elif math.isinf(b):
            out.append(b)
        else:  # as numpy lerps, from the nearer end
            out.append(a + (b - a) * frac if frac < 0.5 else b - (b - a) * (1.0 - frac))
    return out


@dataclass(frozen=True)
class _Target:
    """One statistic to resample: a registered measure with parameters, or a callable."""

    key: str
    family: str  # "confusion", "ranking", "probabilistic" or "callable"
    func: Callable[..., Any]
    params: Mapping[str, Any]
    kernel: str | None

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
            kernel = m.id if m.id in _KERNELS else None
            out.append(_Target(m.id, m.family, m.func, MappingProxyType(p), kernel))
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


def _ranking_kernel(name: str, pos: npt.NDArray[Any], neg: npt.NDArray[Any]) -> FloatArray:
    """A vectorised ranking measure of each row of (pos, neg) block count matrices.

    Each row is the count table of one replicate, possibly with runs of adjacent
    negative-only groups merged (every measure here is invariant to that merge).
    Integer counts stay integers where the sums are exact. Values equal the
    registry's functions on the replicate tables up to rounding (AUC: exactly).
    """
    P = pos.sum(axis=1)
    N = neg.sum(axis=1)
    fp1 = np.cumsum(neg, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if name in ("auc", "gini"):
            # each positive beats the negatives below its group and ties half of its own;
            # twice that, so integer counts give an exact integer
            below2 = N[:, None] - fp1
            below2 *= 2
            below2 += neg
            v = np.einsum("ij,ij->i", pos, below2) / (2.0 * (P * N))
            if name == "gini":
                v = 2.0 * v - 1.0
        else:
            pos_f = pos.astype(np.float64, copy=False)
            tp1 = np.cumsum(pos_f, axis=1)
            fp1f = fp1.astype(np.float64, copy=False)
            if name == "average_precision":
                prec = np.where(pos_f > 0, tp1 / (tp1 + fp1f), 0.0)
                v = np.einsum("ij,ij->i", pos_f, prec) / P
            else:  # ks, youden_j_max: extremes of TPR - FPR over the cuts
                gap = tp1 / P[:, None] - fp1f / N[:, None]
                hi = np.maximum(0.0, gap.max(axis=1))
                v = hi if name == "youden_j_max" else np.maximum(
                    hi, -np.minimum(0.0, gap.min(axis=1)))
    v = np.asarray(v, dtype=np.float64)
    v[(P <= 0) | (N <= 0)] = np.nan
    return v


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


def _bincount_rows(keys: npt.NDArray[Any], width: int,
                   lookup: npt.NDArray[Any] | None = None) -> IntArray:
    """Row-wise bincount of a (b, d) matrix of keys in [0, width) (of ``lookup[keys]``).

    One row at a time: a row's counts stay in cache, which a single bincount of the
    offset keys of all rows does not (it is about twice as slow).
    """
    out = np.empty((keys.shape[0], width), dtype=np.int64)
    for i in range(keys.shape[0]):
        out[i] = np.bincount(keys[i] if lookup is None else lookup[keys[i]], minlength=width)
    return out


# --- bootstrap sampling -------------------------------------------------------------------
@dataclass
class _Stratum:
    """A set of cells resampled together: one class (stratified) or all cells."""

    lo: int  # global cell range [lo, hi)
    hi: int
    draws: int  # cases drawn per replicate
    unit_weight: float  # weight of each drawn case
    method: str  # "index": draw case (or cell) indices; "counts": multinomial counts
    unit_start: IntArray  # cumulative units per local cell (units: cases or cells)
    unit_cell: npt.NDArray[np.intp] | None  # case -> local cell (unweighted index draws)
    cum_weight: FloatArray | None  # weighted index draws
    probs: FloatArray | None  # multinomial draws
    _keys: dict[str, tuple[npt.NDArray[Any], int]] = field(default_factory=dict)

    @property
    def n_units(self) -> int:
        return int(self.unit_start[-1])

    def draw(self, rng: np.random.Generator, b: int) -> npt.NDArray[Any]:
        if self.method == "counts":
            assert self.probs is not None
            return rng.multinomial(self.draws, self.probs, size=b)
        if self.cum_weight is None:  # cases, equally likely (intp: the fastest to index with)
            return rng.integers(0, self.n_units, size=(b, self.draws), dtype=np.intp)
        x = rng.random((b, self.draws))
        x *= self.cum_weight[-1]
        u = np.searchsorted(self.cum_weight, x, side="right")
        return np.minimum(u, self.hi - self.lo - 1)

    def unit_keys(self, level: str,
                  cell_key: npt.NDArray[np.intp]) -> tuple[npt.NDArray[Any], int]:
        """Each unit's key at a level, relative to the stratum's smallest key, and that key
        (the strata's key ranges never overlap)."""
        if level not in self._keys:
            local = cell_key[self.lo:self.hi]
            k0 = int(local.min()) if local.size else 0
            rel = (local - k0).astype(np.intp)
            self._keys[level] = (rel if self.unit_cell is None else rel[self.unit_cell], k0)
        return self._keys[level]

    def count_in(self, d: npt.NDArray[Any], c0: int, c1: int) -> npt.NDArray[Any]:
        """Per replicate, the number of draws in the global cells [c0, c1)."""
        l0, l1 = max(c0, self.lo) - self.lo, min(c1, self.hi) - self.lo
        b = d.shape[0]
        if l1 <= l0:
            return np.zeros(b, dtype=np.int64)
        if self.method == "counts":
            return d[:, l0:l1].sum(axis=1)
        u0, u1 = int(self.unit_start[l0]), int(self.unit_start[l1])
        if u0 == 0 and u1 == self.n_units:
            return np.full(b, self.draws, dtype=np.int64)
        if u0 == 0:
            return np.count_nonzero(d < u1, axis=1)
        if u1 == self.n_units:
            return np.count_nonzero(d >= u0, axis=1)
        return np.count_nonzero((d >= u0) & (d < u1), axis=1)


def _integral(table: CountTable) -> bool:
    """True if every count of the table is a whole number (frequency weights)."""
    return bool(np.all(np.mod(table.pos, 1.0) == 0) and np.all(np.mod(table.neg, 1.0) == 0))


def _draw_counts(table: CountTable, stratified: bool,
                 n_cases: Any) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Cases drawn per stratum and the weight each carries (see the module docstring)."""
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
            warnings.warn(
                "the table is weighted with non-integer weights; the bootstrap treats weights "
                f"as frequencies and draws round(total weight) = {counts} cases"
                f"{' per class' if stratified else ''}. Pass n_cases (the number of rows "
                "behind the table) if that is not what the weights mean",
                ResamplingWarning, stacklevel=4)
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
        unit_cell = np.repeat(np.arange(n_cells, dtype=np.intp), counts)
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

    @property
    def slot_level(self) -> str:
        """The level the ranking kernels use: condensed slots with index draws, when smaller."""
        if any(s.method == "counts" for s in self.strata):
            return "group"
        n_pos_groups = int(np.count_nonzero(self.table.pos))
        return "slot" if 2 * n_pos_groups + 1 < self.table.n_distinct else "group"

    def blocks(self, rng: np.random.Generator, n: int) -> Iterator[_BootstrapBlock]:
        done = 0
        while done < n:
            b = min(self.block, n - done)
            yield _BootstrapBlock(self, b, [s.draw(rng, b) for s in self.strata])
            done += b


class _BootstrapBlock:
    """The draws of ``size`` replicates, with the views the measures need."""

    def __init__(self, sampler: _BootstrapSampler, size: int,
                 draws: list[npt.NDArray[Any]]) -> None:
        self.s = sampler
        self.size = size
        self.draws = draws
        self._cache: dict[str, Any] = {}

    def counts(self, level: str) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
        """(pos, neg) count matrices of shape (size, width): weights for weighted tables."""
        if level in self._cache:
            return self._cache[level]
        key, width = self.s.level(level)
        weighted = self.s.table.weighted
        both: npt.NDArray[Any] = np.zeros((self.size, 2 * width),
                                          dtype=np.float64 if weighted else np.int64)
        for st, d in zip(self.s.strata, self.draws, strict=True):
            if st.method == "counts":
                part = d * st.unit_weight if weighted else d
                both[:, key[st.lo:st.hi]] = part  # keys are unique per cell at group level
                continue
            rel, k0 = st.unit_keys(level, key)
            # one row at a time: the counts of a row stay in cache while it is counted
            out = both[:, k0:k0 + int(rel.max(initial=-1)) + 1]
            for i in range(self.size):
                c = np.bincount(rel[d[i]], minlength=out.shape[1])
                out[i] = c * st.unit_weight if weighted else c
        res = (both[:, :width], both[:, width:])
        self._cache[level] = res
        return res

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
        return Confusion(tp=tp, fp=fp, fn=fn, tn=tn)

    def kernel(self, name: str) -> FloatArray:
        pos, neg = self.counts(self.s.slot_level)
        return _ranking_kernel(name, pos, neg)

    def tables(self) -> list[CountTable]:
        if "tables" not in self._cache:
            pos, neg = self.counts("group")
            self._cache["tables"] = [_replicate_table(self.s.table, p, n)
                                     for p, n in zip(pos, neg, strict=True)]
        return self._cache["tables"]


def _replicate_table(table: CountTable, pos: npt.NDArray[Any],
                     neg: npt.NDArray[Any]) -> CountTable:
    """A replicate's table: the original scores that hold cases, in their order."""
    keep = (pos + neg) > 0
    s, p, n = table.scores[keep], pos[keep], neg[keep]
    if table.weighted:
        return CountTable(s, p.astype(np.float64), n.astype(np.float64), weighted=True,
                          _trusted=True)
    P, N = int(p.sum()), int(n.sum())
    dt = count_dtype(float((p + n).max(initial=0)))  # group sizes fit, as in the core
    return CountTable(s, p.astype(dt), n.astype(dt), weighted=False, _trusted=True,
                      _totals=(P, N))


# --- permutation sampling ------------------------------------------------------------------
class _PermutationSampler:
    """Draws blocks of label permutations over the fixed sorted scores."""

    def __init__(self, table: CountTable) -> None:
        pos = np.asarray(table.pos, dtype=np.float64)
        neg = np.asarray(table.neg, dtype=np.float64)
        if table.weighted and not _integral(table):
            raise ValueError("a permutation test permutes the labels of cases, and a table "
                             "with non-integer weights has no cases; build the table without "
                             "sample_weight, or with integer frequency weights")
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
            return _bincount_rows(self.draws, self.s.G)
        return _bincount_rows(self.draws, self.s.G, self.s.case_group)

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
            r = self.draws @ s.group_rank
        elif s.identity:  # case i (descending) has ascending rank n - i
            r = s.k * float(s.n) - self.draws.sum(axis=1).astype(np.float64)
        else:
            r = s.group_rank[s.case_group[self.draws]].sum(axis=1)
        r = np.asarray(r, dtype=np.float64)
        return s.n * (s.n + 1) / 2.0 - r if s.complement else r

    def kernel(self, name: str) -> FloatArray:
        s = self.s
        if name in ("auc", "gini") and s.P > 0 and s.N > 0:
            u = self.rank_sum() - s.P * (s.P + 1) / 2.0  # Mann-Whitney U
            v = u / (float(s.P) * float(s.N))
            return 2.0 * v - 1.0 if name == "gini" else v
        pos, neg = self.counts()
        return _ranking_kernel(name, pos, neg)

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
    ``progress(done, n)`` is called after each block."""
    out = {t.key: np.empty(n) for t in targets}
    start = 0
    with undefined_policy("ignore"):
        for block in blocks:
            conf = None
            stop = start + block.size
            for t in targets:
                if t.family == "confusion":
                    conf = conf if conf is not None else block.confusion(cut)
                    out[t.key][start:stop] = t.on_confusion(conf, block.size)
                elif t.kernel is not None:
                    out[t.key][start:stop] = block.kernel(t.kernel)
                else:
                    out[t.key][start:stop] = [t.value(tab, threshold) for tab in block.tables()]
            start = stop
            if progress is not None:
                progress(start, n)
    return out


# --- the jackknife (BCa acceleration) ---------------------------------------------------------
_Sample = tuple[FloatArray, FloatArray]  # (leave-one-out values, cases each stands for)


def _jackknife(table: CountTable, target: _Target, threshold: float,
               units: tuple[float, float]) -> list[_Sample]:
    """Leave-one-case-out values of a statistic per class: [positives, negatives].

    All cases of one (score, label) cell give the same value, so one evaluation per
    cell suffices (returned with the cell's number of cases). ``units`` is the weight
    of one case of each class (1 for unweighted tables).
    """
    with undefined_policy("ignore"):
        if target.family == "confusion":
            return _jackknife_confusion(table, target, threshold, units)
        if target.kernel in ("auc", "gini"):
            return _jackknife_auc(table, target.kernel, units)
        return _jackknife_cells(table, target, threshold, units)


def _jackknife_confusion(table: CountTable, target: _Target, threshold: float,
                         units: tuple[float, float]) -> list[_Sample]:
    c = table.confusion(threshold)
    cells = np.array([c.tp, c.fn, c.fp, c.tn], dtype=np.float64)
    unit = np.array([units[0], units[0], units[1], units[1]])
    r = np.minimum(unit, cells)
    base = np.tile(cells, (4, 1))
    base[np.arange(4), np.arange(4)] -= r
    values = target.on_confusion(Confusion(tp=base[:, 0], fn=base[:, 1], fp=base[:, 2],
                                           tn=base[:, 3]), 4)
    mult = np.divide(cells, unit, out=np.zeros(4), where=unit > 0)
    keep = cells > 0
    return [(values[:2][keep[:2]], mult[:2][keep[:2]]), (values[2:][keep[2:]], mult[2:][keep[2:]])]


def _jackknife_auc(table: CountTable, name: str, units: tuple[float, float]) -> list[_Sample]:
    pos = table.pos.astype(np.float64)
    neg = table.neg.astype(np.float64)
    P, N = table.P, table.N
    tp1, fp1 = np.cumsum(pos), np.cumsum(neg)
    beats = N - fp1 + 0.5 * neg  # pairs won by one positive of each group
    beaten = (tp1 - pos) + 0.5 * pos  # pairs won against one negative of each group
    U = float(np.dot(pos, beats))
    ip, ineg = pos > 0, neg > 0
    rp = np.minimum(units[0], pos[ip])
    rn = np.minimum(units[1], neg[ineg])
    with np.errstate(divide="ignore", invalid="ignore"):
        vp = (U - rp * beats[ip]) / ((P - rp) * N)
        vn = (U - rn * beaten[ineg]) / (P * (N - rn))
    vp[(P - rp) <= 0] = np.nan
    vn[(N - rn) <= 0] = np.nan
    if name == "gini":
        vp, vn = 2.0 * vp - 1.0, 2.0 * vn - 1.0
    return [(vp, pos[ip] / units[0]), (vn, neg[ineg] / units[1])]


def _jackknife_cells(table: CountTable, target: _Target, threshold: float,
                     units: tuple[float, float]) -> list[_Sample]:
    """One evaluation per (score, label) cell: one case of the cell left out.

    Beyond :data:`_JACKKNIFE_CELLS` cells, each class's cells (in score order) are cut
    into about that many runs of adjacent cells, and the middle cell of a run stands
    for every case of the run.
    """
    idx = [np.flatnonzero(table.pos), np.flatnonzero(table.neg)]
    n_cells = idx[0].size + idx[1].size
    out: list[_Sample] = []
    for j in (0, 1):
        cells = idx[j]
        w = (table.pos if j == 0 else table.neg)[cells].astype(np.float64)
        if n_cells <= _JACKKNIFE_CELLS:
            reps, cases = np.arange(cells.size), w
        else:
            k = max(1, min(cells.size, round(_JACKKNIFE_CELLS * cells.size / n_cells)))
            bounds = np.linspace(0, cells.size, k + 1).astype(np.intp)
            reps = (bounds[:-1] + bounds[1:]) // 2
            cases = np.add.reduceat(w, bounds[:-1])
        values = np.array([
            target.value(_leave_one_out(table, j, int(cells[r]), units[j]), threshold)
            for r in reps.tolist()
        ], dtype=np.float64)
        out.append((values, cases / units[j]))
    return out


def _leave_one_out(table: CountTable, label: int, group: int, unit: float) -> CountTable:
    """The table without one case (weight ``unit``, at most the cell's) of a cell."""
    pos, neg = table.pos.copy(), table.neg.copy()
    arr = pos if label == 0 else neg
    if table.weighted:
        arr[group] -= min(unit, float(arr[group]))
        return CountTable(table.scores, pos, neg, weighted=True, _trusted=True)
    arr[group] -= 1
    totals = (table.P - (label == 0), table.N - (label == 1))
    scores = table.scores
    if pos[group] == 0 and neg[group] == 0:  # the group is gone
        scores, pos, neg = (np.delete(a, group) for a in (scores, pos, neg))
    return CountTable(scores, pos, neg, weighted=False, _trusted=True, _totals=totals)


def _acceleration(samples: list[_Sample]) -> float:
    """Efron's acceleration from jackknife values (scipy.stats.bootstrap's formula; with
    several samples, as for a stratified bootstrap, their sums are pooled)."""
    num = den = 0.0
    for values, mult in samples:
        n = float(mult.sum())
        if n <= 0:
            continue
        if np.isnan(values).any():
            return float("nan")
        mean = float(np.dot(mult, values)) / n
        u = (n - 1.0) * (mean - values)
        num += float(np.dot(mult, u**3)) / n**3
        den += float(np.dot(mult, u**2)) / n**2
    if den == 0.0:  # the statistic does not move when a case is left out
        return 0.0
    return num / (6.0 * den**1.5)


# --- results ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BootstrapInterval(Interval):
    """A bootstrap confidence interval: an :class:`~binmetrics.intervals.Interval`
    (``low, high = interval``; ``method`` is "bootstrap-percentile", "bootstrap-basic"
    or "bootstrap-bca") that also says which measure, and how many replicates it used.
    """

    measure: str
    kind: str
    n_used: int  # replicates with a defined value
    n_undefined: int


def _report_undefined_replicates(measure: str, k: int, total: int, what: str) -> None:
    policy = current_policy()
    if policy == "ignore":
        return
    msg = (f"{measure} is undefined (NaN) in {k} of {total} {what}; "
           f"the result uses the {total - k} defined ones")
    if policy == "raise":
        raise UndefinedMeasureError(msg)
    warnings.warn(msg, UndefinedMeasureWarning, stacklevel=3)


@dataclass(frozen=True, eq=False)
class BootstrapResult:
    """Bootstrap distributions of one or more measures on one table.

    Attributes
    ----------
    measures : the measure ids (or callables' names), in the order requested.
    estimate : the value of each measure on the table itself.
    replicates : the bootstrap distribution of each measure (length ``n_resamples``),
        NaN where the measure is undefined on a replicate.
    n_undefined : the number of NaN replicates of each measure.
    n_resamples, stratified, threshold : how the replicates were drawn.
    """

    measures: tuple[str, ...]
    estimate: Mapping[str, float]
    replicates: Mapping[str, FloatArray]
    n_undefined: Mapping[str, int]
    n_resamples: int
    stratified: bool
    threshold: float
    _table: CountTable = field(repr=False)
    _targets: Mapping[str, _Target] = field(repr=False)
    _units: tuple[float, float] = field(repr=False)
    _memo: dict[str, float] = field(default_factory=dict, repr=False)

    def _key(self, measure: Any) -> str:
        if isinstance(measure, str) and measure in self.replicates:
            return measure
        if callable(measure) and getattr(measure, "__name__", None) in self.replicates:
            return str(measure.__name__)
        try:
            key = get_measure(measure).id
        except (KeyError, TypeError):
            key = None
        if key is None or key not in self.replicates:
            raise KeyError(f"{measure!r} was not bootstrapped; this result holds "
                           f"{', '.join(self.measures)}")
        return key

    def _defined(self, key: str) -> FloatArray:
        r = self.replicates[key]
        return r[~np.isnan(r)]

    def standard_error(self, measure: Any) -> float:
        """Standard deviation (ddof=1) of the defined replicates."""
        d = self._defined(self._key(measure))
        return float(np.std(d, ddof=1)) if d.size > 1 else float("nan")

    def bias(self, measure: Any) -> float:
        """Mean of the defined replicates minus the estimate."""
        key = self._key(measure)
        d = self._defined(key)
        return float(d.mean() - self.estimate[key]) if d.size else float("nan")

    def acceleration(self, measure: Any) -> float:
        """The BCa acceleration constant, from the jackknife on the count table.

        Leaving out one case of a (score, label) cell gives the same value for every
        case of that cell, so the jackknife costs one evaluation per cell, and for
        confusion measures (4 cells) and AUC/Gini (closed form) it is exact and
        vectorised. For other measures it is exact up to 2000 cells; beyond, each
        class's cells are cut into runs of adjacent scores (about 2000 runs in all)
        and the middle cell of each run stands for all the run's cases. That is an
        approximation which assumes a case's influence varies little between
        neighbouring scores of its class: within a few percent of the exact value
        for AUC-like and KS-like statistics in our checks, rougher for average
        precision when runs are long. It costs about 2000 evaluations of the
        measure (seconds at 1e5 distinct scores). The acceleration is of order
        skewness / (6 sqrt(n)), small for tables that large, so its error moves
        the BCa bounds little. With a stratified bootstrap the classes are separate samples (the
        multi-sample formula of scipy.stats.bootstrap), otherwise one sample.
        """
        key = self._key(measure)
        if key not in self._memo:
            samples = _jackknife(self._table, self._targets[key], self.threshold, self._units)
            if not self.stratified:
                samples = [(np.concatenate([s[0] for s in samples]),
                            np.concatenate([s[1] for s in samples]))]
            self._memo[key] = _acceleration(samples)
        return self._memo[key]

    def ci(self, measure: Any, kind: IntervalKind = "percentile",
           level: float = 0.95) -> BootstrapInterval:
        """A two-sided confidence interval from the bootstrap distribution.

        ``kind``: "percentile" (the alpha/2 and 1 - alpha/2 quantiles of the
        replicates, Berrar Def. 38), "basic" (2 estimate - those quantiles, reversed)
        or "bca" (bias-corrected and accelerated; see :meth:`acceleration`).
        Quantiles interpolate linearly (numpy's default), as scipy.stats.bootstrap
        does. Undefined replicates are left out, with a warning naming how many.
        """
        kind = _check_choice(kind, "kind", _KINDS)  # type: ignore[assignment]
        lv = check_level(level)
        key = self._key(measure)
        est = float(self.estimate[key])
        d = self._defined(key)
        k = self.n_undefined[key]
        nan = float("nan")
        if k:
            _report_undefined_replicates(key, k, self.n_resamples, "bootstrap replicates")

        def interval(lo: float, hi: float) -> BootstrapInterval:
            return BootstrapInterval(estimate=est, low=lo, high=hi, level=lv,
                                     method=f"bootstrap-{kind}", measure=key, kind=kind,
                                     n_used=int(d.size), n_undefined=k)

        if d.size == 0 or np.isnan(est):
            return interval(nan, nan)
        alpha = (1.0 - lv) / 2.0
        if kind == "bca":
            p0 = (np.count_nonzero(d < est) + np.count_nonzero(d <= est)) / (2.0 * d.size)
            z0 = float(ndtri(p0))
            a = self.acceleration(key)
            za = float(ndtri(alpha))
            with np.errstate(invalid="ignore", divide="ignore"):
                n1, n2 = z0 + za, z0 - za
                qs = np.array([ndtr(z0 + n1 / (1 - a * n1)), ndtr(z0 + n2 / (1 - a * n2))])
            if not np.isfinite(qs).all():
                warnings.warn(
                    f"the BCa interval of {key} cannot be computed (bias correction z0 = "
                    f"{z0:g}, acceleration {a:g}): the bootstrap distribution is degenerate "
                    "or the jackknife undefined; use kind='percentile'",
                    ResamplingWarning, stacklevel=2)
                return interval(nan, nan)
        else:
            qs = np.array([alpha, 1.0 - alpha])
        lo, hi = quantiles(d, qs)
        if kind == "basic":  # reflected, it can leave the measure's range: clip to it
            lo, hi = 2.0 * est - hi, 2.0 * est - lo
            bounds = self._range(key)
            lo, hi = min(max(lo, bounds[0]), bounds[1]), min(max(hi, bounds[0]), bounds[1])
        return interval(lo, hi)

    def _range(self, key: str) -> tuple[float, float]:
        try:
            return get_measure(key).range
        except KeyError:  # a callable statistic: no declared range
            return (-math.inf, math.inf)

    def to_frame(self, kind: IntervalKind = "percentile", level: float = 0.95) -> Any:
        """One row per measure: estimate, interval, standard error, undefined replicates."""
        import pandas as pd

        rows = []
        for key in self.measures:
            iv = self.ci(key, kind=kind, level=level)
            rows.append({"measure": key, "estimate": iv.estimate, "low": iv.low,
                         "high": iv.high, "standard_error": self.standard_error(key),
                         "n_undefined": iv.n_undefined})
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        return (f"BootstrapResult(measures={list(self.measures)}, n_resamples={self.n_resamples}, "
                f"stratified={self.stratified})")


@dataclass(frozen=True, eq=False)
class PermutationResult:
    """A label-permutation test of one measure on one table.

    Attributes
    ----------
    measure, observed : the measure id and its value on the table.
    null_distribution : its value under each permutation (NaN where undefined).
    pvalue : see :func:`permutation_pvalue`; computed from the defined null values.
    alternative, plus_one, n_permutations, n_undefined, threshold.
    """

    measure: str
    observed: float
    null_distribution: FloatArray
    pvalue: float
    alternative: str
    plus_one: bool
    n_permutations: int
    n_undefined: int
    threshold: float

    def __repr__(self) -> str:
        return (f"PermutationResult(measure={self.measure!r}, observed={self.observed:.6g}, "
                f"pvalue={self.pvalue:.6g}, alternative={self.alternative!r}, "
                f"n_permutations={self.n_permutations})")


# --- public functions ------------------------------------------------------------------------
def bootstrap(
    table: CountTable,
    measures: MeasureLike | Iterable[MeasureLike],
    *,
    n_resamples: int = 2000,
    threshold: float = 0.5,
    stratified: bool = True,
    random_state: Any = None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    n_cases: int | tuple[int, int] | None = None,
    progress: Progress | None = None,
) -> BootstrapResult:
    """Bootstrap distributions of measures, resampling the count table without sorting.

    Parameters
    ----------
    table : CountTable
        The evaluation set's table (``Evaluation.table``).
    measures : measure name, :class:`Measure`, callable, or a list of them
        Registered measures (ids or aliases) and/or callables ``f(table) -> float``.
        All are computed on the same replicates.
    n_resamples : int, default 2000
        Number of bootstrap replicates B (at least 1).
    threshold : float, default 0.5
        Cut of the confusion measures (``score >= threshold`` is positive).
    stratified : bool, default True
        Resample positives and negatives separately (each replicate keeps P and N);
        False resamples n cases from all cases.
    random_state : seed, Generator or None
        Same seed, same replicates.
    params : mapping, optional
        Parameters per measure, e.g. ``{"fbeta": {"beta": 2}}``.
    n_cases : int or (int, int), optional
        Weighted tables only: the number of cases the weights stand for (a pair
        (positives, negatives) when stratified). Default: the rounded total weight
        (see the module docstring).
    progress : callable, optional
        Called as ``progress(done, n_resamples)`` after each block of replicates
        (the CLI draws its progress bar with it).

    Returns
    -------
    BootstrapResult
        With ``ci(measure, kind, level)``; ``n_undefined`` counts the replicates in
        which a measure was undefined.

    Examples
    --------
    >>> from binmetrics import CountTable
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                            [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> res = bootstrap(t, ["auc", "mcc"], n_resamples=500, random_state=0)
    >>> res.estimate["auc"]
    0.8
    >>> low, high = res.ci("auc", kind="percentile")
    >>> bool(0.4 < low < 0.8 < high <= 1.0)
    True
    """
    t = _check_table(table)
    B = check_count(n_resamples, "n_resamples")
    th = check_threshold(threshold)
    targets = _targets(measures, params)
    estimate = {tg.key: tg.value(t, th) for tg in targets}  # ambient undefined policy
    sampler = _BootstrapSampler(t, bool(stratified), n_cases)
    rng = np.random.default_rng(random_state)
    reps = _evaluate_blocks(sampler.blocks(rng, B), targets, th, t.cut_index(th), B, progress)
    for r in reps.values():
        r.flags.writeable = False
    units = sampler.units if stratified else (sampler.units[0], sampler.units[0])
    return BootstrapResult(
        measures=tuple(tg.key for tg in targets),
        estimate=MappingProxyType(estimate),
        replicates=MappingProxyType(reps),
        n_undefined=MappingProxyType({k: int(np.isnan(v).sum()) for k, v in reps.items()}),
        n_resamples=B,
        stratified=bool(stratified),
        threshold=th,
        _table=t,
        _targets=MappingProxyType({tg.key: tg for tg in targets}),
        _units=(float(units[0]), float(units[-1])),
    )


def bootstrap_tables(
    table: CountTable,
    n_resamples: int,
    *,
    stratified: bool = True,
    random_state: Any = None,
    n_cases: int | tuple[int, int] | None = None,
) -> Iterator[CountTable]:
    """The bootstrap replicates as count tables: the same draws as :func:`bootstrap`
    with the same arguments, for statistics of your own or for checking.

    Each table holds the original scores that the replicate drew at least once, in
    the original order (no sort).
    """
    t = _check_table(table)
    B = check_count(n_resamples, "n_resamples")
    sampler = _BootstrapSampler(t, bool(stratified), n_cases)
    rng = np.random.default_rng(random_state)
    for block in sampler.blocks(rng, B):
        yield from block.tables()


def permutation_pvalue(
    null_distribution: Any,
    observed: float,
    *,
    alternative: Alternative = "greater",
    plus_one: bool = True,
) -> float:
    """Monte-Carlo p-value of ``observed`` against a null distribution.

    With ``plus_one`` (the default), "greater" gives
    ``(1 + #{null >= observed}) / (1 + n)``: the observed labelling counts as one of
    the permutations, so the p-value is never 0 and the test keeps its level
    (Phipson & Smyth 2010; scipy.stats.permutation_test does the same). With
    ``plus_one=False`` it is the plain ratio ``#{null >= observed} / n`` of Berrar
    section 5.1. "less" counts ``null <= observed``; "two-sided" is twice the
    smaller one-sided p-value, capped at 1. NaN null values are left out. Values
    within 100 machine epsilons (relative) of ``observed`` count as equal to it, so
    rounding cannot decide a tie.

    Examples
    --------
    Berrar's example: 300 of 10,000 permutations reach the observed 0.80.

    >>> null = [0.85] * 300 + [0.5] * 9700
    >>> permutation_pvalue(null, 0.80, plus_one=False)
    0.03
    >>> round(permutation_pvalue(null, 0.80), 6)  # (1 + 300) / (1 + 10000)
    0.030097
    """
    alt = check_alternative(alternative)
    null = np.asarray(null_distribution, dtype=np.float64).ravel()
    null = null[~np.isnan(null)]
    obs = float(observed)
    if np.isnan(obs) or null.size == 0:
        return float("nan")
    gamma = abs(obs) * 100.0 * np.finfo(np.float64).eps if np.isfinite(obs) else 0.0
    adj = 1 if plus_one else 0
    n = null.size + adj
    p_greater = (np.count_nonzero(null >= obs - gamma) + adj) / n
    p_less = (np.count_nonzero(null <= obs + gamma) + adj) / n
    if alt == "greater":
        return float(p_greater)
    if alt == "less":
        return float(p_less)
    return float(min(1.0, 2.0 * min(p_greater, p_less)))


def permutation_test(
    table: CountTable,
    measure: MeasureLike,
    *,
    n_permutations: int = 10_000,
    threshold: float = 0.5,
    alternative: Alternative | str = "auto",
    random_state: Any = None,
    plus_one: bool = True,
    params: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> PermutationResult:
    """Label-permutation test of a measure on the evaluation set.

    The null hypothesis is that labels and scores are unrelated. Each permutation
    assigns the P positive labels to a uniformly random P of the n cases over the
    fixed sorted scores (a multivariate hypergeometric split of each score's cases),
    so nothing is re-sorted. This tests the scores on this evaluation set; Berrar's
    section 5.1 procedure (retrain on permuted training labels) is a different test.

    Parameters
    ----------
    table : CountTable
        Unweighted, or weighted with integer (frequency) weights.
    measure : measure name, :class:`Measure` or callable ``f(table) -> float``
    n_permutations : int, default 10000
    threshold : float, default 0.5
        Cut of a confusion measure.
    alternative : {"auto", "greater", "less", "two-sided"}, default "auto"
        "auto" tests "better than chance" in a registered measure's direction
        ("greater" where higher is better, "less" for losses); a callable needs
        an explicit alternative.
    random_state : seed, Generator or None
    plus_one : bool, default True
        Count the observed labelling among the permutations (see
        :func:`permutation_pvalue`); False gives Berrar's plain ratio.
    params : mapping, optional
        The measure's parameters, e.g. ``{"beta": 2}``.

    Examples
    --------
    >>> from binmetrics import CountTable
    >>> t = CountTable.from_arrays([1, 1, 0, 1, 1, 0, 0, 1, 0, 0],
    ...                            [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1])
    >>> res = permutation_test(t, "auc", n_permutations=2000, random_state=0)
    >>> res.observed, bool(0.0 < res.pvalue < 0.1)
    (0.8, True)
    """
    t = _check_table(table)
    B = check_count(n_permutations, "n_permutations")
    registered = get_measure(measure) if isinstance(measure, (str, Measure)) else None
    alt = check_alternative(alternative, registered)
    th = check_threshold(threshold)
    if isinstance(measure, (str, Measure)):
        name = get_measure(measure).id
        (target,) = _targets([measure], {name: params} if params else None)
    else:
        if params:
            raise ValueError("params apply to registered measures, not to callables")
        (target,) = _targets([measure], None)
    sampler = _PermutationSampler(t)
    observed = target.value(t, th)
    rng = np.random.default_rng(random_state)
    null = _evaluate_blocks(sampler.blocks(rng, B), [target], th, t.cut_index(th), B,
                            progress)[target.key]
    null.flags.writeable = False
    k = int(np.isnan(null).sum())
    if k:
        _report_undefined_replicates(target.key, k, B, "permutations")
    p = permutation_pvalue(null, observed, alternative=alt,
                           plus_one=plus_one)
    return PermutationResult(measure=target.key, observed=observed, null_distribution=null,
                             pvalue=p, alternative=alt, plus_one=bool(plus_one),
                             n_permutations=B, n_undefined=k, threshold=th)


def permutation_tables(
    table: CountTable,
    n_permutations: int,
    *,
    random_state: Any = None,
) -> Iterator[CountTable]:
    """The permuted tables: the same permutations as :func:`permutation_test` with the
    same seed (same scores as ``table``, positives and negatives redistributed)."""
    t = _check_table(table)
    B = check_count(n_permutations, "n_permutations")
    sampler = _PermutationSampler(t)
    rng = np.random.default_rng(random_state)
    for block in sampler.blocks(rng, B):
        yield from block.tables()
