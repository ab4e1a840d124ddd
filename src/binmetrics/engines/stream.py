"""Streaming evaluation: :class:`Accumulator` adds batches to one count table.

The table of a union of batches is the sum of their tables (docs/architecture.md, "The one
idea"), so batches can arrive one at a time, or be accumulated on separate
workers whose accumulators are merged. The probabilistic losses are sums over
the table's distinct scores, so they too come out as on all the data at once.

Weighted counts are summed in double-double arithmetic (an error-free sum plus
its rounding error): merging accumulators in any order or grouping gives the same
table, the correctly rounded sum of the batches' counts (unless that sum lies
within about k 1e-32, relative, of a rounding boundary, k being the number of
tables merged). Unweighted counts are exact integers of the smallest unsigned type
that holds them (one byte each for continuous scores), widened as merges need.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import pandas as pd

from binmetrics.engines._windows import RecentRows, to_count_table
from binmetrics.evaluation.binary import Evaluation
from binmetrics.evaluation.options import DEFAULTS, EvalOptions
from binmetrics.exceptions import UndefinedPolicy
from binmetrics.formatting import Tabular
from binmetrics.table.counts import CountTable, FloatArray, chunks, count_dtype
from binmetrics.validation import (
    NanPolicy,
    as_1d,
    as_float,
    check_binary_inputs,
    check_labels,
    label_key,
    weight_exponent,
)

__all__ = ["Accumulator"]


def _recent_rows(window: Any) -> RecentRows | None:
    """The window of an Accumulator: None, the last ``window`` rows (an int), or the rows
    of the last ``window`` of time (a duration: "7D", "12h", a timedelta)."""
    if window is None:
        return None
    if isinstance(window, (int, np.integer)) and not isinstance(window, bool):
        if window < 1:
            raise ValueError(f"window={window} must be a positive number of rows")
        return RecentRows(size=int(window))
    try:
        span = pd.Timedelta(window)
    except (ValueError, TypeError):
        raise ValueError(f"window={window!r} is neither a number of rows nor a duration; "
                         "pass e.g. 10_000 or '7D'") from None
    if pd.isna(span) or span <= pd.Timedelta(0):
        raise ValueError(f"window={window!r} must be a positive duration, e.g. '7D'")
    return RecentRows(span=int(span.value))


class _State(NamedTuple):
    """Distinct scores (descending) and their counts.

    Unweighted: ``pos``/``neg`` are exact unsigned integers of the smallest type that
    holds ``bound`` (an upper bound on ``pos + neg``), ``pos_lo``/``neg_lo`` are None.
    Weighted: ``pos``/``neg`` and ``pos_lo``/``neg_lo`` are the (hi, lo) float64 pairs of
    double-double sums, ``bound`` is unused (0). ``cost_fp``/``cost_fn``: the sums of the
    per-case costs per score (:mod:`binmetrics.evaluation.case_costs`), or None.
    """

    scores: FloatArray
    pos: np.ndarray
    neg: np.ndarray
    pos_lo: FloatArray | None = None
    neg_lo: FloatArray | None = None
    bound: int = 0
    cost_fp: FloatArray | None = None
    cost_fn: FloatArray | None = None

    @property
    def weighted(self) -> bool:
        return self.pos_lo is not None


_UINTS = (np.uint8, np.uint16, np.uint32, np.uint64)


def _uint_for(bound: int) -> np.dtype:
    """The smallest unsigned integer type that holds ``bound``."""
    for dt in _UINTS:
        if bound <= np.iinfo(dt).max:
            return np.dtype(dt)
    raise OverflowError(f"counts up to {bound} do not fit in 64 bits")


def _max_total(st: _State) -> int:
    """max(pos + neg) of an unweighted state, in blocks (no full-size temporary; the
    sum cannot overflow: the dtype holds ``bound``)."""
    out = 0
    for sl in chunks(st.scores.size, 1 << 20):
        out = max(out, int(np.add(st.pos[sl], st.neg[sl]).max()))
    return out


def _to_weighted(st: _State) -> _State:
    """An unweighted state as double-double pairs (exact: the counts are integers
    below 2**53, so hi is the count and lo is 0)."""
    if st.weighted:
        return st
    zeros = np.zeros(st.scores.size)
    return _State(st.scores, st.pos.astype(np.float64), st.neg.astype(np.float64), zeros,
                  zeros, cost_fp=st.cost_fp, cost_fn=st.cost_fn)

def _union(parts: list[np.ndarray]) -> np.ndarray:
    """The distinct values of several label arrays, with numpy's type promotion (as
    one array of all the batches' labels would have)."""
    parts = [p for p in parts if p.size]
    if not parts:
        return np.zeros(0)
    both = np.concatenate(parts) if len(parts) > 1 else parts[0]
    return _distinct(both)


def _distinct(a: np.ndarray) -> np.ndarray:
    """The distinct values of ``a``, in its dtype."""
    return np.asarray(pd.unique(pd.Series(a, dtype=object)), dtype=a.dtype)


def _weights(sample_weight: Any, n: int) -> tuple[Any, bool]:
    """The weights to check, and whether they are all zero (a batch may carry no
    weight; the total is checked at evaluate): then ones are checked in their place."""
    if sample_weight is None:
        return None, False
    w = as_float(as_1d(sample_weight, "sample_weight"), "sample_weight")
    if w.size == n and n > 0 and not np.any(w != 0.0):  # NaN != 0: not all zero
        return np.ones(n), True
    return sample_weight, False


def python_scalar(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v


def _empty() -> _State:
    e = np.zeros(0, dtype=np.uint8)
    return _State(np.zeros(0), e, e)


def _dd_add(ah: FloatArray, al: FloatArray, bh: FloatArray,
            bl: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(ah + al) + (bh + bl) in double-double: Knuth's TwoSum of the high parts, then
    the low parts, renormalised so that hi is the rounded sum."""
    s = ah + bh
    bb = s - ah
    err = (ah - (s - bb)) + (bh - bb)
    lo = al + bl + err
    hi = s + lo
    return hi, lo - (hi - s)


def _merge(a: _State, b: _State) -> _State:
    """The state of the union of two states of the same kind (each with distinct
    descending scores): a linear merge of the two runs, placed by binary search.

    Where ``b``'s scores go is found with ``np.searchsorted`` on the reversed
    (ascending) scores of ``a``; the output arrays are allocated once and filled by
    index assignment; a score in both adds ``b``'s counts to ``a``'s (exactly for
    integer counts, in double-double for weighted ones).
    """
    if a.scores.size == 0:
        return b
    if b.scores.size == 0:
        return a
    m, k = a.scores.size, b.scores.size
    # gt[j]: how many of a's scores exceed b's j-th score (non-decreasing in j)
    gt = np.searchsorted(a.scores[::-1], b.scores[::-1], side="right")[::-1]
    np.subtract(m, gt, out=gt)
    dup = gt < m
    dup[dup] = a.scores[gt[dup]] == b.scores[dup]  # the same score in both
    d = int(np.count_nonzero(dup))
    # output position of b's j-th score: gt[j] + j - (scores of b in a before j)
    pos = gt
    pos += np.arange(k)
    new: Any
    if d:
        before = np.cumsum(dup, dtype=np.intp)
        before -= dup
        pos -= before
        del before
        new, pos_dup = ~dup, pos[dup]
        pos_new = pos[new]
    else:
        new, pos_dup, pos_new = slice(None), pos[:0], pos
    del gt
    size = m + k - d
    from_a = np.ones(size, dtype=bool)
    from_a[pos_new] = False

    def place(x: np.ndarray, y: np.ndarray, dtype: Any) -> np.ndarray:
        out = np.empty(size, dtype=dtype)
        out[from_a] = x
        out[pos_new] = y[new]
        return out

    scores = place(a.scores, b.scores, np.float64)
    costs: dict[str, Any] = {}
    if a.cost_fp is not None and b.cost_fp is not None:  # the sums of both (plain adds)
        for name in ("cost_fp", "cost_fn"):
            x, y = getattr(a, name), getattr(b, name)
            c = place(x, y, np.float64)
            if d:
                c[pos_dup] += y[dup]
            costs[name] = c
    if not a.weighted:
        bound = a.bound + b.bound
        dt = _uint_for(bound)
        if dt.itemsize > max(a.pos.itemsize, b.pos.itemsize):  # tighten before widening
            bound = _max_total(a) + _max_total(b)
            dt = _uint_for(bound)
        p, n = place(a.pos, b.pos, dt), place(a.neg, b.neg, dt)
        if d:
            p[pos_dup] += b.pos[dup]
            n[pos_dup] += b.neg[dup]
        return _State(scores, p, n, bound=bound, **costs)
    assert a.pos_lo is not None and a.neg_lo is not None
    assert b.pos_lo is not None and b.neg_lo is not None
    ph, pl = place(a.pos, b.pos, np.float64), place(a.pos_lo, b.pos_lo, np.float64)
    nh, nl = place(a.neg, b.neg, np.float64), place(a.neg_lo, b.neg_lo, np.float64)
    if d:
        ph[pos_dup], pl[pos_dup] = _dd_add(ph[pos_dup], pl[pos_dup], b.pos[dup],
                                           b.pos_lo[dup])
        nh[pos_dup], nl[pos_dup] = _dd_add(nh[pos_dup], nl[pos_dup], b.neg[dup],
                                           b.neg_lo[dup])
    return _State(scores, ph, nh, pl, nl, **costs)


def _sort_merge(states: list[_State]) -> _State | None:
    """The union of unweighted states by one sort of all their scores (the
    :class:`~binmetrics.engines._common.Collector`: the scores sorted alone, the
    minority class's apart, counts placed by binary search); None when the counts
    would not fit 32 bits (then pairwise merging keeps exact integers)."""
    from binmetrics.engines._common import Collector, Group

    n_pos = sum(int(st.pos.sum(dtype=np.uint64)) for st in states)
    n = n_pos + sum(int(st.neg.sum(dtype=np.uint64)) for st in states)
    if n >= 2**32:
        return None
    minority_rows = sum(int(np.count_nonzero(st.pos if 2 * n_pos <= n else st.neg))
                        for st in states)
    col = Collector([Group(key=(), n_fin=n, n_pos=n_pos)],
                    capacity=[(sum(st.scores.size for st in states), minority_rows)])
    for st in states:
        col.add({"s": st.scores, "pos": st.pos, "neg": st.neg})
    table = col.tables()[0]
    if table is None:
        return _empty()
    return _State(table.scores, table.pos, table.neg, bound=int(
        _max_total(_State(table.scores, table.pos, table.neg))))


#: three or more unweighted states holding more distinct scores than this in all are
#: merged by one sort (_sort_merge) rather than pairwise: NumPy's sort of the scores
#: alone beats log2(k) rounds of merges (30 states of 1e6 scores: 1.0 s against
#: 11.5 s); for two states the two are alike. benchmarks/README.md, bench_scale.py:
#: 1e8 distinct scores in 100 batches.
SORT_MERGE_SIZE = 1 << 22


def _merge_all(states: list[_State]) -> _State:
    """Balanced pairwise merging (cost n log k rather than n k); unweighted states of
    many scores by one sort. If any state is weighted, the unweighted ones are
    converted (once) first."""
    plain = not any(st.weighted or st.cost_fp is not None for st in states)
    if len(states) > 2 and plain and \
            sum(st.scores.size for st in states) > SORT_MERGE_SIZE:
        merged = _sort_merge(states)
        if merged is not None:
            return merged
    if any(st.weighted for st in states):
        states = [_to_weighted(st) for st in states]
    while len(states) > 1:
        states = [_merge(states[i], states[i + 1]) if i + 1 < len(states) else states[i]
                  for i in range(0, len(states), 2)]
    return states[0] if states else _empty()


class Accumulator(Tabular):
    """A count table built batch by batch; accumulators of workers merge.

    ``update`` validates each batch as :func:`binmetrics.evaluate` validates its
    input (a bad batch is an error naming the batch, and changes nothing) and adds
    its table. ``merge`` (or ``+``) combines accumulators, in any order, into the
    table of all their batches. ``evaluate`` gives the same
    :class:`~binmetrics.Evaluation` as one :func:`~binmetrics.evaluate` call on all
    the rows, probabilistic measures included (to ~1e-15 relative for weighted
    counts, whose per-batch sums are rounded; exactly for unweighted ones).

    Parameters
    ----------
    pos_label : optional
        The positive class, needed unless the labels are {0, 1}, {-1, 1} or
        booleans. A batch may hold one class only; the labels of all the batches
        together must pass the checks of :func:`binmetrics.evaluate` (two classes, a
        standard encoding or ``pos_label``), checked as each batch arrives.
    nan_policy : {"raise", "omit"}, default "raise"
        NaN/inf scores: an error, or the rows are dropped and counted in
        :attr:`n_omitted` (a batch of such rows only adds nothing).
    window : int or str, optional
        Keep only the most recent rows: an int keeps the last ``window`` rows added (in
        the order added), a duration ("7D", "12h", a timedelta) the rows whose time
        (``update(..., time=)``) lies within it of the newest time seen,
        ``time > newest - window``. The table is kept by adding each batch's table and
        subtracting the table of the rows that leave (exact counts: the evaluation is
        that of the rows in the window); the rows in the window are held, weights are
        not supported, and windowed accumulators do not merge. Default None: every row.

    Attributes
    ----------
    n_rows, n_positive_rows, n_omitted, n_batches : int
        Rows added (after ``nan_policy``; in the window, with ``window``), positive rows
        among them, rows dropped, batches added (empty ones included).

    Examples
    --------
    >>> import binmetrics as bm
    >>> from binmetrics.engines import Accumulator
    >>> y = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
    >>> s = [.95, .8, .75, .6, .5, .45, .3, .25, .2, .1]
    >>> a, b = Accumulator(), Accumulator()  # e.g. two workers
    >>> _ = a.update(y[:4], s[:4]).update(y[4:7], s[4:7])
    >>> _ = b.update(y[7:], s[7:])
    >>> ev = (a + b).evaluate(threshold=0.55)
    >>> ev["auc"], ev.confusion, (a + b).n_rows
    (0.8, Confusion(tp=3, fp=1, fn=2, tn=4), 10)
    >>> (a + b).table.equals(bm.CountTable.from_arrays(y, s))
    True

    The last 4 rows of a stream:

    >>> last = Accumulator(window=4).update(y[:6], s[:6]).update(y[6:], s[6:])
    >>> last.n_rows, last.table.equals(bm.CountTable.from_arrays(y[-4:], s[-4:]))
    (4, True)
    """

    def __init__(self, *, pos_label: Any = None, nan_policy: NanPolicy = "raise",
                 window: int | str | Any = None) -> None:
        EvalOptions(pos_label=pos_label, nan_policy=nan_policy)  # checks them
        self.window = window
        self._recent = _recent_rows(window)
        self.pos_label = pos_label
        self.nan_policy: NanPolicy = nan_policy
        self.n_rows = 0
        self.n_positive_rows = 0
        self.n_omitted = 0
        self.n_batches = 0
        self._weighted = False
        self._costed: bool | None = None  # batches carry per-case costs (None: no batch yet)
        self._seen: np.ndarray = np.zeros(0)  # distinct labels seen (at most two)
        self._found_pos: Any = None  # the positive label found without pos_label
        self._state: _State = _empty()
        self._pending: list[_State] = []
        self._pending_size = 0
        self._table: CountTable | None = None

    # --- adding data ----------------------------------------------------------------
    def update(self, y_true: Any, y_score: Any = None, sample_weight: Any = None, *,
               time: Any = None, label: str | None = None, score: str | None = None,
               weight: str | None = None, case_cost_fp: Any = None,
               case_cost_fn: Any = None) -> Accumulator:
        """Add one batch (validated as :func:`binmetrics.evaluate` does); returns self.

        ``case_cost_fp``, ``case_cost_fn``: per-case costs, one finite cost >= 0 per row
        (as in :func:`binmetrics.evaluate`), summed per distinct score
        (:mod:`binmetrics.evaluation.case_costs`); every batch gives them (either may
        be None: 0), or none does. Rows that ``nan_policy="omit"`` drops take their
        costs with them. Not with ``window=``.

        With ``window=`` a duration, ``time`` gives each row's time (datetimes, or
        strings pandas reads as dates); the rows older than the window then leave.

        A bad batch is an error naming it ("batch 3: ...") and changes nothing. A
        batch may hold one class only, or carry zero weight only: the labels and the
        total weight are checked over all the batches (the total at :meth:`evaluate`).

        ``update(table, label="y", score="p", weight="w")`` adds the columns of a table
        (pandas, Polars or PyArrow); a Polars LazyFrame is read by Polars' streaming
        engine and added batch by batch (each one a batch).

        Examples
        --------
        >>> acc = Accumulator().update([1, 0], [0.9, 0.2]).update([0], [0.4])
        >>> acc.n_rows, acc.n_batches, acc.table.scores.tolist()
        (3, 2, [0.9, 0.4, 0.2])
        >>> Accumulator().update([0, 0], [0.9, 0.2]).update([-1], [0.3])  # as evaluate
        Traceback (most recent call last):
        ...
        ValueError: batch 1: y_true has labels [-1, 0], which are not {0, 1}, {-1, 1} ...
        >>> import pandas as pd
        >>> Accumulator().update(pd.DataFrame({"y": [1, 0], "p": [.9, .2]}), label="y",
        ...                      score="p").n_rows
        2
        """
        if label is not None or score is not None or weight is not None:
            if case_cost_fp is not None or case_cost_fn is not None:
                raise TypeError("per-case costs go with arrays: update(y, p, "
                                "case_cost_fp=..., case_cost_fn=...), not with a table's columns")
            return self._update_table(y_true, y_score, sample_weight, label, score, weight)
        k = self.n_batches
        try:
            y = as_1d(y_true, "y_true")
            s_raw = as_1d(y_score, "y_score")
            if y.size == 0 and s_raw.size == 0:
                self.n_batches += 1
                return self
            if y.size != s_raw.size:
                raise ValueError(f"y_true and y_score have different lengths: {y.size} and "
                                 f"{s_raw.size}")
            finite = np.isfinite(as_float(s_raw, "y_score"))
            w_check, zero_weights = _weights(sample_weight, y.size)
            costs = self._costs_of(case_cost_fp, case_cost_fn, y.size)
            if self.nan_policy == "omit" and not finite.any():
                if sample_weight is not None:  # still checked: a bad batch is an error
                    check_binary_inputs(np.ones(y.size, bool), np.zeros(y.size), w_check)
                self.n_omitted += int(y.size)
                self.n_batches += 1
                return self
            times = self._times_of(time, sample_weight, y.size)
            y_bool, seen, found = self._labels_of(y)
            # weights as given: a batch's unit must stay that of the other batches
            inp = check_binary_inputs(y_bool, s_raw, w_check, nan_policy=self.nan_policy,
                                      rescale_weights=False)
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"batch {k}: {exc}") from None
        if self._recent is not None:  # a window: its table kept by add and subtract
            if times is not None and inp.n_omitted:
                times = times[finite]
            self._recent.add(inp.y, inp.score, times)
            self._seen = seen
            if found is not None:
                self._found_pos = found
            self.n_rows = self._recent.n_rows
            self.n_positive_rows = self._recent.table.n_pos
            self.n_omitted += inp.n_omitted
            self.n_batches += 1
            self._table = None
            return self
        if zero_weights:  # its scores, with no weight (a CountTable must have some)
            scores = np.unique(inp.score)[::-1].copy()
            zeros = np.zeros(scores.size)
            state = _State(scores, zeros, zeros, zeros, zeros)
            if costs is not None:
                state = state._replace(cost_fp=zeros, cost_fn=zeros)
        else:
            table = CountTable.from_validated(inp.y, inp.score, inp.weight)
            if table.weighted:
                zeros = np.zeros(table.n_distinct)
                state = _State(table.scores, table.pos, table.neg, zeros, zeros)
            else:  # exact integers of the smallest type (counts.count_dtype)
                state = _State(table.scores, table.pos, table.neg,
                               bound=_max_total(_State(table.scores, table.pos, table.neg)))
            if costs is not None:
                from binmetrics.evaluation.case_costs import case_cost_sums

                fp, fn = (None if c is None else c[finite] if inp.n_omitted else c
                          for c in costs)
                cfp, cfn = case_cost_sums(table.scores, inp.y, inp.score, inp.weight, fp, fn)
                state = state._replace(cost_fp=cfp, cost_fn=cfn)
        self._costed = costs is not None
        self._pending.append(state)
        self._pending_size += state.scores.size
        self._seen = seen
        if found is not None:
            self._found_pos = found
        self._weighted |= sample_weight is not None
        self.n_rows += int(inp.y.size)
        self.n_positive_rows += int(np.count_nonzero(inp.y))
        self.n_omitted += inp.n_omitted
        self.n_batches += 1
        self._table = None
        if self._pending_size > max(self._state.scores.size, 1 << 16):
            self._collapse()
        return self

    def _update_table(self, data: Any, y_score: Any, sample_weight: Any, label: str | None,
                      score: str | None, weight: str | None) -> Accumulator:
        """The columns of ``data`` as one batch; a Polars LazyFrame as its batches."""
        if y_score is not None or sample_weight is not None:
            raise TypeError("give the columns by name (label='y', score='p', weight='w') or "
                            "the arrays, not both")
        if not (isinstance(label, str) and isinstance(score, str)):
            raise TypeError("a table's batch needs its label and score columns: "
                            "update(table, label='y', score='p')")
        if type(data).__name__ == "LazyFrame" and hasattr(data, "collect_batches"):
            cols = [label, score, *([weight] if weight is not None else [])]
            self._check_columns(list(data.collect_schema().names()), cols, "the LazyFrame")
            for batch in data.select(cols).collect_batches(engine="streaming"):
                self._update_table(batch, None, None, label, score, weight)
            return self
        names = getattr(data, "column_names", None)  # PyArrow; pandas and Polars: columns
        available = [str(c) for c in (names if names is not None
                                      else getattr(data, "columns", []))]
        if not available:
            raise TypeError(f"update(table, label=, score=) needs a table (pandas, Polars or "
                            f"PyArrow); got {type(data).__name__}")
        cols = [label, score, *([weight] if weight is not None else [])]
        self._check_columns(available, cols, "the table")

        def column(name: str) -> Any:
            col = data.column(name) if names is not None else data[name]
            return col.to_numpy() if hasattr(col, "to_numpy") else np.asarray(col)

        return self.update(column(label), column(score),
                           None if weight is None else column(weight))

    @staticmethod
    def _check_columns(available: list[str], cols: list[str], where: str) -> None:
        from binmetrics.engines._common import check_names

        roles = ("label", "score", "weight")
        check_names(available, list(zip(roles, cols, strict=False)), where)

    def _costs_of(self, case_cost_fp: Any, case_cost_fn: Any,
                  n: int) -> tuple[FloatArray | None, FloatArray | None] | None:
        """The batch's checked per-case costs (None: the batch has none)."""
        if case_cost_fp is None and case_cost_fn is None:
            if self._costed:
                raise ValueError("the earlier batches carry per-case costs: give every "
                                 "batch its case_cost_fp/case_cost_fn (or none)")
            return None
        if self._recent is not None:
            raise ValueError("a windowed Accumulator does not carry per-case costs; "
                             "use one without window=")
        if self._costed is False:
            raise ValueError("the earlier batches carry no per-case costs: give every "
                             "batch its case_cost_fp/case_cost_fn (or none)")
        from binmetrics.evaluation.case_costs import check_case_costs

        fp = None if case_cost_fp is None else check_case_costs(case_cost_fp, "case_cost_fp", n)
        fn = None if case_cost_fn is None else check_case_costs(case_cost_fn, "case_cost_fn", n)
        return fp, fn

    def _times_of(self, time: Any, sample_weight: Any, n: int) -> npt.NDArray[np.int64] | None:
        """The batch's times in nanoseconds (None without a time window)."""
        recent = self._recent
        if recent is None or recent.span is None:
            if time is not None:
                raise ValueError("time= is read only with a time window, "
                                 "Accumulator(window='7D')")
            if recent is not None and sample_weight is not None:
                raise ValueError("a windowed Accumulator counts rows: sample_weight is not "
                                 "supported with window=")
            return None
        if sample_weight is not None:
            raise ValueError("a windowed Accumulator counts rows: sample_weight is not "
                             "supported with window=")
        if time is None:
            raise ValueError(f"window={self.window!r} is a time window: pass each row's "
                             "time, update(y, p, time=ts)")
        try:
            t = pd.DatetimeIndex(pd.to_datetime(as_1d(time, "time")))
        except (ValueError, TypeError):
            raise ValueError("time holds values that are not dates or times") from None
        if t.size != n:
            raise ValueError(f"time has {t.size} values for {n} rows")
        if t.hasnans:
            raise ValueError(f"time has {int(np.count_nonzero(t.isna()))} missing values")
        return np.asarray(t.as_unit("ns").asi8, dtype=np.int64)  # pandas 3 parses to "us"

    def _labels_of(self, y: np.ndarray) -> tuple[npt.NDArray[np.bool_], np.ndarray, Any]:
        """The batch's labels as booleans, the labels seen with it, the positive found."""
        missing = pd.isna(y) if y.dtype.kind in "fOUS" else np.zeros(y.size, dtype=bool)
        if missing.any():
            raise ValueError(f"y_true has {int(missing.sum())} missing labels (NaN/None) at "
                             f"rows {np.flatnonzero(missing)[:5].tolist()}")
        seen = _union([self._seen, _distinct(y)])
        pos = self._check_seen(seen, "the batches so far")
        if pos is None:  # one class so far, with pos_label: compared as evaluate compares
            return np.asarray(y == self.pos_label, dtype=bool), seen, None
        y_bool = np.asarray(y == pos, dtype=bool) if y.dtype != np.bool_ or isinstance(
            pos, (bool, np.bool_)) else (y if pos else ~y)
        return y_bool, seen, (pos if self.pos_label is None else None)

    def _check_seen(self, seen: np.ndarray, where: str) -> Any:
        """Run evaluate's label checks on the union of the labels; the positive label,
        or None while one class only has been seen with ``pos_label`` given (whether it
        is that class cannot be told yet)."""
        if seen.size > 2:
            shown = sorted((python_scalar(v) for v in seen), key=label_key)
            raise ValueError(f"y_true must hold exactly two classes; {where} hold "
                             f"{len(shown)} distinct values: {shown[:10]}")
        if seen.size == 0 or (self.pos_label is not None and seen.size < 2):
            return None
        try:
            pos = check_labels(seen, self.pos_label)[1]
        except ValueError as exc:
            raise ValueError(f"{exc} (the labels of {where})") from None
        return python_scalar(pos)

    def _collapse(self) -> None:
        if self._pending:
            self._state = _merge_all([self._state, *self._pending])
            self._pending = []
            self._pending_size = 0

    def merge(self, *others: Accumulator) -> Accumulator:
        """A new accumulator holding the batches of ``self`` and ``others`` (any order
        gives the same table); ``a + b`` is ``a.merge(b)``.

        Examples
        --------
        >>> a = Accumulator().update([1, 0], [0.9, 0.2], [2.0, 1.0])
        >>> b = Accumulator().update([1, 1], [0.9, 0.5], [0.5, 1.0])
        >>> m = a.merge(b)
        >>> m.table.scores.tolist(), m.table.pos.tolist(), m.n_rows
        ([0.9, 0.5, 0.2], [2.5, 1.0, 0.0], 4)
        >>> (b + a).table.equals(m.table)
        True
        """
        everyone = (self, *others)
        if any(a._recent is not None for a in everyone):
            raise TypeError("windowed accumulators do not merge (whose rows are the last "
                            "ones?); merge accumulators without window=")
        for o in others:
            if not isinstance(o, Accumulator):
                raise TypeError(f"can only merge Accumulators, got {type(o).__name__}")
            if o.pos_label != self.pos_label or o.nan_policy != self.nan_policy:
                raise ValueError("accumulators merge only with the same pos_label and "
                                 f"nan_policy; got {self.pos_label!r}/{self.nan_policy!r} and "
                                 f"{o.pos_label!r}/{o.nan_policy!r}")
        costed = {a._costed for a in everyone} - {None}
        if len(costed) > 1:
            raise ValueError("some accumulators carry per-case costs and some do not; give "
                             "every batch its case costs (or none)")
        labels = _union([a._seen for a in everyone])
        found = self._check_seen(labels, "the accumulators")
        out = Accumulator(pos_label=self.pos_label, nan_policy=self.nan_policy)
        for a in everyone:
            a._collapse()
        out._state = _merge_all([a._state for a in everyone])
        out._seen = labels
        out._found_pos = found if self.pos_label is None else None
        out._weighted = any(a._weighted for a in everyone)
        out._costed = costed.pop() if costed else None
        for attr in ("n_rows", "n_positive_rows", "n_omitted", "n_batches"):
            setattr(out, attr, sum(getattr(a, attr) for a in everyone))
        return out

    def __add__(self, other: object) -> Accumulator:
        if not isinstance(other, Accumulator):
            return NotImplemented
        return self.merge(other)

    # --- results ----------------------------------------------------------------------
    @property
    def table(self) -> CountTable:
        """The count table of every batch so far."""
        if self._table is None and self._recent is not None:
            if self._recent.n_rows == 0:
                raise ValueError("the window is empty: update() it with data first")
            self._table = to_count_table(self._recent.table)
        if self._table is None:
            self._collapse()
            st = self._state
            s, p, n = st.scores, st.pos, st.neg
            if s.size == 0:
                raise ValueError("the accumulator is empty: update() it with data first")
            if st.weighted:
                if not max(p.max(), n.max()) > 0:  # as evaluate() says (a sum may overflow)
                    raise ValueError("sample_weight sums to 0: no row carries any weight")
                # extreme weights: the table in a power-of-two unit (exact; the measures
                # do not change), as evaluate() rescales them
                exponent = weight_exponent(float(max(p.max(), n.max())))
                if exponent:
                    p, n = np.ldexp(p, exponent), np.ldexp(n, exponent)
                self._table = CountTable(s, p, n, weighted=True, _trusted=True)
                self._table.weight_exponent = exponent
            else:  # the type CountTable.from_arrays gives (the state's may be wider)
                exponent = 0
                dt = count_dtype(_max_total(st))
                self._table = CountTable(s, p.astype(dt, copy=False), n.astype(dt, copy=False),
                                         weighted=False, _trusted=True)
            if st.cost_fp is not None and st.cost_fn is not None:  # in the counts' unit
                self._table = self._table.with_case_costs(np.ldexp(st.cost_fp, exponent),
                                                          np.ldexp(st.cost_fn, exponent))
        return self._table

    @property
    def found_pos_label(self) -> Any:
        """The positive label: ``pos_label``, or the one of the standard encoding found."""
        if self.pos_label is None:
            return 1 if self._found_pos is None else self._found_pos
        return self.pos_label

    def evaluate(self, *, threshold: float = DEFAULTS.threshold,
                 undefined: UndefinedPolicy = DEFAULTS.undefined,
                 pi0: float | None = None) -> Evaluation:
        """The :class:`~binmetrics.Evaluation` of every batch so far (see
        :func:`binmetrics.evaluate` for the parameters).

        Raises ValueError as :func:`binmetrics.evaluate` does on the same rows: no
        rows, ``pos_label`` not among the labels, weights summing to 0.

        Examples
        --------
        >>> acc = Accumulator(pos_label="sick")
        >>> _ = acc.update(["well", "sick"], [0.2, 0.7]).update(["sick"], [0.4])
        >>> ev = acc.evaluate(threshold=0.5)
        >>> ev.confusion, ev["auc"], ev.pos_label
        (Confusion(tp=1, fp=0, fn=1, tn=1), 1.0, 'sick')
        >>> Accumulator().update([0, 1], [0.1, 0.2], [0.0, 0.0]).evaluate()
        Traceback (most recent call last):
        ...
        ValueError: sample_weight sums to 0: no row carries any weight
        """
        if self.pos_label is not None and self._seen.size:
            check_labels(self._seen, self.pos_label)  # pos_label must occur (or fit)
        options = EvalOptions(threshold=threshold, pos_label=self.pos_label,
                              nan_policy=self.nan_policy, undefined=undefined, pi0=pi0)
        return options.evaluation(self.table, pos_label=self.found_pos_label,
                                  n_omitted=self.n_omitted, n_rows=self.n_rows,
                                  n_positive_rows=self.n_positive_rows)

    def to_frame(self) -> pd.DataFrame:
        """The count table of every batch so far (:meth:`CountTable.to_frame`: score, pos,
        neg, tp, fp)."""
        return self.table.to_frame()

    def _shown(self) -> pd.DataFrame:
        """The counters, cheaply: printing an Accumulator never merges its pending
        batches (``to_frame()`` does)."""
        return pd.DataFrame({"batches": [self.n_batches], "rows": [self.n_rows],
                             "positive_rows": [self.n_positive_rows],
                             "omitted": [self.n_omitted]})

    def __repr__(self) -> str:
        if self._recent is not None:
            return (f"Accumulator(window={self.window!r}, batches={self.n_batches}, "
                    f"rows={self.n_rows}, distinct_scores={self._recent.table.keys.size})")
        return (f"Accumulator(batches={self.n_batches}, rows={self.n_rows}, "
                f"distinct_scores={self._state.scores.size + self._pending_size}"
                f"{' or fewer' if self._pending else ''}, weighted={self._weighted})")
