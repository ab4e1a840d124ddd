"""The mergeable count table and the confusion matrix.

Every threshold and ranking measure is a function of one small table: for each
distinct score, in descending order, the (weighted) number of positives and
negatives with that score (docs/architecture.md, "The one idea"). The probabilistic losses
are functions of (label, score) too, so they are plain weighted sums over the
same table. Ties are segments of the table, never broken by row order.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Hashable, Iterator
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, overload, runtime_checkable

import numpy as np
import numpy.typing as npt

from binmetrics.backends import compiled_table
from binmetrics.formatting import Tabular
from binmetrics.table.confusion import Confusion
from binmetrics.table.positive_groups import (
    PositiveGroups,
    count_sum,
    walked_groups,
    weighted_sums_before,
)
from binmetrics.table.sorting import group_starts, positions, runs, weighted_rows
from binmetrics.validation import NanPolicy, check_binary_inputs, check_threshold, in_user_units

if TYPE_CHECKING:
    import pandas as pd

FloatArray = npt.NDArray[np.float64]
_T = TypeVar("_T")


class cached_property(Generic[_T]):  # named as the functools one it replaces
    """``functools.cached_property`` without its lock: on Python < 3.12 that lock is
    one per property for all instances, so threads reading two different tables'
    ``tp`` (evaluate_by's groups, compare's models) waited for each other. Two
    threads on one table may each compute the value; both get equal arrays."""

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> cached_property[_T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _T: ...

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


def count_dtype(max_count: float) -> np.dtype:
    """The smallest unsigned integer type that holds exact counts up to ``max_count``.

    Unweighted tables keep their counts in it: with continuous scores almost every
    count is 0 or 1, and one byte per count instead of eight keeps the table small.
    """
    for dt in (np.uint8, np.uint16, np.uint32):
        if max_count <= np.iinfo(dt).max:
            return np.dtype(dt)
    return np.dtype(np.float64)


#: Elements per block when a measure makes a full pass over a large table: small
#: enough that the temporaries stay in cache, large enough to amortise the loop.
CHUNK = 1 << 16


def _float_cumsum(counts: npt.NDArray[Any]) -> FloatArray:
    """``np.cumsum(counts, dtype=np.float64)`` as a new array: cast, then summed in place.

    The same values; but NumPy runs a cumulative sum that casts as it goes (one-byte
    counts to floats) in small buffers without releasing the GIL, so threads summing
    different tables (evaluate_by's groups) waited for each other; the cast and the
    float sum each release it, and are faster one after the other too."""
    out = counts.astype(np.float64)
    return np.cumsum(out, out=out)


def block_size(size: int | None = None) -> int:
    """``size``, or :data:`CHUNK` as it is now (read at each call: tests shrink it)."""
    return CHUNK if size is None else size


def chunks(n: int, size: int | None = None, first: int = 0) -> Iterator[slice]:
    """Consecutive slices covering range(first * size, n), of ``size`` (default
    :data:`CHUNK`): the blocks from block ``first`` on."""
    size = block_size(size)
    for a in range(first * size, n, size):
        yield slice(a, min(a + size, n))


#: memo key of the rows holding positives when the build found them (positive_groups)
_POSITIVE_ROWS = "positive_rows"


class CountTable(Tabular):
    """Weighted counts of positives and negatives per distinct score, in descending order.

    Build one with :meth:`from_arrays`; combine tables of batches, files or
    partitions with ``+`` (:meth:`merge`): the table of a union is the sum of the
    tables. Cumulative counts ``tp``/``fp`` (length ``n_distinct + 1``, starting
    at 0) are the confusion matrices of every cut "the top k distinct scores are
    positive", i.e. of every threshold ``score >= scores[k-1]``.

    Counts are float64 when the table is weighted and exact unsigned integers
    (of the smallest type that holds them) when it is not.

    Examples
    --------
    >>> t = CountTable.from_arrays([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1])
    >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
    ([0.9, 0.8, 0.1], [1, 1, 0], [0, 1, 1])
    >>> t.tp.tolist(), t.fp.tolist()
    ([0.0, 1.0, 2.0, 2.0], [0.0, 0.0, 1.0, 2.0])
    """

    def __init__(
        self,
        scores: Any,
        pos: Any,
        neg: Any,
        *,
        weighted: bool = True,
        _trusted: bool = False,
        _totals: tuple[float, float] | None = None,
        _nonempty: bool = False,
    ) -> None:
        if _trusted:
            s, p, n = np.asarray(scores, dtype=np.float64), np.asarray(pos), np.asarray(neg)
        else:  # copies: the table freezes its arrays, and must not freeze the caller's
            s = np.array(scores, dtype=np.float64)
            p, n = np.array(pos, dtype=np.float64), np.array(neg, dtype=np.float64)
            if not (s.ndim == p.ndim == n.ndim == 1 and s.size == p.size == n.size):
                raise ValueError(
                    f"scores, pos and neg must be 1-D of equal length; got {s.shape}, "
                    f"{p.shape}, {n.shape}"
                )
            if s.size and not np.isfinite(s).all():
                raise ValueError("count table scores must be finite")
            if s.size > 1 and not (s[1:] < s[:-1]).all():
                raise ValueError("count table scores must be distinct and in descending order")
            finite = np.isfinite(p).all() and np.isfinite(n).all()
            if not finite or (p < 0).any() or (n < 0).any():
                raise ValueError("count table counts must be finite and non-negative")
            if not weighted:
                if (p % 1).any() or (n % 1).any():
                    raise ValueError("weighted=False needs whole-number counts; "
                                     "pass weighted=True for weighted counts")
                dt = count_dtype(float((p + n).max()) if p.size else 0.0)
                p, n = p.astype(dt), n.astype(dt)
        # unweighted groups hold at least one case; _nonempty: the builder knows every
        # group has weight (no zero weights), which saves a pass over the table
        if not (_trusted and (not weighted or _nonempty)):
            keep = (p + n) > 0
            if not keep.all():
                s, p, n = s[keep], p[keep], n[keep]
        if s.size == 0:
            raise ValueError("the count table is empty: no row carries any weight")
        for a in (s, p, n):
            a.flags.writeable = False
        self._scores, self._pos, self._neg = s, p, n
        self.weighted = bool(weighted)
        self._memo: dict[Any, Any] = {}
        #: (c, pi, pi0) when this table is another one calibrated to prevalence pi0
        #: (its negatives weighted by c), else None; see :meth:`calibrated`
        self.calibration: tuple[float, float, float] | None = None
        #: the table this one was calibrated from (None if not calibrated)
        self.uncalibrated: CountTable | None = None
        #: how an engine binned the scores (a :class:`binmetrics.table.binning.Binning`:
        #: the scores are then bin representatives, the raw scores' range and the
        #: probabilistic sums over them come from it), None for a table of exact scores
        self.binning: Any = None
        #: the weights were multiplied by 2**weight_exponent so that 1e308 or 5e-324
        #: weights neither overflow nor underflow (the measures do not change): the counts
        #: are in that unit, :meth:`in_user_units` gives them in the weights' own
        self.weight_exponent = 0
        #: per-case costs summed per distinct score, (false-positive costs of the
        #: negatives, false-negative costs of the positives), or None (:meth:`with_case_costs`)
        self.case_costs: tuple[FloatArray, FloatArray] | None = None
        if _totals is not None:  # P and N known by whoever built the counts
            self.__dict__["P"], self.__dict__["N"] = map(float, _totals)

    def memo(self, key: Hashable, compute: Callable[[], _T]) -> _T:
        """``compute()`` once per table and key: intermediate results that several
        measures share (e.g. the TPR - FPR statistics of KS, taKS and J_max)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def memoised(self, key: Hashable) -> bool:
        """Whether :meth:`memo` holds a result under ``key`` already."""
        return key in self._memo

    def in_user_units(self, x: float) -> float | str:
        """A count or total of this table in the weights' own unit (undoing
        :attr:`weight_exponent`): a float where exact, else a 10-digit string.

        Examples
        --------
        >>> t = CountTable.from_arrays([1, 0], [0.9, 0.1], sample_weight=[1e308, 1e308])
        >>> t.total, t.in_user_units(t.total)
        (1.1125369292536007, '2e+308')
        """
        return in_user_units(x, self.weight_exponent)

    # --- construction -------------------------------------------------------------
    @classmethod
    def from_arrays(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        sample_weight: Any = None,
        pos_label: Any = None,
        nan_policy: NanPolicy = "raise",
    ) -> CountTable:
        """Validate the input and build its table with one sort."""
        inp = check_binary_inputs(
            y_true, y_score, sample_weight, pos_label=pos_label, nan_policy=nan_policy
        )
        t = cls.from_validated(inp.y, inp.score, inp.weight)
        t.weight_exponent = inp.weight_exponent
        return t

    @classmethod
    def from_validated(
        cls, y: npt.NDArray[np.bool_], s: FloatArray, w: FloatArray | None
    ) -> CountTable:
        """The count table of arrays already checked (as
        :func:`~binmetrics.validation.check_binary_inputs` gives them): ``y`` boolean
        labels, ``s`` finite float64 scores, ``w`` non-negative float64 weights or None.
        No checks: the front doors (:meth:`from_arrays`, :func:`~binmetrics.evaluate`,
        the engines) validate first.

        Examples
        --------
        >>> import numpy as np
        >>> t = CountTable.from_validated(np.array([True, False, True]),
        ...                               np.array([0.9, 0.4, 0.4]), None)
        >>> t.scores.tolist(), t.pos.tolist(), t.neg.tolist()
        ([0.9, 0.4], [1, 1], [0, 1])
        """
        if w is None:
            return cls._build_unweighted(y, s)
        return cls._build_weighted(y, s, w)

    @classmethod
    def _build_weighted(cls, y: npt.NDArray[np.bool_], s: FloatArray,
                        w: FloatArray) -> CountTable:
        scores, pos, neg = weighted_rows(y, s, w)  # its sort is the CPU's (sorting.py)
        return cls(scores, pos, neg, weighted=True, _trusted=True,
                   _nonempty=bool(w.size) and float(w.min()) > 0.0)

    @classmethod
    def _build_unweighted(cls, y: npt.NDArray[np.bool_], s: FloatArray) -> CountTable:
        # np.sort is several times faster than argsort: sort all scores once to get the
        # groups, sort the minority class alone, and place its counts by binary search.
        keys = np.negative(s)
        keys.sort()
        n_pos = int(np.count_nonzero(y))
        minority_is_pos = n_pos <= y.size - n_pos
        mk = np.negative(s[y] if minority_is_pos else s[~y])
        mk.sort()
        return cls.from_sorted_keys(keys, mk, minority_is_pos=minority_is_pos,
                                     totals=(n_pos, y.size - n_pos))

    @classmethod
    def from_sorted_keys(
        cls,
        keys: FloatArray,
        minority: FloatArray,
        *,
        minority_is_pos: bool,
        totals: tuple[int, int],
        extra: tuple[FloatArray, npt.NDArray[np.integer[Any]]] | None = None,
        extra_minority: tuple[FloatArray, npt.NDArray[np.integer[Any]]] | None = None,
    ) -> CountTable:
        """An unweighted table from negated scores sorted ascending: ``keys`` holds one
        entry per case (its storage becomes the table's scores), ``minority`` one per
        case of the minority class.

        A row standing for several cases (an engine's count-table row) is one entry
        in ``keys`` (and in ``minority`` if it holds any minority case) plus its
        further cases in ``extra`` (and ``extra_minority``): (negated scores, counts),
        each score among ``keys``; ``totals`` are (P, N).
        """
        uniq, m = runs(keys)
        mk_u, mk_c = runs(minority)
        total: npt.NDArray[Any] | None = m
        if extra is not None and extra[0].size:
            total = np.ones(uniq.size, np.int64) if m is None else m.astype(np.int64)
            np.add.at(total, np.searchsorted(uniq, extra[0]), extra[1])
        dt = count_dtype(1 if total is None else int(total.max()))
        cnt_min = np.zeros(uniq.size, dtype=dt)
        at = positions(uniq, mk_u)  # the groups holding minority cases, ascending
        cnt_min[at] = 1 if mk_c is None else mk_c
        more_minority = extra_minority is not None and extra_minority[0].size > 0
        if extra_minority is not None and more_minority:
            np.add.at(cnt_min, np.searchsorted(uniq, extra_minority[0]),
                      extra_minority[1].astype(dt))
        cnt_maj = (1 - cnt_min) if total is None else (total.astype(dt) - cnt_min)
        if uniq is keys:
            np.negative(keys, out=keys)
            scores = keys
        else:
            scores = np.negative(uniq)
        pos, neg = (cnt_min, cnt_maj) if minority_is_pos else (cnt_maj, cnt_min)
        table = cls(scores, pos, neg, weighted=False, _trusted=True, _totals=totals)
        if minority_is_pos and not more_minority:
            # np.flatnonzero(pos), already known: scanning for it costs 0.2x np.sort
            table._memo[_POSITIVE_ROWS] = at
        return table

    # --- the table ---------------------------------------------------------------
    @property
    def scores(self) -> FloatArray:
        """Distinct scores, strictly descending."""
        return self._scores

    @property
    def pos(self) -> npt.NDArray[Any]:
        """(Weighted) positives per distinct score."""
        return self._pos

    @property
    def neg(self) -> npt.NDArray[Any]:
        """(Weighted) negatives per distinct score."""
        return self._neg

    def positive_groups(self) -> PositiveGroups:
        """The groups (distinct scores) that hold positives, with their cumulative counts.

        Most ranking measures are sums over the positives, so they need only these
        groups: with a prevalence of 0.1, about a tenth of the table.
        """

        def compute() -> PositiveGroups:
            idx = self._memo.pop(_POSITIVE_ROWS, None)
            size = block_size()
            loops = (compiled_table("binmetrics.table._running_numba", self.n_distinct)
                     if self.weighted else None)
            if loops is not None and self._pos.dtype == self._neg.dtype == np.float64:
                groups, carries = walked_groups(loops, self._pos, self._neg, size)
                self._keep_carries(size, carries)  # a large table's, in one compiled walk
                return groups
            if idx is None:
                idx = np.flatnonzero(self._pos)
            pos = self._pos[idx].astype(np.float64)
            neg = self._neg[idx].astype(np.float64)
            if idx.size == 0:
                empty = np.zeros(0)
                return PositiveGroups(idx=idx, pos=empty, neg=empty, tp0=empty, fp0=empty)
            if not self.weighted:  # integer counts: any order of summation is exact
                tp0 = np.concatenate(([0.0], np.cumsum(pos[:-1])))
                if self.total == self.n_distinct:  # one case per score: idx cases before
                    return PositiveGroups(idx=idx, pos=pos, neg=neg, tp0=tp0,
                                          fp0=idx.astype(np.float64) - tp0)
                between = np.empty(idx.size)  # negatives since the previous such group
                between[0] = count_sum(self._neg[:idx[0]])
                between[1:] = np.add.reduceat(self._neg, idx, dtype=np.float64)[:-1]
                return PositiveGroups(idx=idx, pos=pos, neg=neg, tp0=tp0,
                                      fp0=np.cumsum(between))
            tp0, fp0, carries = weighted_sums_before(self._neg, idx, pos, size)
            self._keep_carries(size, carries)
            return PositiveGroups(idx=idx, pos=pos, neg=neg, tp0=tp0, fp0=fp0)

        return self.memo("positive_groups", compute)

    def _keep_carries(self, size: int, carries: tuple[FloatArray, FloatArray]) -> None:
        """Memoise the blocks' carries that a walk gave as a by-product (unless longer
        ones are memoised: the top's only)."""
        key = ("block_carries", size)
        have = self._memo.get(key)
        if have is None or have[0].size < carries[0].size:
            self._memo[key] = carries

    def iter_cuts(self, size: int | None = None, *, first_block: int = 0) -> Iterator[
            tuple[int, FloatArray, FloatArray, npt.NDArray[Any], npt.NDArray[Any]]]:
        """Walk the cumulative counts block by block without building them whole.

        Yields ``(start, tp, fp, pos, neg)`` where ``tp[i]``, ``fp[i]`` are the counts
        at cut ``start + i + 1`` (after group ``start + i``) and ``pos``, ``neg`` the
        groups' own counts. The sums are carried from block to block in the order of
        one cumulative sum, so the values equal :attr:`tp` and :attr:`fp` bit for bit.
        ``size``: groups per block (default :data:`CHUNK`); ``first_block``: start at
        that block with the sums of :meth:`block_carries` (the same values as a walk
        from the top), for a measure that needs only some blocks.
        """
        tp_carry = fp_carry = 0.0
        if first_block:
            tps, fps = self.block_carries(size, blocks=first_block)
            tp_carry, fp_carry = float(tps[first_block]), float(fps[first_block])
        for sl in chunks(self.n_distinct, size, first_block):
            p, n = self._pos[sl], self._neg[sl]
            if self.weighted:  # carry first, as one cumulative sum adds
                tp = np.cumsum(np.concatenate(([tp_carry], p)))[1:]
                fp = np.cumsum(np.concatenate(([fp_carry], n)))[1:]
            else:  # integer counts: exact in any order
                tp = _float_cumsum(p)
                tp += tp_carry
                fp = _float_cumsum(n)
                fp += fp_carry
            yield sl.start, tp, fp, p, n
            tp_carry, fp_carry = float(tp[-1]), float(fp[-1])

    def block_carries(self, size: int | None = None, *,
                      blocks: int | None = None) -> tuple[FloatArray, FloatArray]:
        """(TP, FP) at the cut before each block of :meth:`iter_cuts`, and at the end.

        Entry k is the sum :meth:`iter_cuts` carries into block k, i.e. :attr:`tp` and
        :attr:`fp` at cut ``k * size``, bit for bit; entry k + 1 is at the last cut of
        block k (the last entry at cut ``n_distinct``). As the rates never decrease, a
        binary search on these finds the one block that holds a given rate. Memoised;
        ``n_distinct / size + 1`` entries at most, no table-sized temporary.

        ``size``: groups per block (default :data:`CHUNK`); ``blocks``: at least the
        entries 0..blocks (all by default). The sums are extended only as far as asked,
        from where the memo stopped: a read near the top does not sum the whole table.
        """
        size = block_size(size)
        n = self.n_distinct
        count = -(-n // size)
        want = count if blocks is None else min(max(blocks, 0), count)
        key = ("block_carries", size)
        have: tuple[FloatArray, FloatArray] | None = self._memo.get(key)
        if have is not None and have[0].size > want:
            return have
        if "tp" in self.__dict__ and "fp" in self.__dict__:  # built already: read them
            at = np.append(np.arange(0, n, size), n)
            out = (self.tp[at], self.fp[at])
        else:
            out = self._extend_carries(have, size, want)
        for a in out:
            a.flags.writeable = False
        self._memo[key] = out  # a race computes equal arrays twice, never a mix
        return out

    def _extend_carries(self, have: tuple[FloatArray, FloatArray] | None, size: int,
                        want: int) -> tuple[FloatArray, FloatArray]:
        """:meth:`block_carries` through block ``want - 1``, from the entries ``have``."""
        done = 0 if have is None else have[0].size - 1
        sums = np.zeros((2, want - done + 1))  # column 0: the last entry so far
        if have is not None:
            sums[:, 0] = (have[0][-1], have[1][-1])
        one_each = not self.weighted and self.total == self.n_distinct  # counts 0 or 1
        loops = compiled_table("binmetrics.table._running_numba", self.n_distinct)
        if self.weighted and loops is not None:  # the same running sums, compiled
            stop = min(self.n_distinct, want * size)
            for i, counts in enumerate((self._pos, self._neg)):
                if counts.dtype != np.float64:
                    break
                loops.block_carries(counts, done * size, stop, size, sums[i, 0], sums[i])
            else:
                return self._joined_carries(have, sums)
        buf = np.empty(min(size, self.n_distinct) + 1)  # one block, reused
        for j, sl in enumerate(chunks(min(self.n_distinct, want * size), size, done), 1):
            m = sl.stop - sl.start
            if one_each:  # one case per group: counting the positives is the fastest sum
                k = np.count_nonzero(self._pos[sl])
                sums[:, j] = sums[0, j - 1] + k, sums[1, j - 1] + (m - k)
                continue
            for i, counts in enumerate((self._pos, self._neg)):
                if self.weighted:  # the block's cumulative sum from the carry, as
                    buf[0] = sums[i, j - 1]  # iter_cuts adds it: the same last float
                    buf[1:m + 1] = counts[sl]
                    sums[i, j] = np.cumsum(buf[:m + 1], out=buf[:m + 1])[m]
                else:  # whole numbers: the block's sum is exact in any order; cast first
                    buf[:m] = counts[sl]  # (see _float_cumsum), then summed
                    sums[i, j] = sums[i, j - 1] + buf[:m].sum()
        return self._joined_carries(have, sums)

    @staticmethod
    def _joined_carries(have: tuple[FloatArray, FloatArray] | None,
                        sums: FloatArray) -> tuple[FloatArray, FloatArray]:
        if have is None:
            return sums[0], sums[1]
        return (np.concatenate((have[0][:-1], sums[0])),
                np.concatenate((have[1][:-1], sums[1])))

    @property
    def n_distinct(self) -> int:
        return int(self._scores.size)

    def __len__(self) -> int:
        return self.n_distinct

    @cached_property
    def P(self) -> float:
        """Total (weighted) positives."""
        return self._prefix_sums(self.n_distinct)[0]

    @cached_property
    def N(self) -> float:
        """Total (weighted) negatives."""
        return self._prefix_sums(self.n_distinct)[1]

    def _prefix_sums(self, k: int) -> tuple[float, float]:
        """(TP, FP) at cut k: the counts of the top k groups, summed in table order."""
        if "tp" in self.__dict__:  # the cumulative arrays exist already
            return float(self.tp[k]), float(self.fp[k])
        if k == 0:
            return 0.0, 0.0
        if self.weighted:  # sequential, as a cumulative sum adds them
            if k == self.n_distinct:  # the last carries: the same sums, by blocks (no
                tp, fp = self.block_carries()  # table-sized array), kept for the measures
                return float(tp[-1]), float(fp[-1])
            tps, fps = self.prefix_sums_at([k])  # the block holding cut k, from its carry
            return float(tps[0]), float(fps[0])
        return self._count_sum(self._pos[:k]), self._count_sum(self._neg[:k])

    def _count_sum(self, counts: npt.NDArray[Any]) -> float:
        """:func:`count_sum` of a slice of this unweighted table's counts; with one case
        per row (as many cases as rows, the totals known) every count is 0 or 1, and
        counting the nonzero ones is several times faster still."""
        d = self.__dict__
        if "P" in d and "N" in d and d["P"] + d["N"] == self.n_distinct:
            return float(np.count_nonzero(counts))
        return count_sum(counts)

    def prefix_sums_at(self, cuts: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """(TP, FP) at many cuts at once, equal to ``(tp[cuts], fp[cuts])``.

        Without building the table-sized cumulative arrays. Unweighted: the counts
        between successive cuts are summed (whole numbers, so exact in any order) and
        accumulated. Weighted: each block of :meth:`iter_cuts` that holds a cut is
        summed from its carry, in the sequential order every cut of the table shares.

        Examples
        --------
        >>> t = CountTable.from_arrays([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.6])
        >>> [v.tolist() for v in t.prefix_sums_at([0, 2, 4])]
        [[0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]
        """
        k = np.asarray(cuts, dtype=np.intp)
        if "tp" in self.__dict__:
            return self.tp[k], self.fp[k]
        bounds, inverse = np.unique(k, return_inverse=True)
        if self.weighted:
            return self._weighted_sums_at(bounds, inverse, k.shape)
        edges = [0, *bounds.tolist()]
        seg = np.array([(self._count_sum(self._pos[a:b]), self._count_sum(self._neg[a:b]))
                        for a, b in itertools.pairwise(edges)]).reshape(-1, 2)
        acc = np.cumsum(seg, axis=0)
        return acc[inverse, 0].reshape(k.shape), acc[inverse, 1].reshape(k.shape)

    def _weighted_sums_at(self, cuts: npt.NDArray[np.intp], inverse: npt.NDArray[np.intp],
                          shape: tuple[int, ...]) -> tuple[FloatArray, FloatArray]:
        """:meth:`prefix_sums_at` of a weighted table: ``cuts`` ascending and unique."""
        size = block_size()
        tp, fp = np.zeros(cuts.size), np.zeros(cuts.size)  # cut 0: nothing summed
        inner = np.flatnonzero(cuts > 0)
        block_of = (cuts[inner] - 1) // size  # cut c is the last of group c - 1
        for b in np.unique(block_of).tolist():
            start, btp, bfp, _, _ = next(self.iter_cuts(first_block=b))
            at = inner[block_of == b]
            tp[at], fp[at] = btp[cuts[at] - 1 - start], bfp[cuts[at] - 1 - start]
        return tp[inverse].reshape(shape), fp[inverse].reshape(shape)

    @property
    def total(self) -> float:
        return self.P + self.N

    @property
    def prevalence(self) -> float:
        return self.P / self.total

    @staticmethod
    def _cumulative(counts: npt.NDArray[Any]) -> FloatArray:
        out = np.empty(counts.size + 1)
        out[0] = 0.0
        out[1:] = counts  # cast first: see _float_cumsum
        np.cumsum(out[1:], out=out[1:])
        out.flags.writeable = False
        return out

    @cached_property
    def tp(self) -> FloatArray:
        """Cumulative positives after each cut (length n_distinct + 1, tp[0] = 0)."""
        return self._cumulative(self._pos)

    @cached_property
    def fp(self) -> FloatArray:
        """Cumulative negatives after each cut (length n_distinct + 1, fp[0] = 0)."""
        return self._cumulative(self._neg)

    @property
    def cum(self) -> FloatArray:
        """Cumulative cases (tp + fp) after each cut (computed on each call)."""
        return self.tp + self.fp

    @property
    def probabilities_ok(self) -> bool:
        """True when every score lies in [0, 1] (checked in O(1): the table is sorted).

        For binned scores it is the raw scores that must lie in [0, 1]."""
        low, high = (self._scores[-1], self._scores[0]) if self.binning is None else \
            self.binning.score_range
        return bool(high <= 1.0 and low >= 0.0)

    # --- cuts and thresholds -------------------------------------------------------
    def _sums_below(self, k: int) -> tuple[float, float]:
        """The weights below cut k, each summed from the bottom up (also when compiled)."""
        loops = compiled_table("binmetrics.table._running_numba", self.n_distinct)
        if k >= self.n_distinct or loops is None:
            return tuple(float(np.cumsum(c[k:][::-1])[-1]) if k < self.n_distinct else 0.0
                         for c in (self._pos, self._neg))  # type: ignore[return-value]
        return loops.reversed_sum(self._pos, k), loops.reversed_sum(self._neg, k)

    def cut_index(self, threshold: float) -> int:
        """Number of distinct scores >= threshold (the rule: positive iff score >= threshold)."""
        t = check_threshold(threshold)
        return bisect.bisect_right(self._scores, -t, key=lambda v: -v)

    def confusion(self, threshold: float) -> Confusion:
        """The confusion matrix at ``score >= threshold``."""
        k = self.cut_index(threshold)
        tp, fp = self._prefix_sums(k)
        if self.weighted:  # summed from the bottom: P - TP would lose small weights
            # summed in the order of cuts(), so a cut and the curve agree to the bit; a
            # sequential pass over the tail each, so kept per cut
            fn, tn = self.memo(("weights_below_cut", k), lambda: self._sums_below(k))
        else:
            fn, tn = self.P - tp, self.N - fp
        costs: dict[str, Any] = {}
        if self.case_costs is not None:
            cfp, cfn = self.case_costs
            costs = {"fp_cost": float(cfp[:k].sum()), "fn_cost": float(cfn[k:].sum())}
        return Confusion(tp=tp, fp=fp, fn=fn, tn=tn, weight_exponent=self.weight_exponent,
                         **costs)

    def cuts(self) -> Confusion:
        """Confusion matrices of every cut, as arrays of length ``n_distinct + 1``.

        Cut k predicts the top k distinct scores positive; its threshold is
        :meth:`thresholds`\\ ``[k]``.
        """
        costs: dict[str, Any] = {}
        if self.case_costs is not None:
            cfp, cfn = self.case_costs
            costs = {"fp_cost": self._cumulative(cfp), "fn_cost": self._suffix(cfn)}
        return Confusion(tp=self.tp, fp=self.fp, fn=self._suffix(self._pos),
                         tn=self._suffix(self._neg), **costs)

    def with_case_costs(self, fp_cost: Any, fn_cost: Any) -> CountTable:
        """This table carrying per-case costs summed per distinct score: ``fp_cost[g]``
        what the negatives at score g cost as false positives, ``fn_cost[g]`` what the
        positives there cost as false negatives (weights included). Cuts then carry the
        summed costs of their errors (``Confusion.fp_cost``, ``fn_cost``), which
        ``expected_cost`` reads; merging adds them."""
        cfp, cfn = (np.array(a, dtype=np.float64) for a in (fp_cost, fn_cost))
        if cfp.shape != (self.n_distinct,) or cfn.shape != (self.n_distinct,):
            raise ValueError(f"case costs need one sum per distinct score ({self.n_distinct})")
        out = CountTable(self._scores, self._pos, self._neg, weighted=self.weighted,
                         _trusted=True, _totals=(self.P, self.N), _nonempty=True)
        out.weight_exponent = self.weight_exponent
        for a in (cfp, cfn):
            a.flags.writeable = False
        out.case_costs = (cfp, cfn)
        return out

    @staticmethod
    def _suffix(counts: npt.NDArray[Any]) -> FloatArray:
        """Counts below each cut, summed from the bottom: P - TP would lose small weights
        next to large ones."""
        out = np.zeros(counts.size + 1)
        np.cumsum(counts[::-1], dtype=np.float64, out=out[-2::-1])
        return out

    def thresholds(self) -> FloatArray:
        """Threshold of each cut: +inf for cut 0 (nothing positive), then the scores."""
        return np.concatenate(([np.inf], self._scores))

    # --- calibration (Siblini et al.) --------------------------------------------
    def calibrated(self, pi0: float) -> CountTable:
        """The table reweighted to prevalence ``pi0``: each negative weighs
        c = pi (1 - pi0) / (pi0 (1 - pi)), pi being this table's prevalence.

        Every measure of the result is its calibrated version (Siblini et al. eq. 5:
        precision TP / (TP + c FP), and with it F1, AP, MCC...), while TPR, FPR and AUC
        are unchanged. With pi0 = pi nothing changes. pi is the weighted prevalence
        (weights are case frequencies; the paper's code has no weights).

        Examples
        --------
        >>> t = CountTable.from_arrays([1, 0, 1, 0, 0, 0], [.9, .8, .7, .4, .3, .1])
        >>> cal = t.calibrated(0.5)  # pi = 1/3, so each negative weighs c = 1/2
        >>> round(cal.prevalence, 12), [round(x, 12) for x in cal.calibration]
        (0.5, [0.5, 0.333333333333, 0.5])
        """
        from binmetrics.validation import check_in_range

        p0 = check_in_range(pi0, "pi0", 0.0, 1.0, low_open=True, high_open=True)
        if self.calibration is not None:
            raise ValueError("this table is calibrated already; calibrate the original")
        pi = self.prevalence
        if pi in (0.0, 1.0):
            raise ValueError(f"calibration needs both classes; the prevalence is {pi:g}")
        c = pi * (1.0 - p0) / (p0 * (1.0 - pi))
        out = CountTable(self._scores, self._pos.astype(np.float64),
                         self._neg.astype(np.float64) * c, weighted=True, _trusted=True)
        if self.case_costs is not None:  # each negative weighs c, its cost too
            out.case_costs = (self.case_costs[0] * c, self.case_costs[1])
        out.calibration = (c, pi, p0)
        out.uncalibrated = self
        out.binning = self.binning
        return out

    # --- merging -----------------------------------------------------------------
    def merge(self, *others: CountTable) -> CountTable:
        """The table of the union of the data behind ``self`` and ``others``."""
        tables = (self, *others)
        if any(t.binning is not None for t in tables):
            raise ValueError("tables of binned scores do not merge (their probabilistic sums "
                             "belong to one aggregation); merge exact tables (e.g. with "
                             "binmetrics.engines.Accumulator), or bin all the data at once")
        costed = [t.case_costs is not None for t in tables]
        if any(costed) and not all(costed):
            raise ValueError("some tables carry per-case costs and some do not; give every "
                             "batch its case costs (or none)")
        cols = [np.concatenate([t._pos.astype(np.float64) for t in tables]),
                np.concatenate([t._neg.astype(np.float64) for t in tables])]
        if all(costed):
            cols += [np.concatenate([t.case_costs[i] for t in tables  # type: ignore[index]
                                     ]) for i in (0, 1)]
        s = np.concatenate([t._scores for t in tables])
        order = np.argsort(-s, kind="stable")
        s, cols = s[order], [c[order] for c in cols]
        starts = group_starts(s)
        if starts is not None:
            s = s[starts]
            cols = [np.add.reduceat(c, starts) for c in cols]
        p, n = cols[0], cols[1]
        weighted = any(t.weighted for t in tables)
        if not weighted:
            dt = count_dtype(float((p + n).max()))
            p, n = p.astype(dt), n.astype(dt)
        out = CountTable(s, p, n, weighted=weighted, _trusted=True)
        if all(costed):
            out.case_costs = (cols[2], cols[3])
        return out

    def __add__(self, other: object) -> CountTable:
        if not isinstance(other, CountTable):
            return NotImplemented
        return self.merge(other)

    def equals(self, other: CountTable, *, rtol: float = 0.0, atol: float = 0.0) -> bool:
        """Same scores and (within tolerance) the same counts."""
        return (
            self.n_distinct == other.n_distinct
            and bool(np.array_equal(self._scores, other._scores))
            and bool(np.allclose(self._pos, other._pos, rtol=rtol, atol=atol))
            and bool(np.allclose(self._neg, other._neg, rtol=rtol, atol=atol))
        )

    def to_frame(self) -> pd.DataFrame:
        """The table as a pandas DataFrame (score, pos, neg, tp, fp)."""
        import pandas as pd

        return pd.DataFrame(
            {"score": self._scores, "pos": self._pos, "neg": self._neg,
             "tp": self.tp[1:], "fp": self.fp[1:]}
        )

    def _title(self) -> str:
        return (
            f"CountTable(n_distinct={self.n_distinct}, P={self.P:g}, N={self.N:g}, "
            f"weighted={self.weighted})"
        )


@runtime_checkable
class HasTable(Protocol):
    """Anything that holds a count table cut at a threshold, such as an
    :class:`~binmetrics.Evaluation`. The inference layer takes this protocol instead of
    the evaluation classes, which sit above it."""

    @property
    def table(self) -> CountTable: ...

    @property
    def threshold(self) -> float: ...

    @property
    def confusion(self) -> Confusion: ...
